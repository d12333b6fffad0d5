#include "mpi_exec/clock.h"

#include <cmath>
#include <ctime>

#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

bool global_clock() {
  static const bool global = [] {
    int* value = nullptr;
    int found = 0;
    PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &value, &found);
    return found && value != nullptr && *value != 0;
  }();
  return global;
}

double start_together(MPI_Comm c, double margin, bool* late) {
  const double now = PMPI_Wtime();
  double latest = 0;
  check_on(c, PMPI_Allreduce(&now, &latest, 1, MPI_DOUBLE, MPI_MAX, c), "MPI_Allreduce");
  return wait_until(latest + margin, late);
}

double wait_until(double instant, bool* late) {
  const double wait = instant - PMPI_Wtime();
  *late = wait <= 0;
  if (*late) return instant;
  // nanosleep: under SMPI a wait in simulated time, no wall time.
  timespec ts;
  ts.tv_sec = static_cast<time_t>(wait);
  ts.tv_nsec = static_cast<long>(std::ceil((wait - static_cast<double>(ts.tv_sec)) * 1e9));
  if (ts.tv_nsec >= 1000000000L) ++ts.tv_sec, ts.tv_nsec -= 1000000000L;
  nanosleep(&ts, nullptr);
  return instant;
}

}  // namespace rosched::mpi
