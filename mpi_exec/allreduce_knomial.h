// The k-nomial tree all-reduce of short vectors (allreduce_knomial.cc), one of
// Rosched_Allreduce's candidates.
#ifndef ROSCHED_MPI_EXEC_ALLREDUCE_KNOMIAL_H_
#define ROSCHED_MPI_EXEC_ALLREDUCE_KNOMIAL_H_

#include <mpi.h>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// Reduces count elements of datatype with op from every rank's input (recvbuf itself: in place)
// into recvbuf on every rank of ci (arguments already checked): the k-nomial tree reduction to
// rank 0 with the ports of its rule (knomial_ports; ROSCHED_REDUCE_PORTS sets them), then
// the k-nomial tree broadcast from rank 0 (knomial_bcast_on, reported as `name`). Any
// operation: the result is x_0 op x_1 op ... op x_{p-1}. p = 1: a copy.
void knomial_allreduce_on(const CommInfo& ci, const char* name, const void* input, void* recvbuf,
                          int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ALLREDUCE_KNOMIAL_H_
