// With ROSCHED_DEBUG: Rosched_Bcast's trial (bcast_circulant.cc) checks every candidate's result,
// not only the last one's. A trial runs its candidates one after the other on the caller's
// buffer, and a broadcast is idempotent, so a candidate that left a block out would pass unseen
// on the bytes the candidate before it delivered; here every rank but the root has its elements
// overwritten before each candidate and compared with the root's after it.
#ifndef ROSCHED_MPI_EXEC_BCAST_TRIAL_CHECK_H_
#define ROSCHED_MPI_EXEC_BCAST_TRIAL_CHECK_H_

#include <mpi.h>

#include <vector>

#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

class BcastTrialCheck {
 public:
  // Collective over ci: the root's message (count elements of datatype at buffer), packed, is
  // sent to every rank by the library's MPI_Bcast, the reference the candidates must deliver.
  BcastTrialCheck(const CommInfo& ci, void* buffer, int count, MPI_Datatype datatype, int root);

  // Before a candidate: every rank but the root overwrites the message's elements (not the gaps
  // of a derived datatype) with a byte pattern unlike the reference.
  void before();

  // After candidate `name` (collective): every rank but the root compares what it holds with
  // the reference; where any rank found a difference, every rank throws Error(MPI_ERR_INTERN)
  // naming the candidate and the first such rank.
  void after(const char* name);

 private:
  std::vector<char> packed() const;

  CommInfo ci_;
  void* buffer_;
  int count_;
  MPI_Datatype datatype_;
  int root_;
  std::vector<char> reference_;
};

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_BCAST_TRIAL_CHECK_H_
