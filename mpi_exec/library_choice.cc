// The choice between the MPI library's collective and rosched's (library_choice.h).
#include "mpi_exec/library_choice.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "mpi_exec/clock.h"
#include "mpi_exec/datatype.h"
#include "sched/round.h"

namespace rosched::mpi {
namespace {

constexpr double kTrialSeconds = 5e-5;  // what one timed call of a trial lasts at least
constexpr int kMaxBatch = 64;           // collectives per timed call at most
// Rosched's must be this much faster to replace the library's: a tie goes to the library's
// collective, which takes the repeat short way and whose per-call checks the trial's rosched
// runs (the algorithm alone) leave out.
constexpr double kMinTrialGain = 0.95;

}  // namespace

Verdict library_verdict(const CommInfo& ci, Decided which, Settings::Choice choice, int count,
                        int size, const std::function<bool()>& predicted, int* candidate) {
  int answer = 1;  // rosched's first candidate, unless a trial found another
  const auto rosched = [&] {
    if (candidate != nullptr) *candidate = answer;
    return Verdict::kRosched;
  };
  if (choice == Settings::Choice::kRosched) return rosched();
  if (choice == Settings::Choice::kNative) return Verdict::kLibrary;
  // The last decision on this communicator: a program calls the same collective again and again.
  DecisionMemo& memo = decision_memo(ci, which);
  if (memo.find(count, size, &answer)) return answer > 0 ? rosched() : Verdict::kLibrary;
  answer = predicted() ? 1 : 0;
  if (answer > 0 && choice == Settings::Choice::kAuto &&
      !measured_choices(ci, which).find(std::int64_t{count} * size, &answer)) {
    return Verdict::kTimeBoth;
  }
  memo.store(count, size, answer);
  return answer > 0 ? rosched() : Verdict::kLibrary;
}

int time_choices(const CommInfo& ci, const char* name, Decided which, int count, int size,
                 const std::vector<Candidate>& candidates) {
  const int n = static_cast<int>(candidates.size());
  if (n < 2 || n > kMaxAnswer + 1)
    throw std::logic_error("time_choices: 2..kMaxAnswer + 1 candidates");
  const bool global = global_clock();
  // The calls, round-robin: on a machine three per candidate (its noise); on a global clock (a
  // simulation, whose times do not vary from call to call) each candidate's global_calls (the
  // library's twice: SMPI's node-aware algorithms build node and leader communicators at their
  // first use, milliseconds of simulated time at 1,152 ranks).
  std::vector<int> order;  // candidate per call: the library's, rosched's first, ...
  for (int round = 0; round < 3; ++round) {
    for (int k = 0; k < n; ++k) {
      if (candidates[k].run && (!global || round < candidates[k].global_calls)) {
        order.push_back(k);
      }
    }
  }
  const int calls = static_cast<int>(order.size());
  const CostModel& model = cost_model(ci);
  const std::int64_t bytes = std::int64_t{count} * size;
  // Where the calls start after a barrier, a timed call runs its collective `batch` times back
  // to back, so that it lasts at least kTrialSeconds by the model (ceil(log2 p) rounds of the
  // whole message): a single call of a few hundred nanoseconds (4 B at p = 2) is below the
  // barrier's noise, and the ranks' answer would be a coin toss. Not longer: back-to-back calls
  // overlap, so a batch measures throughput, which favours other trees than the latency of one
  // call does (SMPI, 1,152 ranks, 4 B: in batches of 10 the binomial tree of MVAPICH2's
  // selector beat the 34-nomial tree, which takes 0.41 of its time for one call). From one
  // agreed instant (a global clock) one call is timed exactly: one.
  const double one_call = ceil_log2(ci.p) * model.time(static_cast<double>(bytes));
  const int batch =
      global ? 1
             : static_cast<int>(std::clamp(std::ceil(kTrialSeconds / std::max(one_call, 1e-9)), 1.0,
                                           double{kMaxBatch}));
  // With a global clock every call starts at one agreed instant; the margin covers the
  // MPI_Allreduce that agrees on it (a few of the model's small-message latencies per round).
  double margin = 8.0 * ceil_log2(ci.p) * model.time(8);
  // per candidate: the shortest of its trials (kNotTimed for one without a run)
  std::vector<double> seconds(n, kNotTimed);
  // value: per call its end (global clock) or duration, then whether a rank was late
  std::vector<double> value(calls + 1), instant(calls);
  for (int attempt = 0;; ++attempt) {
    std::fill(value.begin(), value.end(), 0.0);
    for (int call = 0; call < calls; ++call) {
      if (global) {
        bool late = false;
        instant[call] = start_together(ci.user, margin, &late);
        if (late) value[calls] = 1;
      } else {
        check_on(ci.user, PMPI_Barrier(ci.user), "MPI_Barrier");
        instant[call] = PMPI_Wtime();
      }
      const std::function<void()>& run = candidates[order[call]].run;
      const ChoicesUntold untold;  // the candidates' own lines; tell_timing reports the trial
      for (int i = 0; i < batch; ++i) run();
      value[call] = global ? PMPI_Wtime() : PMPI_Wtime() - instant[call];
    }
    check_on(ci.user,
             PMPI_Allreduce(MPI_IN_PLACE, value.data(), calls + 1, MPI_DOUBLE, MPI_MAX, ci.user),
             "MPI_Allreduce");
    if (value[calls] > 0 && attempt < 2) {  // a rank missed the instant: a longer margin
      margin *= 16;
      continue;
    }
    for (int call = 0; call < calls; ++call) {
      const double t = global ? value[call] - instant[call] : value[call];
      seconds[order[call]] = std::min(seconds[order[call]], t / batch);
    }
    break;
  }
  int best = 1;  // rosched's fastest, against the library's
  for (int k = 2; k < n; ++k) {
    if (seconds[k] < seconds[best]) best = k;
  }
  const int answer = seconds[best] < kMinTrialGain * seconds[0] ? best : 0;
  measured_choices(ci, which).store(bytes, answer);
  decision_memo(ci, which).store(count, size, answer);
  std::vector<const char*> names(n);
  for (int k = 0; k < n; ++k) names[k] = candidates[k].name;
  tell_timing(ci, name, bytes, n, names.data(), seconds.data(), answer);
  return answer;
}

bool is_predefined_op(MPI_Op op) {
  static const std::array<MPI_Op, 14> predefined = {
      MPI_MAX, MPI_MIN,  MPI_SUM,  MPI_PROD,   MPI_LAND,   MPI_BAND,    MPI_LOR,
      MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
  return std::find(predefined.begin(), predefined.end(), op) != predefined.end();
}

void LibraryRepeat::remember(const CommInfo& ci, int count, MPI_Datatype type, MPI_Op op) {
  if (!is_remembered_predefined(type) || (op != MPI_OP_NULL && !is_predefined_op(op)) ||
      settings().verbose) {
    return;
  }
  comm_ = ci.user;
  type_ = type;
  op_ = op;
  count_ = count;
  p_ = ci.p;
  rank_ = ci.rank;
  freed_ = comm_caches_freed.load(std::memory_order_relaxed);
}

LibraryRepeat& library_repeat(Decided which) {
  thread_local std::array<LibraryRepeat, kDecidedCount> records;
  return records[static_cast<int>(which)];
}

}  // namespace rosched::mpi
