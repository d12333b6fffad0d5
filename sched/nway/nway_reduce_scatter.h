// The n-port reduce-scatter: the n-port all-gather (nway_allgather.h; Träff 2022, Alg. 7 on the
// skips of n ports, Bruck et al. 1997's k-port dissemination) run backwards, as
// sched/circulant/reduce_scatter_schedule.h runs Algorithm 7 itself (n = 1 gives its rounds).
//
// Rank r keeps partial results of blocks r, r + 1, ... (mod p), block r + t at offset t. Round j
// (0 <= j < k) is the all-gather's round k - 1 - j with every message turned around: on port m,
// of distance d and `count` blocks, rank r sends its partial results of offsets [d, d + count)
// to rank r + d and gives them up, and receives from rank r - d that rank's offsets
// [d, d + count), which are blocks r .. r + count - 1, its own offsets [0, count), and combines
// them into its own. Before round j a rank holds offsets [0, s_(k-j)), after it [0, s_(k-1-j));
// after the k rounds offset 0 alone: block r, combined over all p ranks, each once. Every rank
// sends p - 1 blocks in all, as in the all-gather, in ceil(log_(n+1) p) rounds; followed by the
// all-gather, an all-reduce in 2 ceil(log_(n+1) p) rounds. For commutative operations (a block's
// partial results are combined in the order they arrive).
//
// Cost: O(log p) for the plan (nway_allgather_plan), O(n) per round.
#ifndef ROSCHED_SCHED_NWAY_NWAY_REDUCE_SCATTER_H_
#define ROSCHED_SCHED_NWAY_NWAY_REDUCE_SCATTER_H_

#include <cstdint>
#include <vector>

#include "sched/nway/nway_allgather.h"

namespace rosched {

// The messages of round j (0 <= j < plan.rounds(), plan = nway_allgather_plan(p, n);
// std::out_of_range otherwise), ports in order: the all-gather's round plan.rounds() - 1 - j.
// Each message's distance and count as there; sent from the sender's offsets
// [distance, distance + count), combined into the receiver's [0, count).
std::vector<NwayAllgatherMessage> nway_reduce_scatter_round(const NwayPlan& plan, int j);

// The real ranks a message of the reduce-scatter goes to and comes from, for `rank`
// (0 <= rank < plan.p(), unchecked): to = rank + distance, from = rank - distance (mod p), the
// all-gather's turned around.
inline NwayAllgatherPeers nway_reduce_scatter_peers(const NwayPlan& plan, std::int64_t rank,
                                                    const NwayAllgatherMessage& m) {
  const NwayAllgatherPeers g = nway_allgather_peers(plan, rank, m);
  return {g.from, g.to};
}

}  // namespace rosched

#endif  // ROSCHED_SCHED_NWAY_NWAY_REDUCE_SCATTER_H_
