#include "mpi_exec/mpi_call.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "mpi_exec/rosched_mpi.h"

namespace rosched::mpi {
namespace {

std::atomic<int> debug_flag{-1};  // -1: not decided yet (read ROSCHED_DEBUG)

int private_comm_keyval = MPI_KEYVAL_INVALID;

// The attribute is a heap-allocated MPI_Comm (portable whatever MPI_Comm's representation).
int free_private_comm(MPI_Comm, int, void* attribute, void*) {
  MPI_Comm* dup = static_cast<MPI_Comm*>(attribute);
  const int rc = MPI_Comm_free(dup);
  delete dup;
  return rc;
}

}  // namespace

void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0, error_class = MPI_ERR_OTHER;
  MPI_Error_string(rc, text, &length);
  MPI_Error_class(rc, &error_class);
  throw Error(error_class, std::string(call) + " failed: " + std::string(text, length));
}

int report(const char* name, MPI_Comm comm, int mpi_class, const char* what) {
  int rank = -1;
  if (comm != MPI_COMM_NULL) MPI_Comm_rank(comm, &rank);
  std::fprintf(stderr, "rosched %s (rank %d): %s\n", name, rank, what);
  if (comm == MPI_COMM_NULL) return MPI_ERR_COMM;
  MPI_Comm_call_errhandler(comm, mpi_class);
  return mpi_class;
}

CommInfo comm_info(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) throw Error(MPI_ERR_COMM, "communicator is MPI_COMM_NULL");
  CommInfo info;
  check(MPI_Comm_size(comm, &info.p), "MPI_Comm_size");
  check(MPI_Comm_rank(comm, &info.rank), "MPI_Comm_rank");
  return info;
}

bool debug_checks() {
  int flag = debug_flag.load();
  if (flag < 0) {
    const char* env = std::getenv("ROSCHED_DEBUG");
    flag = env && std::strcmp(env, "0") != 0 && *env ? 1 : 0;
    debug_flag.store(flag);
  }
  return flag == 1;
}

MPI_Comm private_comm(MPI_Comm comm) {
  if (private_comm_keyval == MPI_KEYVAL_INVALID) {
    check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_private_comm,
                                 &private_comm_keyval, nullptr),
          "MPI_Comm_create_keyval");
  }
  void* attribute = nullptr;
  int found = 0;
  check(MPI_Comm_get_attr(comm, private_comm_keyval, &attribute, &found), "MPI_Comm_get_attr");
  if (found) return *static_cast<MPI_Comm*>(attribute);
  auto* dup = new MPI_Comm;
  check(MPI_Comm_dup(comm, dup), "MPI_Comm_dup");
  check(MPI_Comm_set_attr(comm, private_comm_keyval, dup), "MPI_Comm_set_attr");
  return *dup;
}

void check_same_on_all(MPI_Comm comm, long long value, int mpi_class, const char* what) {
  long long in[2] = {value, -value}, out[2];
  check(MPI_Allreduce(in, out, 2, MPI_LONG_LONG, MPI_MAX, comm), "MPI_Allreduce (debug check)");
  if (out[0] != -out[1]) {
    throw Error(mpi_class, std::string(what) + " differs between ranks (this rank: " +
                               std::to_string(value) + ", range " + std::to_string(-out[1]) +
                               ".." + std::to_string(out[0]) + ")");
  }
}

}  // namespace rosched::mpi

extern "C" void Rosched_Set_debug(int on) { rosched::mpi::debug_flag.store(on ? 1 : 0); }
