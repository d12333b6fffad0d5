// The pipelined two-tree reduction (Sanders, Speck, Träff 2009, as presented in Träff's lecture
// notes, section "Two (pipelined) binary trees"), shared by Rosched_Reduce_two_tree and
// Rosched_Allreduce_two_tree.
#ifndef ROSCHED_MPI_EXEC_TWO_TREE_REDUCE_H_
#define ROSCHED_MPI_EXEC_TWO_TREE_REDUCE_H_

#include <mpi.h>

#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// acc holds this rank's count elements on entry. Walks TwoTreeReduceSchedule(p, n, rank, sink)
// on the communicator's private duplicate: per round at most one block of partial results
// received (combined into acc on the side the schedule names, so rank order is kept) and one
// sent, several rounds in flight (nonblocking; the window of two_tree_pipeline). On return the sink's acc holds the reduction, x_0 op ... op x_{p-1} for sink 0 or
// p - 1 (any operation), and the same with x_sink moved last for another sink (commutative
// operations only).
void two_tree_reduce(void* acc, int count, MPI_Datatype datatype, const TypeInfo& type,
                     MPI_Op op, int sink, const CommInfo& comm);

// The blocks and the rounds in flight both two-tree reductions use: the cost model's optimum for
// the two-tree schedule's rounds (pipeline_for), or the rule of block_count with
// ROSCHED_TWOTREE_F if set.
Pipeline two_tree_pipeline(const CommInfo& comm, int count, const TypeInfo& type);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_TWO_TREE_REDUCE_H_
