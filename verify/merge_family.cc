// The merge-allreduce family (Lang 2025; sched/merge/): for every p, interval-arithmetic runs
// (sim/merge_run.h) of the chosen algorithms, all ranks for p <= --run-to and --samples ranks
// above (0, p - 1 and ranks spread over [0, p)); and the blocks each rank sends against the
// closed forms (sched/merge/merge_cost.h): p - 1 for Algorithms 0 and 2, p - 1 + E with
// E < (p - 1) / 2 for Algorithm 1; the largest message of Algorithms 1 and 2 at most floor(p/2).
// --algorithm alg1-printed runs Lang 2025's Algorithm 1 as printed, which must fail (p = 7).
#include <algorithm>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "sched/merge/merge_cost.h"
#include "sched/merge/merge_plan.h"
#include "sim/merge_run.h"
#include "verify/families.h"

namespace rosched::verify {
namespace {

using merge::Algorithm;

enum TimerIndex { kRuns, kVolume };

class MergeFamily : public Family {
 public:
  std::string name() const override { return "merge"; }
  std::string help() const override {
    return "merge (merge-allreduce, Lang 2025: Algorithm 0 all-gather and merge tree, "
           "Algorithm 1 dissemination with partial data (corrected), Algorithm 2 circulant): "
           "interval runs in which every rank must end with every rank's block exactly once "
           "and sends must meet receives (all ranks for p <= --run-to, --samples ranks above); "
           "blocks sent per rank against the closed forms (volume)";
  }
  std::vector<std::string> check_groups() const override { return {"runs", "volume"}; }
  std::set<std::string> effective_checks(const std::set<std::string>& asked) const override {
    std::set<std::string> out = asked;
    if (out.count("volume")) out.insert("runs");  // the volume is counted by the runs
    return out;
  }
  std::set<std::string> options() const override { return {"samples"}; }
  std::vector<FamilyParam> params() const override {
    return {{"algorithm", "LIST",
             "merge: comma-separated alg0, alg1, alg2 (default all three), or alg1-printed "
             "(Lang 2025's Algorithm 1 as printed: rejected from p = 7 on)"}};
  }
  std::int64_t default_run_to() const override { return 2000; }
  double deep_cost_factor() const override { return 20; }
  // One plan per algorithm, and the sampled ranks: a few KB; all ranks below --run-to.
  std::int64_t bytes_for(std::int64_t p) const override { return 4096 + 8 * p; }

  void configure(const FamilyOptions& o) override {
    options_ = o;
    algorithms_.clear();
    const auto it = o.params.find("algorithm");
    const std::string list = it == o.params.end() ? "alg0,alg1,alg2" : it->second;
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
      const Algorithm a = merge::parse_algorithm(item);  // throws std::invalid_argument
      if (std::find(algorithms_.begin(), algorithms_.end(), a) == algorithms_.end()) {
        algorithms_.push_back(a);
      }
    }
    if (algorithms_.empty()) throw std::invalid_argument("--algorithm is empty");
    algorithm_list_ = list;
  }

  PResult verify_p(std::int64_t p) const override {
    PResult result;
    Laps lap;
    auto& ce = result.counterexample;
    const bool deep = p <= options_.run_to;
    const std::vector<std::int64_t> ranks = deep ? std::vector<std::int64_t>{} : sampled_ranks(p);
    std::int64_t extra_min = 0, extra_max = 0;
    for (const Algorithm a : algorithms_) {
      if (ce || !options_.checks.count("runs")) break;
      const merge::MergePlan plan = merge::make_plan(a, p);
      const sim::MergeRunResult run =
          deep ? sim::run_merge(plan)
               : sim::run_merge_ranks(plan, ranks.data(), static_cast<std::int64_t>(ranks.size()));
      ce = run.counterexample;
      lap(result.seconds[kRuns]);
      if (ce || !options_.checks.count("volume")) continue;
      ce = check_volume(a, p, run.stats);
      if (a == Algorithm::kDissemination) {
        extra_min = run.stats.min_volume - (p - 1);
        extra_max = run.stats.max_volume - (p - 1);
        result.statistic = PResult::Range{extra_min, extra_max};
      }
      lap(result.seconds[kVolume]);
    }
    return result;
  }

  std::string label() const override { return "family=merge algorithm=" + algorithm_list_; }
  std::vector<Timer> timers() const override {
    return {{"interval runs", "merge_run_thread_seconds"},
            {"volume", "volume_check_thread_seconds"}};
  }
  std::string statistic_summary(std::int64_t min, std::int64_t max, bool) const override {
    if (std::find(algorithms_.begin(), algorithms_.end(), Algorithm::kDissemination) ==
            algorithms_.end() ||
        !options_.checks.count("volume")) {
      return "";
    }
    return "; Algorithm 1's extra blocks per rank over p - 1 (E): " + std::to_string(min) +
           ".." + std::to_string(max);
  }
  std::string statistic_json_key() const override { return "alg1_extra_blocks"; }
  std::string reproduce_options() const override {
    return "--family merge --algorithm " + algorithm_list_;
  }

 private:
  // 0, p - 1, and --samples - 2 ranks spread evenly (distinct, sorted).
  std::vector<std::int64_t> sampled_ranks(std::int64_t p) const {
    std::vector<std::int64_t> out{0, p - 1};
    const std::int64_t more = std::max<std::int64_t>(options_.samples - 2, 0);
    for (std::int64_t k = 1; k <= more; ++k) out.push_back(k * p / (more + 1));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  static std::optional<Counterexample> check_volume(Algorithm a, std::int64_t p,
                                                    const sim::MergeStats& s) {
    const auto fail = [&](const char* kind, std::int64_t expected, std::int64_t actual,
                          const std::string& detail) {
      return Counterexample{"merge-volume", kind, p, -1, -1, expected, actual,
                            merge::algorithm_name(a) + ": " + detail};
    };
    if (a == Algorithm::kDisseminationPrinted) return std::nullopt;  // no closed form
    const std::int64_t closed = merge::volume_blocks(a, p);
    if (s.min_volume != closed || s.max_volume != closed) {
      return fail("volume", closed, s.min_volume != closed ? s.min_volume : s.max_volume,
                  "blocks sent per rank differ from the closed form");
    }
    const std::int64_t extra = closed - (p - 1);
    if (extra != 0 && 2 * extra >= p - 1) {
      return fail("extra-bound", (p - 2) / 2, extra, "E must stay below (p - 1) / 2");
    }
    if (a != Algorithm::kAllgather && p > 1 && s.max_message > p / 2) {
      return fail("max-message", p / 2, s.max_message, "a message exceeds floor(p / 2) blocks");
    }
    return std::nullopt;
  }

  FamilyOptions options_;
  std::vector<Algorithm> algorithms_;
  std::string algorithm_list_ = "alg0,alg1,alg2";
};

}  // namespace

std::unique_ptr<Family> merge_family() { return std::make_unique<MergeFamily>(); }

}  // namespace rosched::verify
