#include "sim/two_tree_run.h"

#include <string>
#include <vector>

#include "sched/two_tree/two_tree_schedule.h"

namespace rosched::sim {

std::int64_t two_tree_order(std::int64_t p, std::int64_t root, std::int64_t rank) {
  if (root == 0) return rank;
  if (rank == root) return p - 1;
  return rank < root ? rank : rank - 1;
}

RunResult run_two_tree(std::int64_t p, std::int64_t n, std::int64_t root) {
  const std::string detail = "n=" + std::to_string(n) + " root=" + std::to_string(root);
  std::vector<TwoTreeBcastSchedule> bcast;
  std::vector<TwoTreeReduceSchedule> reduce;
  bcast.reserve(p);
  reduce.reserve(p);
  for (std::int64_t r = 0; r < p; ++r) {
    bcast.emplace_back(p, n, r, root);
    reduce.emplace_back(p, n, r, root);
  }
  const std::int64_t rounds = bcast[0].rounds();
  const RunResult b = run_bcast_rounds("two-tree-bcast-run", detail, p, n, root, rounds,
                                       [&](std::int64_t r, std::int64_t i) { return bcast[r].round(i); });
  if (b.counterexample) return b;
  const RunResult r = run_reduce_rounds(
      "two-tree-reduce-run", detail, p, n, root, rounds,
      [&](std::int64_t rank, std::int64_t i) { return reduce[rank].round(i); },
      [&](std::int64_t rank) { return two_tree_order(p, root, rank); });
  return {r.counterexample, b.rounds_used};
}

}  // namespace rosched::sim
