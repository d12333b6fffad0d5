// Error handling shared by the collectives: MPI return codes become exceptions that name the
// call; at the API boundary they are reported and handed to the communicator's error handler.
#ifndef ROSCHED_MPI_EXEC_MPI_CALL_H_
#define ROSCHED_MPI_EXEC_MPI_CALL_H_

#include <mpi.h>

#include <stdexcept>
#include <string>

namespace rosched::mpi {

// An error with an MPI error class: a failed MPI call, or an argument MPI would reject.
class Error : public std::runtime_error {
 public:
  Error(int mpi_class, const std::string& what) : std::runtime_error(what), class_(mpi_class) {}
  int mpi_class() const { return class_; }

 private:
  int class_;
};

// Throws Error naming `call` unless rc is MPI_SUCCESS.
void check(int rc, const char* call);

// Runs body (which may throw Error or std::exception) as the collective `name` on comm:
// MPI_SUCCESS, or the message on stderr and the communicator's error handler's result.
template <typename Body>
int run_collective(const char* name, MPI_Comm comm, Body&& body);

// Size and rank of comm; throws Error(MPI_ERR_COMM) for MPI_COMM_NULL.
struct CommInfo {
  int p = 1, rank = 0;
};
CommInfo comm_info(MPI_Comm comm);

// Whether debug checks are on (Rosched_Set_debug or ROSCHED_DEBUG=1).
bool debug_checks();

// The private duplicate of comm on which the collectives communicate (created once, cached).
MPI_Comm private_comm(MPI_Comm comm);

// Throws Error(MPI_ERR_ARG-like class) unless the (value) is the same on every rank of comm.
// Collective; used only in debug mode.
void check_same_on_all(MPI_Comm comm, long long value, int mpi_class, const char* what);

// Implementation of run_collective.
int report(const char* name, MPI_Comm comm, int mpi_class, const char* what);

template <typename Body>
int run_collective(const char* name, MPI_Comm comm, Body&& body) {
  try {
    body();
    return MPI_SUCCESS;
  } catch (const Error& e) {
    return report(name, comm, e.mpi_class(), e.what());
  } catch (const std::exception& e) {
    return report(name, comm, MPI_ERR_INTERN, e.what());
  }
}

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_MPI_CALL_H_
