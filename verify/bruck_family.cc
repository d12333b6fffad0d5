// The Bruck all-to-all family (sched/bruck/): for every p and every radix and variant asked for,
// the schedule's step count and blocks per rank against brute force, a symbolic run of every
// block (one rank's P relative slots cover all ranks: sim/bruck_run.h says why), and for small p
// the all-ranks run compared with it and byte-exact runs of the non-uniform variants.
#include <sstream>
#include <stdexcept>

#include "sched/bruck/bruck.h"
#include "sched/bruck/bruck_plan.h"
#include "sim/bruck_run.h"
#include "verify/families.h"

namespace rosched::verify {
namespace {

enum TimerIndex { kSchedule, kRuns, kAllRanks, kBytes };

// The all-ranks comparison stops at this p (O(p^2 log p) each); above --run-to the byte-exact
// runs (O(p^2 log p) each too) take the p <= 2,000 that are 2^k - 1, 2^k, 2^k + 1 or multiples
// of 97.
constexpr std::int64_t kAllRanksTo = 300, kBytesTo = 2000;
bool sampled_bytes(std::int64_t p) {
  if (p > kBytesTo) return false;
  const auto pow2 = [](std::int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
  return p % 97 == 0 || pow2(p - 1) || pow2(p) || pow2(p + 1);
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (item.empty()) throw std::invalid_argument("empty entry in the list '" + list + "'");
    out.push_back(item);
  }
  if (out.empty()) throw std::invalid_argument("empty list");
  return out;
}

Counterexample schedule_failure(const char* kind, std::int64_t p, std::int64_t r,
                                std::int64_t expected, std::int64_t actual) {
  Counterexample ce;
  ce.check = "bruck-schedule";
  ce.kind = kind;
  ce.p = p;
  ce.expected = expected;
  ce.actual = actual;
  ce.detail = "radix=" + std::to_string(r);
  return ce;
}

// Step count by enumerating the steps (x, z) with z r^x <= p - 1, and the brute-force blocks.
std::optional<Counterexample> check_schedule(const BruckSchedule& s) {
  const std::int64_t p = s.p(), r = s.radix();
  std::int64_t steps = 0;
  for (std::int64_t w = 1; w <= p - 1; w *= r)
    for (std::int64_t z = 1; z < r && z * w <= p - 1; ++z) ++steps;
  if (s.steps() != steps) return schedule_failure("step-count", p, r, steps, s.steps());
  if (r == 2 && s.steps() != ceil_log2(p)) {
    return schedule_failure("step-count-log2", p, r, ceil_log2(p), s.steps());
  }
  const std::int64_t blocks = bruck_blocks_brute_force(p, r);
  if (s.blocks_per_rank() != blocks) {
    return schedule_failure("blocks-per-rank", p, r, blocks, s.blocks_per_rank());
  }
  if (r == 2) {
    for (std::int64_t t = 0; t < s.steps(); ++t) {
      if (s.moved_count(s.step(t)) > p / 2) {
        return schedule_failure("blocks-per-step", p, r, p / 2, s.moved_count(s.step(t)));
      }
    }
  }
  return std::nullopt;
}

class BruckFamily : public Family {
 public:
  std::string name() const override { return "bruck"; }
  std::string help() const override {
    return "bruck (the Bruck all-to-all, Bruck et al. 1997, and its variants for uniform and "
           "non-uniform data, Fan et al. 2022): for every p, radix and variant the step count "
           "and blocks per rank against brute force and a symbolic run of every block (one "
           "rank's relative slots, exact for all ranks by the circulant symmetry); for p <= "
           "min(--run-to, 300) the all-ranks run compared with it; byte-exact runs of padded "
           "and two-phase on random, zero, one-huge and empty-row/column size matrices for "
           "p <= --run-to, one matrix for sampled p up to 2,000 (2^k - 1, 2^k, 2^k + 1, "
           "multiples of 97)";
  }
  std::vector<std::string> check_groups() const override {
    return {"schedule", "runs", "all-ranks", "bytes"};
  }
  std::vector<FamilyParam> params() const override {
    return {{"radix", "R[,R...]", "radices to check (default 2)"},
            {"variant", "V[,V...]",
             "variants to check: basic, modified, zerorot, zerocopy, padded, twophase (default "
             "all six), or zerocopy-printed (the printed parity, rejected: fails at p = 2)"}};
  }
  std::int64_t default_run_to() const override { return 300; }
  double deep_cost_factor() const override { return 4; }
  // The relative runs: 8 vectors of p int64; the byte runs (p <= 2,000): every rank's buffers
  // and engine, about 3 p^2 (N + 8) bytes with N <= 64.
  std::int64_t bytes_for(std::int64_t p) const override {
    return 64 * p + (p <= kBytesTo ? 200 * p * p : 0) + (1 << 20);
  }
  void configure(const FamilyOptions& o) override {
    options_ = o;
    radices_.clear();
    variants_.clear();
    const auto radix = o.params.find("radix");
    for (const std::string& r : split(radix == o.params.end() ? "2" : radix->second)) {
      radices_.push_back(bruck_radix_from_string(r));
    }
    const auto variant = o.params.find("variant");
    if (variant == o.params.end()) {
      variants_ = bruck_variants();
    } else {
      for (const std::string& v : split(variant->second)) variants_.push_back(bruck_variant_from_name(v));
    }
  }

  PResult verify_p(std::int64_t p) const override {
    PResult result;
    Laps lap;
    auto& ce = result.counterexample;
    const bool deep = p <= options_.run_to;
    for (const std::int64_t r : radices_) {
      const BruckSchedule s(p, r);
      if (!ce && options_.checks.count("schedule")) ce = check_schedule(s);
      lap(result.seconds[kSchedule]);
      for (const BruckVariant v : variants_) {
        const BruckPlan plan(s, v);
        sim::BruckRunResult rel;
        if (!ce && options_.checks.count("runs")) {
          rel = sim::run_bruck_relative(plan);
          ce = rel.counterexample;
          if (!ce && rel.blocks_sent != s.blocks_per_rank()) {
            ce = schedule_failure("blocks-sent", p, r, s.blocks_per_rank(), rel.blocks_sent);
          }
        }
        lap(result.seconds[kRuns]);
        if (!ce && deep && p <= kAllRanksTo && options_.checks.count("all-ranks")) {
          if (!options_.checks.count("runs")) rel = sim::run_bruck_relative(plan);
          const sim::BruckRunResult all = sim::run_bruck_all_ranks(plan);
          ce = all.counterexample ? all.counterexample
                                  : sim::compare_bruck_states(plan, rel.state, all.state);
        }
        lap(result.seconds[kAllRanks]);
        if (!ce && bruck_nonuniform(v) && (deep || sampled_bytes(p)) &&
            options_.checks.count("bytes")) {
          ce = byte_runs(plan, deep);
        }
        lap(result.seconds[kBytes]);
      }
    }
    return result;
  }

  std::string label() const override { return "family=bruck"; }
  std::vector<Timer> timers() const override {
    return {{"schedule", "schedule_check_thread_seconds"},
            {"relative runs", "relative_run_thread_seconds"},
            {"all-ranks runs", "all_ranks_run_thread_seconds"},
            {"byte-exact runs", "byte_run_thread_seconds"}};
  }
  std::string statistic_summary(std::int64_t, std::int64_t, bool all_ok) const override {
    return all_ok && options_.checks.count("runs")
               ? "; every block reached its destination in source order, steps and blocks per "
                 "rank as the formulas say"
               : "";
  }
  std::string reproduce_options() const override {
    std::string radix, variant;
    for (const std::int64_t r : radices_) radix += (radix.empty() ? "" : ",") + std::to_string(r);
    for (const BruckVariant v : variants_) {
      variant += (variant.empty() ? "" : ",") + bruck_variant_name(v);
    }
    return "--family bruck --radix " + radix + " --variant " + variant;
  }

 private:
  // Every size kind for deep p, else one (by p mod the number of kinds); sizes up to 8
  // bytes, the huge block 64 bytes (p <= 500) or 24.
  std::optional<Counterexample> byte_runs(const BruckPlan& plan, bool deep) const {
    const std::int64_t p = plan.schedule().p();
    const auto& kinds = sim::bruck_size_kinds();
    for (std::size_t k = 0; k < kinds.size(); ++k) {
      if (!deep && static_cast<std::int64_t>(k) != p % static_cast<std::int64_t>(kinds.size())) continue;
      const auto sizes = sim::bruck_size_matrix(p, kinds[k], 8, p <= 500 ? 64 : 24,
                                                static_cast<std::uint64_t>(p * 31 + k));
      auto run = sim::run_bruck_bytes(plan, sizes);
      if (run.counterexample) {
        run.counterexample->detail += " sizes=" + sim::bruck_sizes_name(kinds[k]);
        return run.counterexample;
      }
    }
    return std::nullopt;
  }

  FamilyOptions options_;
  std::vector<std::int64_t> radices_;
  std::vector<BruckVariant> variants_;
};

}  // namespace

std::unique_ptr<Family> bruck_family() { return std::make_unique<BruckFamily>(); }

}  // namespace rosched::verify
