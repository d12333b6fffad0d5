// The ring reduce-scatter of Patarasuk and Yuan 2009, Sec. 4 (see the header).
#include "sched/ring/ring_reduce_scatter.h"

#include <stdexcept>
#include <string>

namespace rosched {

void check_ring_step(const char* what, std::int64_t p, std::int64_t rank, std::int64_t s) {
  const std::string name(what);
  if (p < 2) throw std::invalid_argument(name + ": p = " + std::to_string(p) + " < 2");
  if (rank < 0 || rank >= p) {
    throw std::invalid_argument(name + ": rank " + std::to_string(rank) + " outside [0, " +
                                std::to_string(p) + ")");
  }
  if (s < 0 || s >= p - 1) {
    throw std::invalid_argument(name + ": step " + std::to_string(s) + " outside [0, " +
                                std::to_string(p - 1) + ")");
  }
}

RingStep ring_reduce_scatter_step(std::int64_t p, std::int64_t rank, std::int64_t s) {
  check_ring_step("ring reduce-scatter", p, rank, s);
  // Segment k starts at rank k + 1 (its first sender, step 0) and moves one rank per step, so in
  // step s it leaves rank k + 1 + s and reaches rank k + 2 + s; after step p - 2 it is at k.
  return RingStep{ring_mod(rank + 1, p), ring_mod(rank - 1, p), ring_mod(rank - s - 1, p),
                  ring_mod(rank - s - 2, p)};
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
