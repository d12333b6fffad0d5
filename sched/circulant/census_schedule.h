// Census (all-reduce with an associative, commutative operator) over the circulant graph:
// Algorithm 8 of Träff 2022 (Sec. 2.3), reading its condition with k for i.
//
// Invariant: after round k, rank r's partial result S combines x of ranks r+1 .. r+skips[k+1]-1
// (mod p). In round k, if skips[k] + skips[k] == skips[k+1], r receives x_f (+) S_f from
// f = r + skips[k]; otherwise (skips[k] + skips[k] == skips[k+1] + 1) it receives S_f from
// f = r + skips[k] - 1. At the end, x_r (+) S is the result. q rounds, one value per round.
#ifndef ROSCHED_SCHED_CIRCULANT_CENSUS_SCHEDULE_H_
#define ROSCHED_SCHED_CIRCULANT_CENSUS_SCHEDULE_H_

#include <cstdint>

#include "sched/circulant/skips.h"

namespace rosched {

struct CensusRound {
  std::int64_t to = 0, from = 0;
  // true: send x_r (+) S; false: send S alone.
  bool send_includes_own = false;
};

// Round k (0 <= k < q) of rank r. Throws std::invalid_argument / std::out_of_range otherwise.
inline CensusRound census_round(const Skips& s, std::int64_t r, int k) {
  check_rank(s, r, "rank");
  check_round(s, k);
  if (s[k] + s[k] > s[k + 1]) {  // odd skips[k+1]: the partial result of r + skips[k] - 1
    const std::int64_t f = s.to(r, k) == 0 ? s.p() - 1 : s.to(r, k) - 1;
    const std::int64_t t = s.from(r, k) + 1 == s.p() ? 0 : s.from(r, k) + 1;
    return {t, f, false};
  }
  return {s.from(r, k), s.to(r, k), true};
}

}  // namespace rosched

#endif  // ROSCHED_SCHED_CIRCULANT_CENSUS_SCHEDULE_H_
