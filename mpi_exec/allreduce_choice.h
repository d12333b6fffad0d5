// Rosched_Allreduce's choice (allreduce_census.cc), for collectives that agree on a few values
// at every call (alltoallv.cc: the largest block and the heaviest rank's bytes).
#ifndef ROSCHED_MPI_EXEC_ALLREDUCE_CHOICE_H_
#define ROSCHED_MPI_EXEC_ALLREDUCE_CHOICE_H_

#include <mpi.h>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// Reduces count elements of datatype with op over ci (arguments already checked, as
// Rosched_Allreduce checks them) by what Rosched_Allreduce would run: the MPI library's
// MPI_Allreduce or one of rosched's all-reduces, by ROSCHED_ALLREDUCE, the cost model and the
// timed first call of the size class on ci (which this call may be). Reported as `name`.
// Returns what ran, in Rosched_Allreduce_choice's numbers (kNothingRan for count 0: last_run.h).
int chosen_allreduce_on(const CommInfo& ci, const char* name, const void* sendbuf, void* recvbuf,
                        int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ALLREDUCE_CHOICE_H_
