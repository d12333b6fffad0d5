// The multi-lane all-reduce of Rosched_Allreduce_node_aware (allreduce_lanes.cc).
#ifndef ROSCHED_MPI_EXEC_ALLREDUCE_LANES_H_
#define ROSCHED_MPI_EXEC_ALLREDUCE_LANES_H_

#include <mpi.h>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// Whether lane_allreduce_on applies on ci for count elements: the ranks sit on several nodes
// of equal size c > 1 and count >= c (the same answer on every rank; the first question on a
// communicator makes its node layout, collectively).
bool lane_allreduce_applies(const CommInfo& ci, int count);

// The reduction over all ranks of ci of their count elements at input (recvbuf itself for
// MPI_IN_PLACE) into recvbuf, where op is commutative (checked by the caller) and
// lane_allreduce_applies(ci, count). Arguments already checked; reported as `name`.
void lane_allreduce_on(const CommInfo& ci, const char* name, const void* input, void* recvbuf,
                       int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ALLREDUCE_LANES_H_
