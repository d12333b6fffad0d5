// The merge-allreduce's algorithms (allmerge.cc), for its entry point and choice
// (allmerge_choice.cc).
#ifndef ROSCHED_MPI_EXEC_ALLMERGE_H_
#define ROSCHED_MPI_EXEC_ALLMERGE_H_

#include <mpi.h>

#include "mpi_exec/allmerge_layout.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/merge_kernel.h"
#include "mpi_exec/mpi_call.h"
#include "sched/merge/merge_plan.h"

namespace rosched::mpi {

// Algorithm 0, 1 or 2 of Lang 2025 over ci (arguments checked): this rank's block `own`
// (counts.block(rank) elements of datatype) merged with every other rank's into recvbuf.
// own_in_recvbuf: own is the start of recvbuf (MPI_IN_PLACE), which the result overwrites.
void allmerge_by_schedule(merge::Algorithm algorithm, const CommInfo& ci, const BlockCounts& counts,
                          const void* own, bool own_in_recvbuf, void* recvbuf,
                          MPI_Datatype datatype, const TypeInfo& type, Merger& merger);

// The same result by the MPI library: its MPI_Allgatherv of the blocks (recvcounts, the
// counts of `counts`) into rank order on ci.user, then Algorithm 0's merge tree. own may be the
// start of recvbuf (MPI_IN_PLACE): the all-gather reads it before the merge tree writes recvbuf.
void library_allmerge(const CommInfo& ci, const int* recvcounts, const BlockCounts& counts,
                      const void* own, void* recvbuf, MPI_Datatype datatype, const TypeInfo& type,
                      Merger& merger);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ALLMERGE_H_
