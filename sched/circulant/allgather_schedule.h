// Regular all-gather over the circulant graph: Algorithm 7 of Träff 2022 (Sec. 2.3).
//
// Rank r keeps the contributions of ranks r, r+1, ... (mod p) in that order. After round k it
// holds the skips[k+1] contributions of ranks r .. r + skips[k+1] - 1: in round k it sends its
// first skips[k+1] - skips[k] contributions to (r - skips[k]) mod p and receives the
// contributions of ranks r + skips[k] .. r + skips[k+1] - 1 from (r + skips[k]) mod p
// (Lemma 1: skips[k+1] - skips[k] <= skips[k], so it sends only what it holds).
// q = ceil(log2 p) rounds, p - 1 contributions received in total.
#ifndef ROSCHED_SCHED_CIRCULANT_ALLGATHER_SCHEDULE_H_
#define ROSCHED_SCHED_CIRCULANT_ALLGATHER_SCHEDULE_H_

#include <cstdint>

#include "sched/circulant/skips.h"

namespace rosched {

// Offsets are relative to the rank: offset j means the contribution of rank (r + j) mod p.
struct AllgatherRound {
  std::int64_t to = 0, from = 0;
  std::int64_t send_offset = 0, send_count = 0;
  std::int64_t recv_offset = 0, recv_count = 0;
};

// Round k (0 <= k < q) of rank r. Throws std::invalid_argument / std::out_of_range otherwise.
inline AllgatherRound allgather_round(const Skips& s, std::int64_t r, int k) {
  check_rank(s, r, "rank");
  check_round(s, k);
  const std::int64_t count = s[k + 1] - s[k];
  return {s.from(r, k), s.to(r, k), 0, count, s[k], count};
}

}  // namespace rosched

#endif  // ROSCHED_SCHED_CIRCULANT_ALLGATHER_SCHEDULE_H_
