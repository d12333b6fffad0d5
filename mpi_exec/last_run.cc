#include "mpi_exec/last_run.h"

#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {
namespace {

// What ran, plus one: zero-initialised, so every kind starts at -1 whatever kinds are added.
thread_local int ran_plus_one[kDecidedCount];

}  // namespace

int last_run(Decided which) { return ran_plus_one[static_cast<int>(which)] - 1; }
void set_last_run(Decided which, int ran) { ran_plus_one[static_cast<int>(which)] = ran + 1; }

int library_ran(Decided which, const char* name, MPI_Comm comm, int rc, const char* call) {
  const int result = library_result(name, comm, rc, call);
  if (result == MPI_SUCCESS) set_last_run(which, 0);
  return result;
}

}  // namespace rosched::mpi
