#include "mpi_exec/last_run.h"

#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {
namespace {

thread_local int ran_last[kDecidedCount] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
static_assert(kDecidedCount == 13, "one -1 per kind above");

}  // namespace

int last_run(Decided which) { return ran_last[static_cast<int>(which)]; }
void set_last_run(Decided which, int ran) { ran_last[static_cast<int>(which)] = ran; }

int library_ran(Decided which, const char* name, MPI_Comm comm, int rc, const char* call) {
  const int result = library_result(name, comm, rc, call);
  if (result == MPI_SUCCESS) set_last_run(which, 0);
  return result;
}

}  // namespace rosched::mpi
