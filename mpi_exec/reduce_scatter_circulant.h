// The reduce-scatter over the circulant graph (reduce_scatter_circulant.cc): Träff 2022's
// regular all-gather (Alg. 7) run backwards, sched/circulant/reduce_scatter_schedule.h. The
// reduce-scatter of Rosched_Reduce_scatter(_block) and the first half of
// Rosched_Allreduce_scatter_gather (allreduce_scatter_gather.cc).
#ifndef ROSCHED_MPI_EXEC_REDUCE_SCATTER_CIRCULANT_H_
#define ROSCHED_MPI_EXEC_REDUCE_SCATTER_CIRCULANT_H_

#include <mpi.h>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// The reduce-scatter on ci of the cut.n elements at acc (this rank's contribution on entry),
// op commutative (checked by the caller): on return block ci.rank of acc holds that block
// reduced over all ranks; the other blocks hold partial results.
void circulant_reduce_scatter_on(const CommInfo& ci, char* acc, const BlockCut& cut,
                                 MPI_Datatype datatype, const TypeInfo& type, MPI_Op op);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_REDUCE_SCATTER_CIRCULANT_H_
