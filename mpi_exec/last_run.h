// What the calling thread's last call of a choosing entry point ran, for the interposer's
// report (pmpi/) and for tests that check a _choice query against the call it describes.
#ifndef ROSCHED_MPI_EXEC_LAST_RUN_H_
#define ROSCHED_MPI_EXEC_LAST_RUN_H_

#include "mpi_exec/cost_model.h"

namespace rosched::mpi {

// In the entry point's _choice numbers (0: the MPI library's collective), -1 before its first
// call on this thread; a timed first call of a size class counts as its winner. Kept under the
// entry point's first Decided kind and set by every successful call of:
//   kBcast       Rosched_Bcast                (0 the library's, 1 circulant, 2 hypercube,
//                                              3 two-tree, 4 k-ary tree, 5 scatter + all-gather)
//   kAllgather   Rosched_Allgather            (0 the library's, 1 Algorithm 7)
//   kAllgatherv  Rosched_Allgatherv           (0, 1 Algorithm 9, 2 the largest block's broadcast)
//   kAlltoall    Rosched_Alltoall(_variant)   (0, 1 a Bruck variant, 2 the linear exchange)
//   kAlltoallv   Rosched_Alltoallv(_variant)  (the same; it has no _choice query)
// The other entry points leave their kinds at -1: the interposer asks their _choice queries.
int last_run(Decided which);
void set_last_run(Decided which, int ran);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_LAST_RUN_H_
