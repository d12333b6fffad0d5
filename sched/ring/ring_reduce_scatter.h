// The ring reduce-scatter for commutative operations (Patarasuk and Yuan, "Bandwidth optimal
// all-reduce algorithms for clusters of workstations", JPDC 2009, Sec. 4: the first half of
// their ring all-reduce). A vector of `count` elements is cut into p segments, segment k for
// rank k; in step s = 0 .. p - 2 every rank r sends one segment's partial result to r + 1 and
// receives one from r - 1 (mod p), which it combines with its own contribution to that segment
// before passing it on. After p - 1 steps rank r holds segment r reduced over all p ranks, each
// contribution combined exactly once. Every rank sends (p - 1) / p of the vector: the least any
// reduce-scatter sends, at p - 1 rounds (not round-optimal: used where rounds are cheap, inside
// a node). Pure functions of (p, rank, step), O(1).
#ifndef ROSCHED_SCHED_RING_RING_REDUCE_SCATTER_H_
#define ROSCHED_SCHED_RING_RING_REDUCE_SCATTER_H_

#include <cstdint>

namespace rosched {

struct RingStep {
  std::int64_t to, from;                    // the ranks sent to and received from
  std::int64_t send_segment, recv_segment;  // the segments sent and received (combined on arrival)
};

// Step s of rank `rank` among p: to rank + 1, from rank - 1; sends segment rank - s - 1 and
// receives segment rank - s - 2 (mod p). The segment sent in step s >= 1 is the one received in
// step s - 1. Throws std::invalid_argument unless p >= 2, 0 <= rank < p, 0 <= s < p - 1.
RingStep ring_reduce_scatter_step(std::int64_t p, std::int64_t rank, std::int64_t s);

// The checks of a ring step, shared by the ring algorithms: throws std::invalid_argument naming
// `what` unless p >= 2, 0 <= rank < p and 0 <= s < p - 1.
void check_ring_step(const char* what, std::int64_t p, std::int64_t rank, std::int64_t s);

// a mod p in [0, p), p >= 1.
inline std::int64_t ring_mod(std::int64_t a, std::int64_t p) { return ((a % p) + p) % p; }

// Where segment k of a vector of `count` elements cut into p segments starts: floor(k count / p)
// for k = 0 .. p (segment k is [begin(k), begin(k + 1)); sizes differ by at most one element).
// Throws std::invalid_argument unless p >= 1, 0 <= k <= p, count >= 0.
std::int64_t ring_segment_begin(std::int64_t count, std::int64_t p, std::int64_t k);

}  // namespace rosched

#endif  // ROSCHED_SCHED_RING_RING_REDUCE_SCATTER_H_
