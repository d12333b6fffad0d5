// The ring reduce-scatter of Patarasuk and Yuan 2009, Sec. 4 (see the header).
#include "sched/ring/ring_reduce_scatter.h"

#include <stdexcept>
#include <string>

namespace rosched {
namespace {

std::int64_t mod(std::int64_t a, std::int64_t p) { return ((a % p) + p) % p; }

}  // namespace

RingStep ring_reduce_scatter_step(std::int64_t p, std::int64_t rank, std::int64_t s) {
  if (p < 2) throw std::invalid_argument("ring reduce-scatter: p = " + std::to_string(p) + " < 2");
  if (rank < 0 || rank >= p) {
    throw std::invalid_argument("ring reduce-scatter: rank " + std::to_string(rank) +
                                " outside [0, " + std::to_string(p) + ")");
  }
  if (s < 0 || s >= p - 1) {
    throw std::invalid_argument("ring reduce-scatter: step " + std::to_string(s) +
                                " outside [0, " + std::to_string(p - 1) + ")");
  }
  // Segment k starts at rank k + 1 (its first sender, step 0) and moves one rank per step, so in
  // step s it leaves rank k + 1 + s and reaches rank k + 2 + s; after step p - 2 it is at k.
  return RingStep{mod(rank + 1, p), mod(rank - 1, p), mod(rank - s - 1, p), mod(rank - s - 2, p)};
}

std::int64_t ring_segment_begin(std::int64_t count, std::int64_t p, std::int64_t k) {
  if (p < 1 || k < 0 || k > p || count < 0) {
    throw std::invalid_argument("ring segments: count " + std::to_string(count) + ", p " +
                                std::to_string(p) + ", segment " + std::to_string(k));
  }
  // k * count can exceed 64 bits only for count and p beyond any MPI count; split it exactly.
  return (k / p) * count + ((k % p) * (count / p)) + ((k % p) * (count % p)) / p;
}

}  // namespace rosched
