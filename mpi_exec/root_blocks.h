// The blocks of a cut vector between the root and their ranks: block b of p (BlockCut) goes from
// rank b to the root (a gather: the reduce-scatter + gather reduction, reduce_scatter_gather.cc)
// or from the root to rank b (a scatter: the scatter + all-gather broadcast,
// bcast_scatter_allgather.cc). The root posts all its p - 1 transfers at once; a block of no
// elements is not sent.
#ifndef ROSCHED_MPI_EXEC_ROOT_BLOCKS_H_
#define ROSCHED_MPI_EXEC_ROOT_BLOCKS_H_

#include <mpi.h>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

enum class RootBlocks { kGather, kScatter };

// base holds cut.n elements of datatype on every rank (element j at base + j * type.extent);
// moves block b between rank b and root in the direction given, for every b != root.
void move_root_blocks(RootBlocks direction, const CommInfo& ci, char* base, const BlockCut& cut,
                      MPI_Datatype datatype, const TypeInfo& type, int root);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ROOT_BLOCKS_H_
