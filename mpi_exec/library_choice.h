// The choice between the MPI library's own collective and rosched's, for the collectives that
// make it (Rosched_Bcast, Rosched_Reduce, Rosched_Allreduce, Rosched_Allgather(v),
// Rosched_Reduce_scatter(_block), Rosched_Alltoall(v), and Rosched_Allmerge's AUTO, whose
// "library's" is MPI_Allgatherv and a merge): "the library's
// own collective for what we cannot win" (the cost-model issue), decided the same way for each.
//
//  1. ROSCHED_BCAST / _REDUCE / _ALLREDUCE / _ALLGATHER / _ALLGATHERV / _REDUCE_SCATTER /
//     _ALLTOALL / _ALLTOALLV / _ALLMERGE = native
//     or rosched (also "circulant") force one.
//  2. The last decision on the communicator for the same (count, element size) stands
//     (DecisionMemo, one per collective).
//  3. A prediction, the collective's own: where rosched's schedule cannot beat the library's
//     (the broadcast: the cost model predicts it slower than a binomial tree, at p = 2 less
//     than 10% faster; the census all-reduce: a non-commutative operation, or more than twice
//     the time of an ideal all-reduce by the model), the library's collective runs. The
//     reduction's trees and the all-gather's Algorithm 7 move no more data than the libraries'
//     algorithms and take no more rounds, so only a trial tells (at p = 2 Open MPI's
//     MPI_Reduce of 64 KiB took 4x the k-nomial tree's one message, its MPI_Reduce of 4 B
//     0.7x). `model` stops here.
//  4. Else the first call of each size class (2^k to 2^(k+1) - 1 bytes) on the communicator
//     times the library's and rosched's candidates, three times each in turn (in a simulation
//     twice, rosched's broadcasts once; time_choices), and the fastest runs for the
//     class from then on (MeasuredChoices, one per collective), identically on every rank.
//
// A call that repeats this thread's last call of the same collective handed to the library
// (same communicator, count, predefined datatype and predefined operation; LibraryRepeat) goes
// straight to it: its arguments passed the checks then and the decision for them does not
// change. That keeps rosched within a few nanoseconds of the library for short vectors at
// p = 2, where one call of Open MPI's costs 0.15-0.3 us and the full checks and decision
// about 0.1 us.
#ifndef ROSCHED_MPI_EXEC_LIBRARY_CHOICE_H_
#define ROSCHED_MPI_EXEC_LIBRARY_CHOICE_H_

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "mpi_exec/args.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/settings.h"

namespace rosched::mpi {

// What runs for a call, as far as it is known before the call.
enum class Verdict { kLibrary, kRosched, kTimeBoth };

// Steps 1-4 above for a call of `bytes` = count * size bytes of collective `which`, whose
// setting is `choice`; predicted() is step 3 (true: rosched's may pay), asked only where needed
// (it may make the cost model, which is collective). A kTimeBoth answer is the caller's to time
// (time_choices) and store. For kRosched, *candidate (if given) is which of rosched's candidates
// runs: the one a trial found (1..kMaxAnswer), else 1 (forced, predicted without a trial).
Verdict library_verdict(const CommInfo& ci, Decided which, Settings::Choice choice, int count,
                        int size, const std::function<bool()>& predicted,
                        int* candidate = nullptr);

// One candidate of a timed choice: its name (ROSCHED_VERBOSE) and a call of it; a candidate
// without a call (one the model rules out for this call) keeps its place and is not timed.
struct Candidate {
  const char* name;
  std::function<void()> run;
  // Timed calls where MPI_Wtime is global (a simulation, whose times do not vary): two, as a
  // first call may pay set-up that later ones do not (the library's; rosched's all-gather: 66.5
  // us in its first call at p = 256 on SMPI's flat platform, 34.1 after); one where the first
  // call was checked to cost what later ones do (rosched's broadcasts), which saves minutes of a
  // simulation's real time per size from 256 KiB at 1,152 ranks.
  int global_calls = 2;
};

// Step 4: candidates[0] is the library's collective, the others rosched's (1..kMaxAnswer of
// them: the broadcast times its circulant, hypercube and two-tree broadcasts). Runs each three
// times, round-robin (where MPI_Wtime is global, a simulation whose times do not vary: each
// its global_calls times, at most three), each timed call started on all ranks at once (at one
// agreed instant where MPI_Wtime is global, as in SimGrid SMPI; else after a barrier, and then
// running its collective a batch of times back to back, as many as last 50 us by the cost
// model, at most 64: one call of a short vector at p = 2 lasts less than the barrier's noise),
// timed to the slowest rank's end; the shortest of each candidate's times counts (agreed by one
// MPI_Allreduce). The fastest of rosched's wins if it is at least 5% faster than the library's
// (a tie goes to the library's collective); the
// winner's index (0: the library's) is stored for the size class of count * size bytes and in
// the memo of (count, size), told (ROSCHED_VERBOSE) and returned. All candidates must leave
// the same result, whichever runs last (a broadcast or an all-gather is idempotent; a
// reduction reads its input from a buffer it does not write). Several trials,
// because a first call pays what a later one does not (connections set up, first touches);
// three, because with two a machine's noise picked the census all-reduce, 1.3-1.6x slower at
// 1 MiB and p = 2, once in six processes.
int time_choices(const CommInfo& ci, const char* name, Decided which, int count, int size,
                 const std::vector<Candidate>& candidates);

// The time time_choices records for a candidate it did not time (no run): never the fastest.
inline constexpr double kNotTimed = 1e300;

// Whether op is one of MPI's predefined operations (a user-defined handle can be freed and
// reused for another function).
bool is_predefined_op(MPI_Op op);

// This thread's last call of one collective that was handed to the library.
class LibraryRepeat {
 public:
  // Whether (comm, count, type, op) is that call's (op: MPI_OP_NULL for a broadcast) and
  // nothing has changed since: the communicator not freed (its handle could mean another one
  // now), debug checks still off; then the caller calls the library on comm. The caller checks
  // a root against p() (and MPI_IN_PLACE against rank()).
  bool match(MPI_Comm comm, int count, MPI_Datatype type, MPI_Op op) const {
    return comm == comm_ && count == count_ && type == type_ && op == op_ &&
           freed_ == comm_caches_freed.load(std::memory_order_relaxed) && !debug_checks();
  }
  // match() for a call whose send side is MPI_IN_PLACE or the receive side's count and datatype
  // (Rosched_Allgather, Rosched_Alltoall): a call the library was handed before as it is.
  bool match_same_sides(MPI_Comm comm, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                        int recvcount, MPI_Datatype recvtype) const {
    return match(comm, recvcount, recvtype, MPI_OP_NULL) &&
           (sendbuf == MPI_IN_PLACE || (sendcount == recvcount && sendtype == recvtype));
  }
  int p() const { return p_; }
  int rank() const { return rank_; }
  // Remembers a call on ci.user handed to the library, if its datatype and operation are
  // predefined and nothing is reported per call (ROSCHED_VERBOSE).
  void remember(const CommInfo& ci, int count, MPI_Datatype type, MPI_Op op);

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  MPI_Op op_ = MPI_OP_NULL;
  int count_ = 0, p_ = 0, rank_ = 0;
  std::uint64_t freed_ = 0;  // comm_caches_freed then
};

// The thread's record for collective `which`.
LibraryRepeat& library_repeat(Decided which);

// A reduction's _choice query (Rosched_Reduce_choice, Rosched_Allreduce_choice): the call's
// checks of (count, datatype, op), then *algorithm = answer(ci, type), the decision function
// the call runs by.
template <typename Answer>
int reduction_choice(const char* name, MPI_Comm comm, int count, MPI_Datatype datatype, MPI_Op op,
                     int* algorithm, Answer&& answer) {
  return run_collective(name, comm, [&](const CommInfo& ci) {
    if (algorithm == nullptr) throw Error(MPI_ERR_ARG, "algorithm is a null pointer");
    // No buffers to check for aliasing: MPI_IN_PLACE stands for them.
    *algorithm =
        answer(ci, check_agreed_reduction(ci.c, MPI_IN_PLACE, nullptr, count, datatype, op));
  });
}

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_LIBRARY_CHOICE_H_
