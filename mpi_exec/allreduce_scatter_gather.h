// The all-reduce of a reduce-scatter and an all-gather over the circulant graph
// (allreduce_scatter_gather.cc): Rosched_Allreduce_scatter_gather, and one of Rosched_Allreduce's
// candidates.
#ifndef ROSCHED_MPI_EXEC_ALLREDUCE_SCATTER_GATHER_H_
#define ROSCHED_MPI_EXEC_ALLREDUCE_SCATTER_GATHER_H_

#include <mpi.h>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// The all-reduce of `count` > 0 elements on ci, op commutative (checked by the caller);
// sendbuf may be MPI_IN_PLACE (the input is recvbuf). Reported as `name` (ROSCHED_VERBOSE).
void scatter_gather_allreduce(const CommInfo& ci, const char* name, const void* sendbuf,
                              void* recvbuf, int count, MPI_Datatype datatype, const TypeInfo& type,
                              MPI_Op op);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ALLREDUCE_SCATTER_GATHER_H_
