// The k-ary tree family (the pipelined broadcast over a complete k-ary tree, Träff's lecture
// notes, fixed-degree trees; sched/kary/): for every p the closed form of the round count
// (kary_max_start, O(log^2 p)) against the rank-by-rank reference, degrees 2, 3, 4, 7 and 64;
// for p <= --run-to round-by-round broadcasts (sim/kary_run.h) with degrees 2, 3, 4 and 7,
// n = 1, 2, k + 1 and roots 0, p / 2, p - 1, checking every rank's place in the tree too, and
// the reductions that run them backwards (sched/kary/kary_tree_reduce.h) with the same p, n,
// roots and degrees; and
// the one-block trees of the node-aware broadcast (n = 1, degrees 5..64: every one up to
// p = 130; above, every degree that is the least of its depth, and those met on the simulated
// clusters).
#include "sched/kary/kary_tree_schedule.h"
#include "sim/kary_run.h"
#include "verify/families.h"

namespace rosched::verify {
namespace {

enum TimerIndex { kRounds, kRuns };

// Up to this p the one-block runs take every degree 5..min(p - 1, 64).
constexpr std::int64_t kAllDegreesTo = 130;

class KaryFamily : public Family {
 public:
  std::string name() const override { return "kary"; }
  std::string help() const override {
    return "kary (the pipelined broadcast over a complete k-ary tree, Traff's lecture notes): "
           "for every p the round count's closed form against a rank-by-rank reference, degrees "
           "2, 3, 4, 7, 64; for p <= --run-to round-by-round broadcasts with degrees 2, 3, 4, 7, "
           "n = 1, 2, k+1 and roots 0, p/2, p-1, checking every rank's parent, children and "
           "first round, and the reductions that run them backwards; one-block runs (n = 1) with "
           "degrees 5..64 (all up to p = 130; above, "
           "each depth's least degree and 5, 8, 16, 31, 33, 34, 35, 64)";
  }
  std::vector<std::string> check_groups() const override { return {"rounds", "runs"}; }
  std::int64_t default_run_to() const override { return 1000; }
  // Twelve broadcasts and twelve reductions of up to 8 (n - 1 + depth) rounds against one O(p)
  // pass.
  double deep_cost_factor() const override { return 200; }
  // The runs' schedules and blocks held: about 100 bytes per rank; the reference's two levels.
  std::int64_t bytes_for(std::int64_t p) const override { return 128 * p; }
  void configure(const FamilyOptions& o) override { options_ = o; }

  PResult verify_p(std::int64_t p) const override {
    PResult result;
    Laps lap;
    auto& ce = result.counterexample;
    if (options_.checks.count("rounds")) {
      for (const std::int64_t k : {2, 3, 4, 7, 64}) {
        const std::int64_t expected = sim::kary_max_start_reference(p, k);
        const std::int64_t actual = kary_max_start(p, k);
        if (!ce && actual != expected) {
          ce = Counterexample{"kary-rounds",           "max-start", p, -1, -1, expected, actual,
                              "k=" + std::to_string(k)};
        }
      }
    }
    lap(result.seconds[kRounds]);
    if (options_.checks.count("runs") && p <= options_.run_to) {
      for (const std::int64_t k : {2, 3, 4, 7}) {
        for (const std::int64_t n : {std::int64_t{1}, std::int64_t{2}, k + 1}) {
          for (const std::int64_t root : roots(p)) {
            if (!ce) ce = sim::run_kary_tree(p, n, root, k);
            if (!ce) ce = sim::run_kary_tree_reduce(p, n, root, k);
          }
        }
      }
      // The one-block trees of the node-aware broadcast's phases (mpi_exec/bcast_kary_tree.h:
      // any degree 2..min(p - 1, 64) by the cost model): every degree up to p = kAllDegreesTo;
      // beyond it each depth's least degree, which is every degree the cost rule can take (the
      // model's times never fall with size, so a fan of more messages never costs less at the
      // same depth), the degrees met on the simulated clusters (31 in a node of 32, 35 among 36
      // nodes, 33-34 over 1,152 ranks) and a spread.
      for (std::int64_t k = 5; k <= 64 && k <= p - 1; ++k) {
        if (k == 7) continue;
        const bool least_of_its_depth = kary_depth(p, k) < kary_depth(p, k - 1);
        if (p > kAllDegreesTo && !least_of_its_depth && k != 5 && k != 8 && k != 16 && k != 31 &&
            k != 33 && k != 34 && k != 35 && k != 64) {
          continue;
        }
        for (const std::int64_t root : roots(p)) {
          if (!ce) ce = sim::run_kary_tree(p, 1, root, k);
        }
      }
    }
    lap(result.seconds[kRuns]);
    return result;
  }

  std::string nothing_checked(const FamilyOptions& o, std::int64_t) const override {
    return o.checks.count("rounds") || o.from <= o.run_to
               ? ""
               : "--checks runs checks only p <= --run-to";
  }
  std::string label() const override { return "family=kary"; }
  std::vector<Timer> timers() const override {
    return {{"round counts", "round_count_thread_seconds"},
            {"broadcast and reduction runs", "broadcast_run_thread_seconds"}};
  }
  std::string statistic_summary(std::int64_t, std::int64_t, bool all_ok) const override {
    return all_ok && options_.checks.count("runs")
               ? "; every broadcast and reduction took (n - 1) k + max start(v) rounds"
               : "";
  }

 private:
  FamilyOptions options_;
};

}  // namespace

std::unique_ptr<Family> kary_family() { return std::make_unique<KaryFamily>(); }

}  // namespace rosched::verify
