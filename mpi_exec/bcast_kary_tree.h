// The k-ary tree broadcast on a communicator already set up, for Rosched_Bcast's choice.
#ifndef ROSCHED_MPI_EXEC_BCAST_KARY_TREE_H_
#define ROSCHED_MPI_EXEC_BCAST_KARY_TREE_H_

#include <mpi.h>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// Broadcasts count elements of datatype from root over ci (arguments already checked) by the
// pipelined k-ary tree (bcast_kary_tree.cc); ROSCHED_VERBOSE reports it as `name`.
void kary_tree_bcast_on(const CommInfo& ci, const char* name, void* buffer, int count,
                        MPI_Datatype datatype, const TypeInfo& type, int root);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_BCAST_KARY_TREE_H_
