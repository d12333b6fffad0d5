#include "sim/binomial_run.h"

#include <string>
#include <vector>

#include "sched/binomial/binomial_reduce.h"

namespace rosched::sim {

RunResult run_binomial_reduce(std::int64_t p, std::int64_t root) {
  const std::string detail = "root=" + std::to_string(root);
  std::vector<BinomialReduceSchedule> ranks;
  ranks.reserve(static_cast<std::size_t>(p));
  for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(p, r, root);
  const std::int64_t rounds = ranks[0].rounds();
  RunResult result = run_reduce_rounds(
      "binomial-reduce-run", detail, p, 1, root, rounds,
      [&](std::int64_t rank, std::int64_t k) { return ranks[rank].round(k); },
      [&](std::int64_t rank) { return virtual_rank(rank, root, p); });
  if (result.counterexample) return result;
  const std::int64_t optimal = ceil_log2(p);
  if (rounds != optimal || result.rounds_used != optimal) {
    result.counterexample = Counterexample{"binomial-reduce-run", "round-count", p, -1, rounds,
                                           optimal, result.rounds_used, detail};
  }
  return result;
}

}  // namespace rosched::sim
