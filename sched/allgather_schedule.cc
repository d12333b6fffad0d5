#include "sched/allgather_schedule.h"

namespace rosched {

AllgatherRound allgather_round(const Skips& s, std::int64_t r, int k) {
  check_rank(s, r, "rank");
  check_round(s, k);
  const std::int64_t count = s[k + 1] - s[k];
  return {s.from(r, k), s.to(r, k), 0, count, s[k], count};
}

}  // namespace rosched
