#include "mpi_exec/mpi_call.h"

#include <cstdio>

namespace rosched::mpi {
namespace {

int private_comm_keyval = MPI_KEYVAL_INVALID;

// The attribute is a heap-allocated MPI_Comm (portable whatever MPI_Comm's representation).
int free_private_comm(MPI_Comm, int, void* attribute, void*) {
  MPI_Comm* dup = static_cast<MPI_Comm*>(attribute);
  const int rc = PMPI_Comm_free(dup);
  delete dup;
  return rc;
}

// The duplicate of comm cached on it, made at first use with MPI_ERRORS_RETURN (collective
// over comm the first time).
MPI_Comm private_comm(MPI_Comm comm) {
  if (private_comm_keyval == MPI_KEYVAL_INVALID) {
    check(PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_private_comm,
                                 &private_comm_keyval, nullptr),
          "MPI_Comm_create_keyval");
  }
  void* attribute = nullptr;
  int found = 0;
  check(PMPI_Comm_get_attr(comm, private_comm_keyval, &attribute, &found), "MPI_Comm_get_attr");
  if (found) return *static_cast<MPI_Comm*>(attribute);
  auto* dup = new MPI_Comm;
  const int rc = PMPI_Comm_dup(comm, dup);
  if (rc != MPI_SUCCESS) delete dup;
  check(rc, "MPI_Comm_dup");
  check(PMPI_Comm_set_errhandler(*dup, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check(PMPI_Comm_set_attr(comm, private_comm_keyval, dup), "MPI_Comm_set_attr");
  return *dup;
}

}  // namespace

void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0, error_class = MPI_ERR_OTHER;
  PMPI_Error_string(rc, text, &length);
  PMPI_Error_class(rc, &error_class);
  throw Error(error_class, std::string(call) + " failed: " + std::string(text, length));
}

int report(const char* name, MPI_Comm comm, int mpi_class, const char* what) {
  const MPI_Comm handler = comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm;
  int rank = -1;
  PMPI_Comm_rank(handler, &rank);
  std::fprintf(stderr, "rosched %s (rank %d%s): %s\n", name, rank,
               comm == MPI_COMM_NULL ? " of MPI_COMM_WORLD" : "", what);
  PMPI_Comm_call_errhandler(handler, mpi_class);
  return mpi_class;
}

CommInfo comm_info(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) throw Error(MPI_ERR_COMM, "comm is MPI_COMM_NULL");
  CommInfo info;
  check(PMPI_Comm_size(comm, &info.p), "MPI_Comm_size");
  check(PMPI_Comm_rank(comm, &info.rank), "MPI_Comm_rank");
  info.c = private_comm(comm);
  return info;
}

MPI_Comm self_comm() { return private_comm(MPI_COMM_SELF); }

}  // namespace rosched::mpi
