// The hypercube family (Bin Jia's broadcast with cooperating pairs): the lecture's propositions
// once per floor(log2 p), the units of every p (verify/hypercube_check.h), and full broadcasts:
// round by round (sim/hypercube_run.h) for p <= --run-to, rank by rank above.
#include "sim/hypercube_run.h"
#include "verify/families.h"
#include "verify/hypercube_check.h"

namespace rosched::verify {
namespace {

enum TimerIndex { kStructure, kRuns };

class HypercubeFamily : public Family {
 public:
  std::string name() const override { return "hypercube"; }
  std::string help() const override {
    return "hypercube (Bin Jia's broadcast with cooperating pairs): the lecture's propositions "
           "once per floor(log2 p), the units of every p, and full broadcasts for "
           "n = 1, 2, q, q+1, 3q+2: round by round with roots 0, p/2 and p-1 for p <= --run-to, "
           "rank by rank with root 0 above";
  }
  std::vector<std::string> check_groups() const override { return {"structure", "runs"}; }
  std::int64_t default_run_to() const override { return 1000; }
  // Every p runs broadcasts (rank by rank above --run-to): no extra cost below it.
  double deep_cost_factor() const override { return 0; }
  // Every rank's HypercubeRank and the unit checks' arrays: peak RSS / p = 108 bytes at
  // p = 2 million.
  std::int64_t bytes_for(std::int64_t p) const override { return 112 * p; }
  void configure(const FamilyOptions& o) override { options_ = o; }

  PResult verify_p(std::int64_t p) const override {
    PResult result;
    Laps lap;
    auto& ce = result.counterexample;
    if (options_.checks.count("structure")) {
      // The cube's propositions depend on floor(log2 p) only: once per power of two.
      const bool cube_checks = p == options_.from || (p & (p - 1)) == 0;
      if (cube_checks) ce = check_hypercube_cube(hypercube_dim(p));
      if (!ce) ce = check_hypercube_units(p);
    }
    lap(result.seconds[kStructure]);
    if (options_.checks.count("runs")) {
      const bool deep = p <= options_.run_to;
      const std::vector<std::int64_t> all_roots = deep ? roots(p) : std::vector<std::int64_t>{0};
      const std::vector<HypercubeRank> ranks = sim::hypercube_virtual_ranks(p);
      for (const std::int64_t n : hypercube_block_counts(p)) {
        if (!deep) {
          if (!ce) ce = stream_hypercube(ranks, n);
          continue;
        }
        for (const std::int64_t root : all_roots) {
          if (!ce) ce = sim::run_hypercube(ranks, n, root);
        }
      }
    }
    lap(result.seconds[kRuns]);
    return result;
  }

  std::string label() const override { return "family=hypercube"; }
  std::vector<Timer> timers() const override {
    return {{"cube propositions and units", "structure_check_thread_seconds"},
            {"broadcast runs", "broadcast_run_thread_seconds"}};
  }
  std::string statistic_summary(std::int64_t, std::int64_t, bool all_ok) const override {
    return all_ok && options_.checks.count("runs")
               ? "; every broadcast took n - 1 + ceil(log2 p) rounds"
               : "";
  }

 private:
  FamilyOptions options_;
};

}  // namespace

std::unique_ptr<Family> hypercube_family() { return std::make_unique<HypercubeFamily>(); }

}  // namespace rosched::verify
