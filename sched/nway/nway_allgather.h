// The regular all-gather of Träff 2022 (Alg. 7, Sec. 2.3) on n ports: the dissemination
// all-gather of Bruck et al. (IEEE TPDS 1997, the k-port concatenation), with the n-port
// circulant skips of sched/nway/nway_plan.h (s_i = ceil(p / b^(k-i)), b = n + 1, k =
// ceil(log_b p)) as the amounts held after each round. For n = 1 the skips are Träff 2022's
// (Alg. 1) and the rounds are Algorithm 7's (sched/circulant/allgather_schedule.h).
//
// Rank r keeps the contributions of ranks r, r + 1, ... (mod p) in that order: offset t is the
// contribution of rank (r + t) mod p. Before round i it holds offsets [0, s_i). In round i it
// receives offsets [s_i, s_(i+1)) as messages of at most s_i contributions: on port j = 1, 2, ...
// the offsets [j s_i, min((j + 1) s_i, s_(i+1))) from rank r + j s_i, which sends them from its
// own offsets [0, count); so each rank sends, on port j, its first `count` contributions to rank
// r - j s_i. Ports per round: ceil(s_(i+1) / s_i) - 1 <= n (s_(i+1) <= b s_i). Every rank sends
// and receives p - 1 contributions in all, in k rounds against Algorithm 7's ceil(log2 p).
//
// Cost: O(log p) for the plan, O(1) per message.
#ifndef ROSCHED_SCHED_NWAY_NWAY_ALLGATHER_H_
#define ROSCHED_SCHED_NWAY_NWAY_ALLGATHER_H_

#include <cstdint>
#include <vector>

#include "sched/nway/nway_plan.h"

namespace rosched {

// One message of a round, the same relative to every rank: port (1..n), the distance (sent to
// rank - distance, received from rank + distance, mod p), and its `count` contributions: the
// sender's offsets [0, count), the receiver's [distance, distance + count).
struct NwayAllgatherMessage {
  int port = 0;
  std::int64_t distance = 0, count = 0;
  bool operator==(const NwayAllgatherMessage& o) const {
    return port == o.port && distance == o.distance && count == o.count;
  }
};

// The plan of an n-port all-gather over p ranks (its skips are the circulant rule's). Throws
// std::invalid_argument as NwayPlan does.
NwayPlan nway_allgather_plan(std::int64_t p, std::int64_t n);

// The real ranks a message goes to and comes from, for `rank` (0 <= rank < plan.p(), unchecked):
// to = rank - distance, from = rank + distance (mod p).
struct NwayAllgatherPeers {
  std::int64_t to = 0, from = 0;
};
inline NwayAllgatherPeers nway_allgather_peers(const NwayPlan& plan, std::int64_t rank,
                                               const NwayAllgatherMessage& m) {
  const std::int64_t p = plan.p(), d = m.distance % p;
  return {rank >= d ? rank - d : rank - d + p, rank + d < p ? rank + d : rank + d - p};
}

// The messages of round i (0 <= i < plan.rounds(); std::out_of_range otherwise), ports in order.
// O(n).
std::vector<NwayAllgatherMessage> nway_allgather_round(const NwayPlan& plan, int i);

}  // namespace rosched

#endif  // ROSCHED_SCHED_NWAY_NWAY_ALLGATHER_H_
