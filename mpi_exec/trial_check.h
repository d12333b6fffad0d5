// With ROSCHED_DEBUG: a size class's trial (library_choice.h, time_choices) checks every
// candidate's result, not only the last one's. A trial runs its candidates one after the other
// on the caller's buffers, and the collectives it times leave the same result whichever runs
// last (a broadcast and an all-gather are idempotent, a reduction reads an input it does not
// write), so a candidate that left a block out would pass unseen on the bytes the candidate
// before it delivered. Here the library's collective (or another reference) runs once first and
// its result is the reference; before each candidate every rank overwrites the parts of its result the candidates
// write (not those they read: the root's message, an in-place rank's own block) with bytes
// unlike the reference, and compares them with it after the candidate.
#ifndef ROSCHED_MPI_EXEC_TRIAL_CHECK_H_
#define ROSCHED_MPI_EXEC_TRIAL_CHECK_H_

#include <mpi.h>

#include <functional>
#include <vector>

#include "mpi_exec/library_choice.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// A part of a rank's result that every candidate writes: count elements of datatype at data.
struct ResultPart {
  void* data;
  int count;
  MPI_Datatype datatype;
};

// time_choices(ci, name, which, count, size, candidates); under debug_checks() (the same on
// every rank) with the check above on this rank's `result` (an empty list on a rank that has
// none, as the non-roots of a reduction), the reference made by `reference` (collective), or
// where that is empty by candidates[0], the library's collective. Where a candidate's result
// differs on any rank, every rank throws Error(MPI_ERR_INTERN) naming `name`, the candidate and
// the first such rank. Only for collectives whose result is exact: the reference is compared
// bit for bit (for a reduction, see exact_reduction).
int time_checked_choices(const CommInfo& ci, const char* name, Decided which, int count, int size,
                         std::vector<Candidate> candidates, const std::vector<ResultPart>& result,
                         const std::function<void()>& reference = nullptr);

// Whether a reduction of datatype by op gives the same bits in any order of its operands, so
// that its result can be checked against the library's: the predefined operations but MPI_SUM
// and MPI_PROD on any predefined datatype, and those two on the predefined integer types.
// (False for user-defined operations and derived datatypes, which are not checked.)
bool exact_reduction(MPI_Datatype datatype, MPI_Op op);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_TRIAL_CHECK_H_
