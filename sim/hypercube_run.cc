#include "sim/hypercube_run.h"

#include <algorithm>
#include <string>

#include "sched/hypercube/hypercube_schedule.h"
#include "sim/round_run.h"

namespace rosched::sim {

std::vector<HypercubeRank> hypercube_virtual_ranks(std::int64_t p) {
  std::vector<HypercubeRank> out;
  out.reserve(p);
  for (std::int64_t x = 0; x < p; ++x) out.emplace_back(p, x);
  return out;
}

std::optional<Counterexample> run_hypercube(std::int64_t p, std::int64_t n, std::int64_t root) {
  return run_hypercube(hypercube_virtual_ranks(p), n, root);
}

std::optional<Counterexample> run_hypercube(const std::vector<HypercubeRank>& virtual_ranks,
                                            std::int64_t n, std::int64_t root) {
  const auto p = static_cast<std::int64_t>(virtual_ranks.size());
  std::vector<HypercubeBcastSchedule> ranks;  // indexed by real rank
  ranks.reserve(p);
  for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(virtual_ranks[virtual_rank(r, root, p)], n, root);
  const std::int64_t rounds = ranks[0].rounds();
  const int q = hypercube_dim(p);
  const std::int64_t pairs = p - (std::int64_t{1} << q);
  const std::uint64_t magic = q > 0 ? cube_round_magic(q) : 0;
  const auto real = [&](std::int64_t v) { return real_rank(v, root, p); };

  BcastRun run("hypercube-run", "n=" + std::to_string(n) + " root=" + std::to_string(root), p, n, root);
  // The lecture's proposition for pairs, before the hypercube rounds: in(j) holds block
  // j - q - 1, out(j) holds s(rep, j) (clamped), when they are >= 0.
  const auto pairs_hold = [&](const BcastRun& state, std::int64_t j) -> std::optional<Counterexample> {
    for (std::int64_t v = 1; v <= pairs && j < n - 1 + q; ++v) {
      const HypercubeRank& me = ranks[real(v)].virtual_rank();
      const CubeRound cr = me.round(j);
      const std::int64_t in_block = j - q - 1, out_block = std::min(me.send_block(cr), n - 1);
      const std::int64_t in = real(me.in(cr)), out = real(me.out(cr));
      if (in_block >= 0 && !state.holds(in, in_block)) return state.fail("in-lacks-block", in, j, in_block, -1);
      if (out_block >= 0 && !state.holds(out, out_block)) return state.fail("out-lacks-block", out, j, out_block, -1);
    }
    return std::nullopt;
  };
  // Every rank in a round shares the round's split j = cycle q + k: computed once per round.
  std::int64_t split_round = -1;
  CubeRound cr{};
  const auto round_of = [&](std::int64_t r, std::int64_t j) {
    if (j != split_round) {
      cr = cube_round(j, q, magic);
      split_round = j;
    }
    return ranks[r].round_at(cr);
  };
  const RunResult result = run_bcast_rounds(run, rounds, round_of, pairs_hold);
  if (result.counterexample) return result.counterexample;
  const std::int64_t optimal = p == 1 ? 0 : n - 1 + ceil_log2(p);
  if (rounds != optimal || result.rounds_used != optimal) {
    return run.fail("round-count", -1, rounds, optimal, result.rounds_used);
  }
  return std::nullopt;
}

}  // namespace rosched::sim
