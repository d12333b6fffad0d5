// The binomial family (the binomial-tree reduction of one block, Träff's lecture notes,
// "Binomial tree reduction"): a round-by-round reduction run (sim/binomial_run.h) for every p
// with root 0, and with roots p / 2 and p - 1 too for p <= --run-to; every run also checks the
// round count, ceil(log2 p).
#include "sim/binomial_run.h"
#include "verify/families.h"

namespace rosched::verify {
namespace {

enum TimerIndex { kRuns };

class BinomialFamily : public Family {
 public:
  std::string name() const override { return "binomial"; }
  std::string help() const override {
    return "binomial (binomial-tree reduction of one block, Traff's lecture notes): "
           "round-by-round reduction runs checking matched transfers, each contribution "
           "combined once and in rank order from the root, and ceil(log2 p) rounds: root 0 for "
           "every p, also roots p/2 and p-1 for p <= --run-to";
  }
  std::vector<std::string> check_groups() const override { return {"runs"}; }
  std::int64_t default_run_to() const override { return 1000; }
  // Three roots instead of one.
  double deep_cost_factor() const override { return 3; }
  // Every rank's schedule, its round and its partial result in the run: about 150 bytes.
  std::int64_t bytes_for(std::int64_t p) const override { return 160 * p; }
  void configure(const FamilyOptions& o) override { options_ = o; }

  PResult verify_p(std::int64_t p) const override {
    PResult result;
    Laps lap;
    if (options_.checks.count("runs")) {
      const bool deep = p <= options_.run_to;
      for (const std::int64_t root : deep ? roots(p) : std::vector<std::int64_t>{0}) {
        result.counterexample = sim::run_binomial_reduce(p, root).counterexample;
        if (result.counterexample) break;
      }
    }
    lap(result.seconds[kRuns]);
    return result;
  }

  std::string label() const override { return "family=binomial"; }
  std::vector<Timer> timers() const override {
    return {{"reduction runs", "reduction_run_thread_seconds"}};
  }
  std::string statistic_summary(std::int64_t, std::int64_t, bool all_ok) const override {
    return all_ok && options_.checks.count("runs")
               ? "; every reduction took ceil(log2 p) rounds"
               : "";
  }

 private:
  FamilyOptions options_;
};

}  // namespace

std::unique_ptr<Family> binomial_family() { return std::make_unique<BinomialFamily>(); }

}  // namespace rosched::verify
