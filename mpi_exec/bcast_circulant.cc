// Rosched_Bcast: MPI_Bcast by the n-block circulant broadcast, Algorithm 6 of Träff 2022
// (Sec. 2.2), walking sched/circulant/bcast_schedule.h, where it is faster than the MPI
// library's own MPI_Bcast, else that. Rosched_Bcast_circulant always runs the circulant
// broadcast.
//
// The block count is the cost model's optimum (cost_model.h; for a linear model
// n = sqrt((q - 1) beta m / alpha), Träff 2022, Theorem 2). ROSCHED_BCAST_F = F instead sets
// blocks of about F sqrt(m / q) bytes (Träff 2022, Sec. 3.1; the paper used F = 80..120 on its
// cluster). Blocks are whole elements of the user's datatype.
//
// The choice (ROSCHED_BCAST=auto, the default) has two steps:
//  1. The prediction: the circulant broadcast's time with n blocks must be at least 10% below
//     that of a binomial tree, ceil(log2 p) time(m), the algorithm MPI libraries use for short
//     messages; below that a schedule of ceil(log2 p) rounds cannot beat the library's own, so
//     MPI_Bcast runs.
//  2. Where the prediction says circulant, the first broadcast of each size class (2^k to
//     2^(k+1) - 1 bytes) on a communicator times both: the library's MPI_Bcast, then the
//     circulant broadcast, twice in turn, on the caller's own buffer (a broadcast is
//     idempotent: the later calls deliver the bytes the first did, so nothing else is needed),
//     and the shorter time of each (one MPI_Allreduce) decides the class, identically on every
//     rank. Two trials, because a first call pays what a later one does not (connections set up
//     between ranks that have not talked before, first touches). A call's time is the slowest
//     rank's from a barrier or, where MPI_Wtime is global (MPI_WTIME_IS_GLOBAL, as in SimGrid
//     SMPI), from one instant all ranks agreed on to the last rank's end (clock.h): ranks leave a
//     barrier in an order that can suit one tree more than another (on 36 x 32 simulated ranks
//     at 16 KiB the barrier-timed trial saw the library's broadcast 9% faster where from a common
//     start it was 22% slower).
//     The model cannot predict the library's algorithm: on 36 nodes x 32 ranks (SimGrid SMPI)
//     its binomial tree at the model's cross-node message time predicted the library 1.5-1.6x
//     too slow at 16-256 KiB, whose trees over consecutive ranks stay mostly inside nodes.
//     The timed call costs about four broadcasts, once per class and communicator.
// ROSCHED_BCAST=model stops after step 1; circulant|native force one.
//
// "The circulant broadcast" above is, on ranks spread over several multicore nodes
// (node_layout.h), the node-aware one (bcast_node_aware.cc: circulant between the nodes, then
// within each). There step 1 is skipped: the model, one figure for every pair of ranks, can
// predict neither it nor the library's (hierarchical or not) broadcast, so every size class's
// first call is timed. Rosched_Bcast_node_aware always runs it, Rosched_Bcast_circulant always
// the flat broadcast.
//
// A call that repeats this thread's last call handed to MPI_Bcast (same communicator, count
// and predefined datatype) goes straight to MPI_Bcast: its count and datatype passed the checks
// then, the root is checked again, and the decision for them does not change. That keeps the
// library within a few nanoseconds of MPI_Bcast itself for small messages, where a call of
// Open MPI's costs 0.15-0.2 us at p = 2 and the full checks and decision 0.1 us.
#include <algorithm>
#include <atomic>
#include <cstdint>

#include "mpi_exec/args.h"
#include "mpi_exec/bcast_node_aware.h"
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/clock.h"
#include "mpi_exec/node_layout.h"
#include "mpi_exec/rosched_mpi.h"
#include "sched/circulant/bcast_schedule.h"

namespace rosched::mpi {
namespace {

constexpr double kMinGain = 0.9;  // the circulant time must be below this share of binomial's
constexpr int kTrials = 2;         // timed calls of each broadcast in step 2

// What Rosched_Bcast runs for a call, as far as it is known before the call.
enum class Verdict { kNative, kCirculant, kTimeBoth };

// Step 1 of the choice: the cost model's prediction.
bool predicted_to_pay(const CommInfo& ci, int count, const TypeInfo& type) {
  const CostModel& model = cost_model(ci);
  const int q = ceil_log2(ci.p);
  const double bytes = static_cast<double>(count) * type.size;
  const std::int64_t n = pipeline_for(ci, settings().bcast_f, count, type, q - 1).n;
  return pipeline_time(model, bytes, q - 1, n) <= kMinGain * q * model.time(bytes);
}

// ROSCHED_BCAST, the memo of the last call, the prediction, then the size class's measured
// answer. Nothing to send (p = 1, count 0) counts as circulant (it returns at once).
Verdict verdict(const CommInfo& ci, int count, const TypeInfo& type) {
  const Settings::Choice choice = settings().bcast;
  if (choice == Settings::Choice::kCirculant || ci.p == 1 || count == 0 || type.size == 0) {
    return Verdict::kCirculant;
  }
  if (choice == Settings::Choice::kNative) return Verdict::kNative;
  // The last decision on this communicator: a program calls the same broadcast again and again.
  DecisionMemo& memo = decision_memo(ci);
  bool yes = false;
  if (memo.find(count, type.size, &yes)) return yes ? Verdict::kCirculant : Verdict::kNative;
  // On several multicore nodes the model (one figure for all pairs) predicts neither rosched's
  // node-aware broadcast nor the library's: both are timed.
  yes = (choice == Settings::Choice::kAuto && node_layout(ci).hierarchical()) ||
        predicted_to_pay(ci, count, type);
  if (yes && choice == Settings::Choice::kAuto &&
      !measured_choices(ci).find(std::int64_t{count} * type.size, &yes)) {
    return Verdict::kTimeBoth;
  }
  memo.store(count, type.size, yes);
  return yes ? Verdict::kCirculant : Verdict::kNative;
}

// This thread's last call that Rosched_Bcast handed to MPI_Bcast, for NativeRepeat::matches.
struct NativeRepeat {
  MPI_Comm comm = MPI_COMM_NULL;  // the user's communicator (MPI_COMM_NULL: none)
  MPI_Comm dup = MPI_COMM_NULL;   // its private duplicate
  MPI_Datatype type = MPI_DATATYPE_NULL;
  int count = 0, p = 0;
  std::uint64_t freed = 0;        // comm_caches_freed then: the handle still means comm

  bool matches(MPI_Comm c, int n, MPI_Datatype t, int root) const {
    return c == comm && n == count && t == type && root >= 0 && root < p &&
           freed == comm_caches_freed.load(std::memory_order_relaxed) && !debug_checks();
  }
};
thread_local NativeRepeat last_native;

// Remembers a call handed to MPI_Bcast, if its datatype is predefined (a derived datatype's
// handle can be freed and reused for another type) and nothing is reported per call.
void remember_native(MPI_Comm comm, const CommInfo& ci, int count, MPI_Datatype datatype) {
  if (!is_remembered_predefined(datatype) || settings().verbose) return;
  last_native = {comm, ci.c, datatype, count, ci.p,
                 comm_caches_freed.load(std::memory_order_relaxed)};
}

double seconds_since(double start) { return PMPI_Wtime() - start; }

// Step 2 of the choice: broadcasts the buffer kTrials times each, by MPI_Bcast and by rosched's
// broadcast, in turn, and keeps which was faster for the size class (the header comment: how a
// call is timed).
void time_both(const CommInfo& ci, const char* name, void* buffer, int count,
               MPI_Datatype datatype, const TypeInfo& type, int root) {
  node_aware_bcast_prepare(ci, root);
  const bool global = global_clock();
  // With a global clock every call starts at one agreed instant; the margin covers the
  // MPI_Allreduce that agrees on it (a few of the model's small-message latencies per round).
  double margin = 8.0 * ceil_log2(ci.p) * cost_model(ci).time(8);
  constexpr int kCalls = 2 * kTrials;  // native, rosched's, native, rosched's, ...
  double seconds[2] = {1e300, 1e300};  // native, rosched's: the shorter of the trials
  for (int attempt = 0;; ++attempt) {
    double value[kCalls + 1] = {};     // per call: its end (global clock) or duration; late
    double instant[kCalls] = {};
    for (int call = 0; call < kCalls; ++call) {
      if (global) {
        bool late = false;
        instant[call] = start_together(ci.c, margin, &late);
        if (late) value[kCalls] = 1;
      } else {
        check(PMPI_Barrier(ci.c), "MPI_Barrier");
        instant[call] = PMPI_Wtime();
      }
      if (call % 2 == 0) {
        check(PMPI_Bcast(buffer, count, datatype, root, ci.c), "MPI_Bcast");
      } else {
        node_aware_bcast_on(ci, name, buffer, count, datatype, type, root);
      }
      value[call] = global ? PMPI_Wtime() : seconds_since(instant[call]);
    }
    check(PMPI_Allreduce(MPI_IN_PLACE, value, kCalls + 1, MPI_DOUBLE, MPI_MAX, ci.c),
          "MPI_Allreduce");
    if (value[kCalls] > 0 && attempt < 2) {  // a rank missed the instant: a longer margin
      margin *= 16;
      continue;
    }
    for (int call = 0; call < kCalls; ++call) {
      const double t = global ? value[call] - instant[call] : value[call];
      seconds[call % 2] = std::min(seconds[call % 2], t);
    }
    break;
  }
  const bool circulant = seconds[1] < seconds[0];
  const std::int64_t bytes = std::int64_t{count} * type.size;
  measured_choices(ci).store(bytes, circulant);
  decision_memo(ci).store(count, type.size, circulant);
  tell_timing(ci, name, bytes, seconds[0], seconds[1], circulant ? "circulant" : "native MPI_Bcast");
}

// The three entry points: Rosched_Bcast (kChoose), Rosched_Bcast_node_aware (kNodeAware: the
// node-aware broadcast, which is the circulant one on a single node or one rank per node) and
// Rosched_Bcast_circulant (kFlat: the circulant broadcast over all ranks).
enum class Entry { kChoose, kNodeAware, kFlat };

int bcast_by_choice(const char* name, Entry entry, void* buffer, int count,
                    MPI_Datatype datatype, int root, MPI_Comm comm) {
  return run_collective(name, comm, [&](const CommInfo& ci) {
    const TypeInfo type = check_bcast_args(ci, count, datatype, root);
    if (entry == Entry::kFlat) {
      pipelined_bcast_on<BcastSchedule>(ci, name, settings().bcast_f, buffer, count, datatype,
                                        type, root);
      return;
    }
    if (entry == Entry::kChoose) {
      switch (verdict(ci, count, type)) {
        case Verdict::kNative:
          tell_choice(ci, name, "native MPI_Bcast", 0, 0, static_cast<double>(count) * type.size);
          check(PMPI_Bcast(buffer, count, datatype, root, ci.c), "MPI_Bcast");
          remember_native(comm, ci, count, datatype);
          return;
        case Verdict::kTimeBoth:
          time_both(ci, name, buffer, count, datatype, type, root);
          return;
        case Verdict::kCirculant:
          break;
      }
    }
    node_aware_bcast_on(ci, name, buffer, count, datatype, type, root);
  });
}

}  // namespace
}  // namespace rosched::mpi

extern "C" int Rosched_Bcast(void* buffer, int count, MPI_Datatype datatype, int root,
                             MPI_Comm comm) {
  using rosched::mpi::last_native;
  if (last_native.matches(comm, count, datatype, root)) {
    const int rc = PMPI_Bcast(buffer, count, datatype, root, last_native.dup);
    return rc == MPI_SUCCESS ? rc : rosched::mpi::report_call("Rosched_Bcast", comm, rc, "MPI_Bcast");
  }
  return rosched::mpi::bcast_by_choice("Rosched_Bcast", rosched::mpi::Entry::kChoose, buffer,
                                       count, datatype, root, comm);
}

extern "C" int Rosched_Bcast_node_aware(void* buffer, int count, MPI_Datatype datatype, int root,
                                        MPI_Comm comm) {
  return rosched::mpi::bcast_by_choice("Rosched_Bcast_node_aware",
                                       rosched::mpi::Entry::kNodeAware, buffer, count, datatype,
                                       root, comm);
}

extern "C" int Rosched_Bcast_circulant(void* buffer, int count, MPI_Datatype datatype, int root,
                                       MPI_Comm comm) {
  return rosched::mpi::bcast_by_choice("Rosched_Bcast_circulant", rosched::mpi::Entry::kFlat,
                                       buffer, count, datatype, root, comm);
}

extern "C" int Rosched_Bcast_choice(MPI_Comm comm, int count, MPI_Datatype datatype,
                                    int* circulant) {
  return rosched::mpi::run_collective("Rosched_Bcast_choice", comm, [&](const auto& ci) {
    if (circulant == nullptr) {
      throw rosched::mpi::Error(MPI_ERR_ARG, "circulant is a null pointer");
    }
    const rosched::mpi::TypeInfo type = rosched::mpi::check_bcast_args(ci, count, datatype, 0);
    *circulant = rosched::mpi::verdict(ci, count, type) != rosched::mpi::Verdict::kNative ? 1 : 0;
  });
}
