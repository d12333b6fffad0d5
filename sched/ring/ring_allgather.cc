// The ring all-gather of Patarasuk and Yuan 2009, Sec. 4 (see the header).
#include "sched/ring/ring_allgather.h"

namespace rosched {

RingStep ring_allgather_step(std::int64_t p, std::int64_t rank, std::int64_t s) {
  check_ring_step("ring all-gather", p, rank, s);
  // Segment k leaves its owner k in step 0 and moves one rank per step: in step s it goes from
  // rank k + s to k + s + 1, so rank r sends segment r - s and receives r - s - 1.
  return RingStep{ring_mod(rank + 1, p), ring_mod(rank - 1, p), ring_mod(rank - s, p),
                  ring_mod(rank - s - 1, p)};
}

}  // namespace rosched
