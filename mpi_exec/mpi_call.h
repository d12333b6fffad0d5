// Error handling and communicators shared by the collectives. MPI return codes become
// exceptions that name the call; at the API boundary they are reported and handed to the error
// handler of the user's communicator. The collectives' own MPI calls run on private duplicates
// with MPI_ERRORS_RETURN, so every failure comes back here, whatever handler the user's
// communicator has now (it may have changed since the duplicate was made).
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

// Runs body(comm_info(comm)) (which may throw Error or std::exception) as the collective
// `name` on comm: MPI_SUCCESS, or the message on stderr and the result of comm's error handler
// (of MPI_COMM_WORLD's when comm is MPI_COMM_NULL, as Open MPI does).
template <typename Body>
int run_collective(const char* name, MPI_Comm comm, Body&& body);

// Size and rank of the user's communicator, and its private duplicate `c` on which the
// collective communicates (created at first use, cached on comm as an attribute, errors
// returned). Throws Error(MPI_ERR_COMM) for MPI_COMM_NULL.
struct CommInfo {
  int p = 1, rank = 0;
  MPI_Comm c = MPI_COMM_NULL;
};
CommInfo comm_info(MPI_Comm comm);

// The private duplicate of MPI_COMM_SELF (errors returned), for copies within this process.
MPI_Comm self_comm();

// Implementation of run_collective.
int report(const char* name, MPI_Comm comm, int mpi_class, const char* what);

template <typename Body>
int run_collective(const char* name, MPI_Comm comm, Body&& body) {
  try {
    body(comm_info(comm));
    return MPI_SUCCESS;
  } catch (const Error& e) {
    return report(name, comm, e.mpi_class(), e.what());
  } catch (const std::exception& e) {
    return report(name, comm, MPI_ERR_INTERN, e.what());
  }
}

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_MPI_CALL_H_
