// The n-way family (End et al. 2015; sched/nway/): for every p and each n of --n, the plan of
// each rule of --rule (rounds = ceil(log_{n+1} p); the paper's tuple solves Eq. 8 with elements
// of A, or the plan refuses (p, n) with a message naming both), and round-by-round runs
// (sim/nway_run.h): every rank for p <= --run-to, four ranks above (0, p/2, p-1 and one
// pseudo-random rank, each with its neighbours' accumulators taken as its own shifted). The
// (p, n) without a paper tuple are a fact, counted in the summary, not a failure. For each n
// also the n-port all-gather on the circulant rule's skips (sched/nway/nway_allgather.h,
// sim/nway_allgather_run.h): every rank for p <= --run-to, the same four ranks above; and the
// n-port reduce-scatter that runs it backwards (sched/nway/nway_reduce_scatter.h,
// sim/nway_reduce_scatter_run.h, all ranks at once) for p <= --run-to.
#include <atomic>
#include <stdexcept>
#include <string>

#include "sched/nway/nway_allgather.h"
#include "sched/nway/nway_schedule.h"
#include "sim/nway_allgather_run.h"
#include "sim/nway_reduce_scatter_run.h"
#include "sim/nway_run.h"
#include "verify/families.h"

namespace rosched::verify {
namespace {

enum TimerIndex { kStructure, kFullRuns, kLocalRuns };

// "1,2,8" or "1-8" or a mix; each 1..64, at least one.
std::vector<std::int64_t> parse_ports(const std::string& text) {
  std::vector<std::int64_t> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    const std::size_t dash = item.find('-');
    try {
      std::size_t used = 0, used2 = 0;
      const std::int64_t a = std::stoll(item.substr(0, dash), &used);
      const std::int64_t b = dash == std::string::npos ? a : std::stoll(item.substr(dash + 1), &used2);
      if (used != (dash == std::string::npos ? item.size() : dash) ||
          (dash != std::string::npos && used2 != item.size() - dash - 1) || a > b) {
        throw std::invalid_argument("");
      }
      for (std::int64_t n = a; n <= b; ++n) {
        check_nway_ports(n, "--n: ");
        out.push_back(n);
      }
    } catch (const std::invalid_argument& e) {
      if (std::string(e.what()).find("--n") == 0) throw;
      throw std::invalid_argument("--n: '" + item + "' is not a number or range a-b in [1, 64]");
    } catch (const std::out_of_range&) {
      throw std::invalid_argument("--n: '" + item + "' is out of range");
    }
    pos = comma + 1;
  }
  return out;
}

// The tuple's own claims, by arithmetic independent of its search.
std::optional<Counterexample> check_tuple(const NwayPlan& plan) {
  const PaperTuple& t = plan.tuple();
  const std::int64_t p = plan.p(), w = plan.w(), b = plan.base();
  auto in_a = [&](std::int64_t x) {
    if (x == 1) return true;
    for (int l = 1; l <= plan.rounds() - 1; ++l) {
      const std::int64_t d = plan.power(l - 1);
      if (x % d == 0 && x / d >= 2 && x / d <= b) return true;
    }
    return false;
  };
  const bool ok = t.s >= 1 && t.s <= plan.n() && t.s * w + t.lsnd - t.lrcv == p && t.s * w != p &&
                  in_a(t.lsnd) && (t.lrcv == 0 || in_a(t.lrcv));
  if (ok) return std::nullopt;
  return Counterexample{"nway-tuple", "eq8-violated", p, 0, plan.rounds() - 1,
                        p, t.s * w + t.lsnd - t.lrcv,
                        "n=" + std::to_string(plan.n()) + " s=" + std::to_string(t.s) + " Lsnd=" +
                            std::to_string(t.lsnd) + " Lrcv=" + std::to_string(t.lrcv)};
}

class NwayFamily : public Family {
 public:
  std::string name() const override { return "nway"; }
  std::string help() const override {
    return "nway (n-way dissemination allreduce, End et al. 2015): for each n of --n and rule "
           "of --rule, the plan (rounds = ceil(log_{n+1} p), the paper's Eq. 8 tuple where one "
           "exists) and runs with every rank's accumulators as intervals: every rank for "
           "p <= --run-to, ranks 0, p/2, p-1 and a pseudo-random one above; counts the (p, n) "
           "without a paper tuple; and for each n the n-port all-gather (Alg. 7 on the circulant "
           "rule's skips), run the same way, and the n-port reduce-scatter that runs it backwards, "
           "all ranks at once for p <= --run-to";
  }
  std::vector<std::string> check_groups() const override { return {"structure", "runs"}; }
  std::vector<FamilyParam> params() const override {
    return {{"n", "LIST", "ports per round, a list such as 1,2,8 or 1-8 (each 1..64; default 1-8)"},
            {"rule", "RULE", "last-round rule: paper, digits, circulant or all (default all)"}};
  }
  std::int64_t default_run_to() const override { return 500; }
  double deep_cost_factor() const override { return 4; }
  std::int64_t bytes_for(std::int64_t p) const override { return 400 * p + (1 << 20); }
  void configure(const FamilyOptions& o) override {
    options_ = o;
    auto it = o.params.find("n");
    ports_ = parse_ports(it == o.params.end() ? "1-8" : it->second);
    it = o.params.find("rule");
    const std::string rule = it == o.params.end() ? "all" : it->second;
    rules_.clear();
    if (rule == "all") {
      rules_ = {NwayRule::kPaper, NwayRule::kDigits, NwayRule::kCirculant};
    } else {
      rules_ = {parse_nway_rule(rule)};
    }
    no_tuple_ = 0;
    pairs_ = 0;
  }

  PResult verify_p(std::int64_t p) const override {
    PResult result;
    Laps lap;
    auto& ce = result.counterexample;
    std::int64_t missing = 0;
    for (const std::int64_t n : ports_) {
      const std::int64_t spread = static_cast<std::int64_t>(
          (static_cast<std::uint64_t>(p) * 2654435761u + static_cast<std::uint64_t>(n)) % p);
      if (!ce && options_.checks.count("runs")) {
        const NwayPlan gather = nway_allgather_plan(p, n);
        ce = p <= options_.run_to
                 ? sim::run_nway_allgather(gather)
                 : sim::run_nway_allgather_local(gather, {0, p / 2, p - 1, spread});
        lap(result.seconds[p <= options_.run_to ? kFullRuns : kLocalRuns]);
        if (!ce && p <= options_.run_to) {
          ce = sim::run_nway_reduce_scatter(gather);
          lap(result.seconds[kFullRuns]);
        }
      }
      for (const NwayRule rule : rules_) {
        if (ce) return result;
        std::optional<NwayPlan> plan;
        try {
          plan.emplace(p, n, rule);
        } catch (const std::invalid_argument& e) {
          // Only the paper rule may refuse, and only naming (p, n).
          const std::string want = "P = " + std::to_string(p) + ", n = " + std::to_string(n);
          if (rule != NwayRule::kPaper || std::string(e.what()).find(want) == std::string::npos) {
            ce = Counterexample{"nway-plan", "refused", p, 0, 0, 0, 0,
                                std::string(nway_rule_name(rule)) + ": " + e.what(), false};
          }
          ++missing;
          continue;
        }
        if (options_.checks.count("structure") && rule == NwayRule::kPaper && p > 1) {
          ce = check_tuple(*plan);
        }
        lap(result.seconds[kStructure]);
        if (ce || !options_.checks.count("runs")) continue;
        if (p <= options_.run_to) {
          ce = sim::run_nway(*plan);
          lap(result.seconds[kFullRuns]);
        } else {
          ce = sim::run_nway_local(*plan, sim::nway_round_of(*plan), {0, p / 2, p - 1, spread});
          lap(result.seconds[kLocalRuns]);
        }
      }
    }
    if (paper()) {
      no_tuple_ += missing;
      pairs_ += static_cast<std::int64_t>(ports_.size());
      result.statistic = PResult::Range{missing, missing};
    }
    return result;
  }

  std::string label() const override {
    std::string rules;
    for (const NwayRule r : rules_) rules += (rules.empty() ? "" : ",") + std::string(nway_rule_name(r));
    return "family=nway n=" + list() + " rule=" + rules;
  }
  std::vector<Timer> timers() const override {
    return {{"plans and tuples", "structure_thread_seconds"},
            {"runs of every rank", "full_run_thread_seconds"},
            {"runs of sampled ranks", "local_run_thread_seconds"}};
  }
  std::string statistic_summary(std::int64_t, std::int64_t, bool) const override {
    if (!paper()) return "";
    return "; (p, n) without a paper tuple (End et al. 2015, Eq. 8): " +
           std::to_string(no_tuple_.load()) + " of " + std::to_string(pairs_.load());
  }
  std::string statistic_json_key() const override { return "n_without_paper_tuple_per_p"; }
  std::string reproduce_options() const override {
    std::string out = "--family nway --n " + list();
    if (rules_.size() == 1) out += std::string(" --rule ") + nway_rule_name(rules_[0]);
    return out;
  }

 private:
  bool paper() const {
    for (const NwayRule r : rules_) {
      if (r == NwayRule::kPaper) return true;
    }
    return false;
  }
  std::string list() const {
    std::string out;
    for (const std::int64_t n : ports_) out += (out.empty() ? "" : ",") + std::to_string(n);
    return out;
  }

  FamilyOptions options_;
  std::vector<std::int64_t> ports_;
  std::vector<NwayRule> rules_;
  mutable std::atomic<std::int64_t> no_tuple_{0}, pairs_{0};
};

}  // namespace

std::unique_ptr<Family> nway_family() { return std::make_unique<NwayFamily>(); }

}  // namespace rosched::verify
