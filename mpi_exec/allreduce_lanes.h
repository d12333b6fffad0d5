// The multi-lane all-reduce of Rosched_Allreduce_node_aware and its form for short vectors
// (allreduce_lanes.cc).
#ifndef ROSCHED_MPI_EXEC_ALLREDUCE_LANES_H_
#define ROSCHED_MPI_EXEC_ALLREDUCE_LANES_H_

#include <mpi.h>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// Whether lane_allreduce_on applies on ci: the ranks sit on several nodes of equal size c > 1
// (the same answer on every rank; the first question on a communicator makes its node layout,
// collectively).
bool lane_allreduce_applies(const CommInfo& ci);

// Below this many bytes (or with fewer elements than c), lane_allreduce_on takes the n-way
// form for short vectors, else the multi-lane all-reduce: the geometric middle of 64 B, where
// the n-way form was measured faster (36 x 32 simulated ranks: 9.4 us against 24.1 with the
// reduction and broadcast before, 0.27 of the best selector), and 1 KiB, where it was slower
// (56.9 us; the multi-lane all-reduce 56.6 at 4 KiB, the n-way form 74.5) (docs/simulation.md,
// "Short all-reduces on multicore nodes").
inline constexpr double kLaneNwayBelow = 256;

// The reduction over all ranks of ci of their count elements at input (recvbuf itself for
// MPI_IN_PLACE) into recvbuf, where op is commutative (checked by the caller), count > 0 and
// lane_allreduce_applies(ci): for long vectors the multi-lane all-reduce; for short ones the
// n-way dissemination all-reduce (End et al. 2015) within each node, then within each lane, so
// that every rank holds its node's result after the first and everyone's after the second (n
// per step by the cost rule on that step's communicator, nway_ports, at most its size - 1).
// Arguments already checked; reported as `name`.
void lane_allreduce_on(const CommInfo& ci, const char* name, const void* input, void* recvbuf,
                       int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ALLREDUCE_LANES_H_
