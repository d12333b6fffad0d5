#include "verify/verify_p.h"

#include <algorithm>
#include <chrono>
#include <exception>

#include "sched/baseblock.h"
#include "sched/schedule_check.h"
#include "sched/hypercube.h"
#include "verify/bcast_run.h"
#include "verify/hypercube_check.h"
#include "verify/structure_check.h"
#include "verify/two_tree_check.h"

namespace rosched::verify {
namespace {

// lap(seconds) adds the time since the previous lap (or construction) to seconds.
class Laps {
 public:
  void operator()(double& seconds) {
    const auto now = std::chrono::steady_clock::now();
    seconds += std::chrono::duration<double>(now - start_).count();
    start_ = now;
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

void add_once(std::vector<std::int64_t>& v, std::int64_t x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

}  // namespace

std::vector<std::int64_t> block_counts(int q) {
  std::vector<std::int64_t> out;
  for (std::int64_t n : {1, 2, q - 1, q, q + 1, 3 * q + 2}) {
    if (n >= 1) add_once(out, n);
  }
  return out;
}

std::vector<std::int64_t> roots(std::int64_t p) {
  std::vector<std::int64_t> out;
  for (std::int64_t r : {std::int64_t{0}, p / 2, p - 1}) add_once(out, r);
  return out;
}

PResult verify_p(std::int64_t p, const ScheduleSource& source, const VerifyOptions& options) {
  PResult result;
  const Skips s(p);
  Laps lap;
  // The schedule's storage is kept per thread: allocating 2 p q fresh bytes for every p costs
  // more in page faults than the construction itself.
  thread_local FullSchedule storage{Skips(1)};
  FullSchedule* const f = &storage;
  try {
    source.build(s, *f);
  } catch (const std::exception& e) {
    result.counterexample = Counterexample{"construction", "error", p, -1, -1, 0, 0, e.what()};
    return result;
  }
  lap(result.construct_seconds);

  if (auto v = options.schedule ? check_schedule(*f) : std::nullopt) {
    result.counterexample = Counterexample{"broadcast-schedule", violation_name(v->kind), p,
                                           v->rank, v->round, v->expected, v->actual, ""};
    return result;
  }
  lap(result.schedule_seconds);

  const bool deep = p <= options.run_to;
  auto& ce = result.counterexample;
  if (options.structure) {
    const auto bb = all_baseblocks(s);
    if (!ce) ce = deep ? check_baseblocks(s, bb) : check_baseblocks_sampled(s, bb, options.samples);
    if (!ce) ce = deep ? check_rangeblocks(s, bb) : check_rangeblocks_sampled(s, bb, options.samples);
    if (!ce) ce = check_allgather(s);
    if (!ce) ce = check_census(s);
  }
  lap(result.structure_seconds);

  if (deep && options.runs) {
    for (std::int64_t n : block_counts(s.q())) {
      for (std::int64_t root : roots(p)) {
        if (!ce) ce = run_bcast(*f, n, root);
      }
    }
  }
  lap(result.run_seconds);
  return result;
}

PResult verify_two_tree_p(std::int64_t p, const VerifyOptions& options) {
  PResult result;
  Laps lap;
  const bool deep = p <= options.run_to;
  const std::vector<std::int64_t> all_roots = deep ? roots(p) : std::vector<std::int64_t>{0};
  const std::vector<std::int64_t> ns = block_counts(ceil_log2(p));
  auto& ce = result.counterexample;
  bool first = true;
  for (const std::int64_t root : all_roots) {
    if (ce) break;  // the structure check is always run: the runs need its arrivals
    const TwoTreeStructure s = check_two_tree_structure(p, root);
    ce = s.counterexample;
    lap(result.structure_seconds);
    for (const std::int64_t n : ns) {
      if (ce) break;
      const std::int64_t excess = s.rounds(p, n) - two_tree_formula_rounds(p, n);
      result.rounds_excess_min = first ? excess : std::min(result.rounds_excess_min, excess);
      result.rounds_excess_max = first ? excess : std::max(result.rounds_excess_max, excess);
      first = false;
      if (deep && options.runs) ce = run_two_tree(p, n, root, s);
    }
    lap(result.run_seconds);
  }
  return result;
}

PResult verify_hypercube_p(std::int64_t p, bool cube_checks, const VerifyOptions& options) {
  PResult result;
  Laps lap;
  auto& ce = result.counterexample;
  if (options.structure) {
    if (cube_checks) ce = check_hypercube_cube(hypercube_dim(p));
    if (!ce) ce = check_hypercube_units(p);
  }
  lap(result.structure_seconds);
  if (options.runs) {
    const std::vector<std::int64_t> all_roots =
        p <= options.run_to ? roots(p) : std::vector<std::int64_t>{0};
    const std::vector<HypercubeRank> ranks = hypercube_virtual_ranks(p);
    for (const std::int64_t n : hypercube_block_counts(p)) {
      if (p > options.run_to) {
        if (!ce) ce = stream_hypercube(ranks, n);
        continue;
      }
      for (const std::int64_t root : all_roots) {
        if (!ce) ce = run_hypercube(ranks, n, root);
      }
    }
  }
  lap(result.run_seconds);
  return result;
}

}  // namespace rosched::verify
