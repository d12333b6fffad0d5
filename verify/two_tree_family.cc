// The two-tree family (Sanders, Speck, Träff 2009): the trees, the EdgeColor colouring and the
// reduction order of every rank (verify/two_tree_check.h), and round-by-round broadcast and
// reduction runs (sim/two_tree_run.h); reports broadcast rounds against the lecture's formula.
#include <algorithm>

#include "sched/round.h"
#include "verify/families.h"
#include "verify/two_tree_check.h"

namespace rosched::verify {
namespace {

enum TimerIndex { kStructure, kRuns };

class TwoTreeFamily : public Family {
 public:
  std::string name() const override { return "twotree"; }
  std::string help() const override {
    return "twotree (two-tree broadcast and reduction, Sanders, Speck, Traff 2009): the trees, "
           "the EdgeColor colouring and the reduction order for every rank; for p <= --run-to "
           "also roots p/2 and p-1 and round-by-round broadcast and reduction runs for "
           "n = 1, 2, q-1, q, q+1, 3q+2; reports broadcast rounds against the lecture's formula";
  }
  std::vector<std::string> check_groups() const override { return {"structure", "runs"}; }
  // The runs need the structure's arrivals: asking for runs runs the structure check too.
  std::set<std::string> effective_checks(const std::set<std::string>& asked) const override {
    std::set<std::string> out = asked;
    if (out.count("runs")) out.insert("structure");
    return out;
  }
  std::int64_t default_run_to() const override { return 1000; }
  double deep_cost_factor() const override { return 600; }
  // Every rank's TwoTreeNode and the structure check's arrays: peak RSS / p = 213 bytes at
  // p = 2 million.
  std::int64_t bytes_for(std::int64_t p) const override { return 224 * p; }
  void configure(const FamilyOptions& o) override { options_ = o; }

  PResult verify_p(std::int64_t p) const override {
    PResult result;
    Laps lap;
    const bool deep = p <= options_.run_to;
    const bool runs = options_.checks.count("runs") != 0;
    const std::vector<std::int64_t> all_roots = deep ? roots(p) : std::vector<std::int64_t>{0};
    const std::vector<std::int64_t> ns = block_counts(ceil_log2(p));
    auto& ce = result.counterexample;
    std::int64_t lo = 0, hi = 0;
    bool first = true;
    for (const std::int64_t root : all_roots) {
      if (ce) break;
      const TwoTreeStructure s = check_two_tree_structure(p, root);
      ce = s.counterexample;
      lap(result.seconds[kStructure]);
      for (const std::int64_t n : ns) {
        if (ce) break;
        const std::int64_t excess = s.rounds(p, n) - two_tree_formula_rounds(p, n);
        lo = first ? excess : std::min(lo, excess);
        hi = first ? excess : std::max(hi, excess);
        first = false;
        if (deep && runs) ce = run_two_tree(p, n, root, s);
      }
      lap(result.seconds[kRuns]);
    }
    if (!first) result.statistic = PResult::Range{lo, hi};
    return result;
  }

  std::string label() const override { return "family=twotree"; }
  std::vector<Timer> timers() const override {
    return {{"trees and colouring", "structure_check_thread_seconds"},
            {"broadcast and reduction runs", "broadcast_run_thread_seconds"}};
  }
  std::string statistic_summary(std::int64_t min, std::int64_t max, bool) const override {
    return "; broadcast rounds minus the lecture's formula: " + std::to_string(min) + ".." +
           std::to_string(max);
  }
  std::string statistic_json_key() const override { return "rounds_minus_formula"; }

 private:
  FamilyOptions options_;
};

}  // namespace

std::unique_ptr<Family> two_tree_family() { return std::make_unique<TwoTreeFamily>(); }

}  // namespace rosched::verify
