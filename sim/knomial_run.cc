#include "sim/knomial_run.h"

#include <string>
#include <vector>

#include "sched/knomial/knomial_reduce.h"

namespace rosched::sim {

RunResult run_knomial_reduce(std::int64_t p, std::int64_t ports, std::int64_t root) {
  const std::string detail = "ports=" + std::to_string(ports) + " root=" + std::to_string(root);
  std::vector<KnomialReduceSchedule> ranks;
  ranks.reserve(static_cast<std::size_t>(p));
  for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(p, ports, r, root);
  const std::int64_t rounds = ranks[0].rounds();
  RunResult result = run_reduce_rounds(
      "knomial-reduce-run", detail, p, 1, root, rounds,
      [&](std::int64_t rank, std::int64_t t) { return ranks[rank].round(t); },
      [&](std::int64_t rank) { return virtual_rank(rank, root, p); });
  if (result.counterexample) return result;
  const std::int64_t levels = ceil_log(p, ports + 1);
  // The last level holds a transfer: rounds_used lies in it.
  const bool last_level_used = p == 1 ? result.rounds_used == 0
                                      : (result.rounds_used - 1) / ports == levels - 1;
  if (ranks[0].levels() != levels || rounds != levels * ports || !last_level_used) {
    result.counterexample = Counterexample{"knomial-reduce-run", "round-count", p, -1, rounds,
                                           levels * ports, result.rounds_used, detail};
  }
  return result;
}

}  // namespace rosched::sim
