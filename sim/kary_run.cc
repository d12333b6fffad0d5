#include "sim/kary_run.h"

#include <algorithm>
#include <string>

#include "sched/kary/kary_tree_reduce.h"
#include "sched/kary/kary_tree_schedule.h"
#include "sim/round_run.h"

namespace rosched::sim {
namespace {

// What a counterexample of either run names besides p.
std::string kary_detail(std::int64_t n, std::int64_t root, std::int64_t k) {
  return "n=" + std::to_string(n) + " root=" + std::to_string(root) + " k=" + std::to_string(k);
}

}  // namespace

std::vector<std::int64_t> kary_starts_reference(std::int64_t p, std::int64_t k) {
  std::vector<std::int64_t> start(static_cast<std::size_t>(p), 0);
  for (std::int64_t v = 1; v < p; ++v) start[v] = start[(v - 1) / k] + (v - 1) % k + 1;
  return start;
}

std::int64_t kary_max_start_reference(std::int64_t p, std::int64_t k) {
  // start(v) for the ranks of one level from the previous level's: a rank's children follow
  // it in order, so a running pass over a level's parents visits its children in order too.
  std::vector<std::int64_t> level{0}, next;
  std::int64_t best = 0, placed = 1;
  while (placed < p) {
    next.clear();
    for (const std::int64_t parent_start : level) {
      for (std::int64_t c = 0; c < k && placed < p; ++c, ++placed) {
        next.push_back(parent_start + c + 1);
        best = std::max(best, next.back());
      }
    }
    level.swap(next);
  }
  return best;
}

std::optional<Counterexample> run_kary_tree(std::int64_t p, std::int64_t n, std::int64_t root,
                                            std::int64_t k) {
  std::vector<KaryTreeBcastSchedule> ranks;  // indexed by real rank
  ranks.reserve(static_cast<std::size_t>(p));
  for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(p, n, r, root, k);
  const std::string detail = kary_detail(n, root, k);
  BcastRun run("kary-run", detail, p, n, root);
  const std::vector<std::int64_t> start = kary_starts_reference(p, k);
  for (std::int64_t r = 0; r < p; ++r) {
    const KaryTreeBcastSchedule& s = ranks[r];
    const std::int64_t v = virtual_rank(r, root, p);
    const std::int64_t children = std::clamp<std::int64_t>(p - (k * v + 1), 0, k);
    if (s.virtual_rank() != v || s.start() != start[v]) {
      return run.fail("tree", r, -1, start[v], s.start());
    }
    if (s.children() != children) return run.fail("tree", r, -1, children, s.children());
  }
  const std::int64_t max_start = *std::max_element(start.begin(), start.end());
  const std::int64_t rounds = p == 1 ? 0 : (n - 1) * k + max_start;
  if (ranks[0].rounds() != rounds)
    return run.fail("round-count", -1, -1, rounds, ranks[0].rounds());
  const RunResult result = run_bcast_rounds(
      run, rounds, [&](std::int64_t r, std::int64_t i) { return ranks[r].round(i); },
      [](const BcastRun&, std::int64_t) -> std::optional<Counterexample> { return std::nullopt; });
  if (result.counterexample) return result.counterexample;
  if (result.rounds_used != rounds) {
    return run.fail("round-count", -1, rounds, rounds, result.rounds_used);
  }
  return std::nullopt;
}

std::optional<Counterexample> run_kary_tree_reduce(std::int64_t p, std::int64_t n,
                                                   std::int64_t root, std::int64_t k) {
  std::vector<KaryTreeReduceSchedule> ranks;  // indexed by real rank
  ranks.reserve(static_cast<std::size_t>(p));
  for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(p, n, r, root, k);
  const std::string detail = kary_detail(n, root, k);
  const std::int64_t rounds = ranks[0].rounds();
  const RunResult result = run_reduce_rounds(
      "kary-reduction-run", detail, p, n, root, rounds,
      [&](std::int64_t r, std::int64_t i) { return ranks[r].round(i); }, nullptr);
  if (result.counterexample) return result.counterexample;
  if (p > 1 && result.rounds_used != rounds) {
    return Counterexample{"kary-reduction-run", "round-count", p, -1, result.rounds_used, rounds,
                          result.rounds_used,   detail};
  }
  return std::nullopt;
}

}  // namespace rosched::sim
