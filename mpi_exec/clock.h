// Starting the ranks of a communicator at one instant, where MPI_Wtime is one clock for all of
// them (MPI_WTIME_IS_GLOBAL true: SimGrid SMPI sets it, Open MPI does not). Shared by bench's
// `--measure sync` and Rosched_Bcast's timed choice: a time measured from a barrier on each
// rank depends on the order in which the barrier releases the ranks, which can suit one
// broadcast tree more than another.
#ifndef ROSCHED_MPI_EXEC_CLOCK_H_
#define ROSCHED_MPI_EXEC_CLOCK_H_

#include <mpi.h>

namespace rosched::mpi {

// MPI_WTIME_IS_GLOBAL on MPI_COMM_WORLD: set and true (asked once).
bool global_clock();

// The ranks of c agree on the latest of their clock readings plus `margin` seconds (one
// MPI_Allreduce) and sleep until then. Returns the instant; *late: this rank got there after it
// (the margin was shorter than the MPI_Allreduce's skew). Meaningful with a global clock only.
double start_together(MPI_Comm c, double margin, bool* late);

// Sleeps until the clock reads `instant` (the waiting half of start_together, for ranks that
// agreed on the instant otherwise). Returns it; *late: the clock was already past it.
double wait_until(double instant, bool* late);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_CLOCK_H_
