// The k-nomial family (the k-nomial tree reduction of one block and the broadcast that runs it
// backwards, binomial for one port; Träff's lecture notes, "Binomial tree reduction", "Binomial
// tree broadcast" and "Final remark: binomial and k-nomial trees"): round-by-round reduction
// and broadcast runs (sim/knomial_run.h) with 1, 2 and 3 ports and root 0 for every p; for
// p <= --run-to also 7 and 64 ports and the roots p / 2 and p - 1. Every run also checks the
// depth, ceil(log_{ports+1} p) levels.
#include "sim/knomial_run.h"
#include "verify/families.h"

namespace rosched::verify {
namespace {

enum TimerIndex { kRuns };

class KnomialFamily : public Family {
 public:
  std::string name() const override { return "knomial"; }
  std::string help() const override {
    return "knomial (k-nomial tree reduction and broadcast of one block, binomial for one "
           "port, Traff's lecture notes): round-by-round reduction runs checking matched "
           "transfers, each contribution combined once and in rank order from the root, and "
           "broadcast runs checking that every rank receives the block once from a holder; "
           "both in ceil(log_{ports+1} p) levels: ports 1, 2, 3 and root 0 for every p, also "
           "ports 7, 64 and roots p/2, p-1 for p <= --run-to";
  }
  std::vector<std::string> check_groups() const override { return {"runs"}; }
  std::int64_t default_run_to() const override { return 1000; }
  // Five port counts and three roots instead of three and one; 64 ports run 64 rounds a level.
  double deep_cost_factor() const override { return 30; }
  // Every rank's schedule (with its strides), its round and its partial result in the run:
  // peak RSS / p = 403 bytes at p = 1 million.
  std::int64_t bytes_for(std::int64_t p) const override { return 480 * p; }
  void configure(const FamilyOptions& o) override { options_ = o; }

  PResult verify_p(std::int64_t p) const override {
    PResult result;
    Laps lap;
    if (options_.checks.count("runs")) {
      const bool deep = p <= options_.run_to;
      const std::vector<std::int64_t> all_roots =
          deep ? roots(p) : std::vector<std::int64_t>{0};
      const std::vector<std::int64_t> all_ports =
          deep ? std::vector<std::int64_t>{1, 2, 3, 7, 64} : std::vector<std::int64_t>{1, 2, 3};
      for (const std::int64_t ports : all_ports) {
        for (const std::int64_t root : all_roots) {
          if (!result.counterexample) {
            result.counterexample = sim::run_knomial_reduce(p, ports, root).counterexample;
          }
          if (!result.counterexample) {
            result.counterexample = sim::run_knomial_bcast(p, ports, root).counterexample;
          }
        }
      }
    }
    lap(result.seconds[kRuns]);
    return result;
  }

  std::string label() const override { return "family=knomial"; }
  std::vector<Timer> timers() const override {
    return {{"reduction and broadcast runs", "run_thread_seconds"}};
  }
  std::string statistic_summary(std::int64_t, std::int64_t, bool all_ok) const override {
    return all_ok && options_.checks.count("runs")
               ? "; every reduction and broadcast took ceil(log_{ports+1} p) levels"
               : "";
  }

 private:
  FamilyOptions options_;
};

}  // namespace

std::unique_ptr<Family> knomial_family() { return std::make_unique<KnomialFamily>(); }

}  // namespace rosched::verify
