// What the calling thread's last call of a choosing entry point ran, for the interposer's
// report (pmpi/) and for tests that check a _choice query against the call it describes.
#ifndef ROSCHED_MPI_EXEC_LAST_RUN_H_
#define ROSCHED_MPI_EXEC_LAST_RUN_H_

#include <mpi.h>

#include "mpi_exec/cost_model.h"

namespace rosched::mpi {

// In the entry point's _choice numbers (0: the MPI library's collective), -1 before its first
// call on this thread; a timed first call of a size class counts as its winner. Kept under the
// entry point's first Decided kind and set by every successful call of:
//   kBcast       Rosched_Bcast                (0 the library's, 1 circulant, 2 hypercube,
//                                              3 two-tree, 4 k-ary tree, 5 scatter + all-gather)
//   kAllgather   Rosched_Allgather            (0 the library's, 1 Algorithm 7 or the node-aware
//                                              all-gather, 2 the n-port all-gather)
//   kAllgatherv  Rosched_Allgatherv           (0, 1 Algorithm 9, 2 the largest block's broadcast,
//                                              3 the n-port all-gather)
//   kReduce      Rosched_Reduce, Rosched_Reduce_node_aware
//                                             (Rosched_Reduce_choice's numbers, which are also
//                                              Rosched_Reduce_node_aware_choice's)
//   kAllreduce   Rosched_Allreduce, Rosched_Allreduce_node_aware
//                                             (Rosched_Allreduce_choice's numbers, 6 the
//                                              node-aware reduction + broadcast)
//   kReduceScatter   Rosched_Reduce_scatter_block (Rosched_Reduce_scatter_block_choice's)
//   kReduceScatterV  Rosched_Reduce_scatter       (Rosched_Reduce_scatter_choice's)
//   kAlltoall    Rosched_Alltoall(_variant)   (0, 1 a Bruck variant, 2 the linear exchange)
//   kAlltoallv   Rosched_Alltoallv(_variant)  (the same; it has no _choice query)
//   kAllmerge    Rosched_Allmerge             (ROSCHED_ALLMERGE_ALLGATHER, _DISSEMINATION,
//                                              _CIRCULANT or _LIBRARY: what AUTO chose, as
//                                              Rosched_Allmerge_choice answers, or what was asked)
// A reduction, all-reduce or reduce-scatter with nothing to reduce (an empty vector) runs
// nothing and records kNothingRan.
inline constexpr int kNothingRan = -1;
int last_run(Decided which);
void set_last_run(Decided which, int ran);

// library_result(name, comm, rc, call) (mpi_call.h) for a choosing entry point's call that went
// straight to the MPI library's collective (a repeat of its last call handed to the library, an
// inter-communicator), recording 0 under `which` where it succeeded.
int library_ran(Decided which, const char* name, MPI_Comm comm, int rc, const char* call);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_LAST_RUN_H_
