// The multi-lane all-reduce of Rosched_Allreduce_node_aware (allreduce_lanes.cc).
#ifndef ROSCHED_MPI_EXEC_ALLREDUCE_LANES_H_
#define ROSCHED_MPI_EXEC_ALLREDUCE_LANES_H_

#include <mpi.h>

#include <utility>
#include <vector>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"
#include "sched/ring/ring_reduce_scatter.h"

namespace rosched::mpi {

// A vector of count elements cut into `parts` segments as the ring cuts it (in elements), or
// given its segments' counts.
struct Segments {
  Segments(int count, int parts) : counts(parts), displs(parts) {
    for (int k = 0; k < parts; ++k) {
      displs[k] = static_cast<int>(rosched::ring_segment_begin(count, parts, k));
      counts[k] = static_cast<int>(rosched::ring_segment_begin(count, parts, k + 1)) - displs[k];
    }
  }
  explicit Segments(std::vector<int> segment_counts)
      : counts(std::move(segment_counts)), displs(counts.size(), 0) {
    for (std::size_t k = 1; k < counts.size(); ++k) displs[k] = displs[k - 1] + counts[k - 1];
  }
  Segments() = default;
  std::vector<int> counts, displs;
};

// The ring reduce-scatter (Patarasuk and Yuan 2009, Sec. 4; sched/ring/ring_reduce_scatter.h)
// over the ranks of comm on the vector at base (this rank's contribution): segment comm.rank of
// it reduced over comm on return.
void ring_reduce_scatter_on(const CommInfo& comm, char* base, const Segments& seg,
                            MPI_Datatype datatype, const TypeInfo& type, MPI_Op op);

// The reduction over all ranks of ci of their count elements at input (recvbuf itself for
// MPI_IN_PLACE) into recvbuf, where the operation is commutative, the ranks sit on several
// nodes of equal size c > 1 and count >= c; returns false, having done nothing, elsewhere (the
// same answer on every rank). Arguments already checked; reported as `name`.
bool lane_allreduce_on(const CommInfo& ci, const char* name, const void* input, void* recvbuf,
                       int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ALLREDUCE_LANES_H_
