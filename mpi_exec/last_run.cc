#include "mpi_exec/last_run.h"

namespace rosched::mpi {
namespace {

thread_local int ran_last[kDecidedCount] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
static_assert(kDecidedCount == 13, "one -1 per kind above");

}  // namespace

int last_run(Decided which) { return ran_last[static_cast<int>(which)]; }
void set_last_run(Decided which, int ran) { ran_last[static_cast<int>(which)] = ran; }

}  // namespace rosched::mpi
