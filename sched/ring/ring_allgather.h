// The ring all-gather (Patarasuk and Yuan, "Bandwidth optimal all-reduce algorithms for
// clusters of workstations", JPDC 2009, Sec. 4: the second half of their ring all-reduce). Rank
// r starts with segment r of a vector cut into p segments (as ring_segment_begin cuts it); in
// step s = 0 .. p - 2 every rank sends one segment to r + 1 and receives one from r - 1 (mod p):
// the one it received in step s - 1 (its own in step 0). After p - 1 steps every rank holds all
// p segments, each received exactly once. Every rank sends and receives (p - 1) / p of the
// vector, the least an all-gather moves, in p - 1 rounds (used inside a node, where rounds are
// cheap). Pure functions of (p, rank, step), O(1).
#ifndef ROSCHED_SCHED_RING_RING_ALLGATHER_H_
#define ROSCHED_SCHED_RING_RING_ALLGATHER_H_

#include <cstdint>

#include "sched/ring/ring_reduce_scatter.h"

namespace rosched {

// Step s of rank `rank` among p: to rank + 1, from rank - 1; sends segment rank - s and receives
// segment rank - s - 1 (mod p), stored on arrival. Throws std::invalid_argument unless p >= 2,
// 0 <= rank < p, 0 <= s < p - 1.
RingStep ring_allgather_step(std::int64_t p, std::int64_t rank, std::int64_t s);

}  // namespace rosched

#endif  // ROSCHED_SCHED_RING_RING_ALLGATHER_H_
