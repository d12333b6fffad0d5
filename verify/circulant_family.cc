// The circulant family (Träff 2022): the broadcast schedules of a construction (built-in or a
// plugin through verify/construction_abi.h), the first-phase structure, the all-gather, census
// and reduce-scatter rounds, and broadcast and reduction runs over the BcastSchedule and
// ReduceSchedule the MPI executors walk.
#include <stdexcept>

#include "sched/circulant/baseblock.h"
#include "sim/circulant_run.h"
#include "sim/schedule_check.h"
#include "verify/families.h"
#include "verify/schedule_source.h"
#include "verify/structure_check.h"

namespace rosched::verify {
namespace {

enum TimerIndex { kConstruct, kSchedule, kStructure, kRuns };

class CirculantFamily : public Family {
 public:
  std::string name() const override { return "circulant"; }
  std::string help() const override {
    return "circulant (Traff 2022, the default): every rank's receive and send schedule of the "
           "construction (--construction, --per-rank or --plugin), baseblock and rangeblocks, "
           "the all-gather, census and reduce-scatter rounds, and (for p <= --run-to) full n-block "
           "broadcasts and reductions (the broadcast backwards) "
           "for n = 1, 2, q-1, q, q+1, 3q+2 and roots 0, p/2, p-1";
  }
  std::vector<std::string> check_groups() const override {
    return {"schedule", "structure", "runs"};
  }
  std::set<std::string> options() const override {
    return {"construction", "per-rank", "plugin", "samples"};
  }
  std::int64_t default_run_to() const override { return 5000; }
  double deep_cost_factor() const override { return 150; }
  // The all-ranks schedule (2 q bytes per rank), the baseblocks and the structure checks'
  // intervals: peak RSS / p = 48 bytes at p = 2 and 4 million (q = 21, 22).
  std::int64_t bytes_for(std::int64_t p) const override { return p * (2 * ceil_log2(p) + 8); }
  std::string nothing_checked(const FamilyOptions& o, std::int64_t) const override {
    if (o.checks == std::set<std::string>{"runs"} && o.run_to < o.from) {
      return "--checks runs checks nothing for p > --run-to = " + std::to_string(o.run_to) +
             " (broadcast runs are made for p <= --run-to only)";
    }
    return "";
  }

  void configure(const FamilyOptions& o) override {
    options_ = o;
    source_ = o.plugin.empty()
                  ? builtin_source(parse_construction(o.construction.c_str()), o.per_rank)
                  : plugin_source(o.plugin);
  }

  PResult verify_p(std::int64_t p) const override {
    PResult result;
    const Skips s(p);
    Laps lap;
    // The schedule's storage is kept per thread: allocating 2 p q fresh bytes for every p
    // costs more in page faults than the construction itself.
    thread_local FullSchedule storage{Skips(1)};
    FullSchedule& f = storage;
    auto& ce = result.counterexample;
    ce = source_->build(s, f);
    if (ce) return result;
    lap(result.seconds[kConstruct]);

    if (auto v = runs("schedule") ? sim::check_schedule(f) : std::nullopt) {
      ce = Counterexample{"broadcast-schedule",
                          sim::violation_name(v->kind),
                          p,
                          v->rank,
                          v->round,
                          v->expected,
                          v->actual,
                          ""};
      return result;
    }
    lap(result.seconds[kSchedule]);

    const bool deep = p <= options_.run_to;
    if (runs("structure")) {
      const auto bb = all_baseblocks(s);
      const std::int64_t samples = options_.samples;
      if (!ce) ce = deep ? check_baseblocks(s, bb) : check_baseblocks_sampled(s, bb, samples);
      if (!ce) ce = deep ? check_rangeblocks(s, bb) : check_rangeblocks_sampled(s, bb, samples);
      if (!ce) ce = check_allgather(s);
      if (!ce) ce = check_census(s);
      if (!ce) ce = check_reduce_scatter(s);
    }
    lap(result.seconds[kStructure]);

    if (deep && runs("runs")) {
      for (std::int64_t n : block_counts(s.q())) {
        for (std::int64_t root : roots(p)) {
          if (!ce) ce = sim::run_bcast(f, n, root);
          if (!ce) ce = sim::run_reduce(f, n, root);
        }
      }
    }
    lap(result.seconds[kRuns]);
    return result;
  }

  std::string label() const override { return "construction=" + source_->name(); }
  std::vector<Timer> timers() const override {
    return {{"construct", "construct_thread_seconds"},
            {"schedule check", "schedule_check_thread_seconds"},
            {"structure checks", "structure_check_thread_seconds"},
            {"broadcast and reduction runs", "broadcast_run_thread_seconds"}};
  }
  std::string reproduce_options() const override { return source_->command_line(); }

 private:
  bool runs(const char* group) const { return options_.checks.count(group) != 0; }

  FamilyOptions options_;
  std::unique_ptr<ScheduleSource> source_;
};

}  // namespace

std::unique_ptr<Family> circulant_family() { return std::make_unique<CirculantFamily>(); }

}  // namespace rosched::verify
