#include "sim/circulant_run.h"

#include <string>
#include <vector>

#include "sched/circulant/bcast_schedule.h"
#include "sched/circulant/reduce_schedule.h"
#include "sim/round_run.h"

namespace rosched::sim {
namespace {

// Every rank's Schedule (BcastSchedule or ReduceSchedule) of n blocks from root, each from its
// own row of f, as every process builds its own.
template <typename Schedule>
std::vector<Schedule> every_rank(const FullSchedule& f, std::int64_t n, std::int64_t root) {
  const Skips& s = f.skips();
  const std::int64_t p = s.p();
  std::vector<Schedule> ranks;
  ranks.reserve(p);
  for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(s, n, r, root, f.rank(virtual_rank(r, root, p)));
  return ranks;
}

std::string detail(std::int64_t n, std::int64_t root) {
  return "n=" + std::to_string(n) + " root=" + std::to_string(root);
}

}  // namespace

std::optional<Counterexample> run_bcast(const FullSchedule& f, std::int64_t n,
                                        std::int64_t root) {
  const std::int64_t p = f.skips().p();
  const std::vector<BcastSchedule> ranks = every_rank<BcastSchedule>(f, n, root);
  const std::int64_t rounds = ranks[0].rounds();
  const RunResult run =
      run_bcast_rounds("broadcast-run", detail(n, root), p, n, root, rounds,
                       [&](std::int64_t r, std::int64_t i) { return ranks[r].round(i); });
  if (!run.counterexample && p > 1 && run.rounds_used != rounds) {
    return Counterexample{"broadcast-run", "round-count", p, -1, run.rounds_used, rounds,
                          run.rounds_used, detail(n, root)};
  }
  return run.counterexample;
}

std::optional<Counterexample> run_reduce(const FullSchedule& f, std::int64_t n,
                                         std::int64_t root) {
  const std::vector<ReduceSchedule> ranks = every_rank<ReduceSchedule>(f, n, root);
  return run_reduce_rounds(
             "reduction-run", detail(n, root), f.skips().p(), n, root, ranks[0].rounds(),
             [&](std::int64_t r, std::int64_t i) { return ranks[r].round(i); }, nullptr)
      .counterexample;
}

}  // namespace rosched::sim
