// Rosched_Bcast's choice (bcast_circulant.cc), for collectives that broadcast as one of their
// steps (allgatherv_largest.cc).
#ifndef ROSCHED_MPI_EXEC_BCAST_CHOICE_H_
#define ROSCHED_MPI_EXEC_BCAST_CHOICE_H_

#include <mpi.h>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// Broadcasts count elements of datatype from root over ci (arguments already checked) by what
// Rosched_Bcast would run: the MPI library's MPI_Bcast or one of rosched's broadcasts, by
// ROSCHED_BCAST, the cost model and the timed first call of the size class on ci (which this
// call may be). Reported as `name`. Returns what ran in Rosched_Bcast_choice's numbers (a timed
// call: its winner).
int chosen_bcast_on(const CommInfo& ci, const char* name, void* buffer, int count,
                    MPI_Datatype datatype, const TypeInfo& type, int root);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_BCAST_CHOICE_H_
