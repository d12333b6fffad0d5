#include "sched/census_schedule.h"

namespace rosched {

CensusRound census_round(const Skips& s, std::int64_t r, int k) {
  check_rank(s, r, "rank");
  check_round(s, k);
  if (s[k] + s[k] > s[k + 1]) return {s.mod(r - s[k] + 1), s.mod(r + s[k] - 1), false};
  return {s.from(r, k), s.to(r, k), true};
}

}  // namespace rosched
