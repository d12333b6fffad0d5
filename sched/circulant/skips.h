// Circulant-graph skips (jumps) for p processes.
//
// Implements Algorithm 1 and Lemma 1 of Träff, "(Poly)Logarithmic Time Construction of
// Round-optimal n-Block Broadcast Schedules for Broadcast and irregular Allgather in MPI"
// (2022), Sec. 2.
//
// skips[q] = p and skips[k] = ceil(skips[k+1] / 2) for k < q, so skips[0] = 1 and, for
// p >= 2, skips[1] = 2. Process r talks to (r + skips[k]) mod p and (r - skips[k]) mod p in
// round k of every phase. q = ceil(log2 p) is the number of rounds of a phase.
#ifndef ROSCHED_SCHED_CIRCULANT_SKIPS_H_
#define ROSCHED_SCHED_CIRCULANT_SKIPS_H_

#include <array>
#include <cstdint>

#include "sched/round.h"

namespace rosched {

// The skips of the circulant graph over p processes: a small value type (O(log p) space).
class Skips {
 public:
  // Preconditions: 1 <= p <= kMaxProcesses; otherwise throws std::invalid_argument.
  explicit Skips(std::int64_t p);

  std::int64_t p() const { return skips_[q_]; }
  int q() const { return q_; }
  // Returns skips[k] for 0 <= k <= q (unchecked; see at()).
  std::int64_t operator[](int k) const { return skips_[k]; }
  // Checked access: throws std::out_of_range unless 0 <= k <= q.
  std::int64_t at(int k) const;

  // (r + skips[k]) mod p and (r - skips[k]) mod p: the to- and from-process of round k.
  // Precondition: 0 <= r < p (no division: these are on every hot path).
  std::int64_t to(std::int64_t r, int k) const {
    const std::int64_t t = r + skips_[k];
    return t >= p() ? t - p() : t;
  }
  std::int64_t from(std::int64_t r, int k) const {
    const std::int64_t f = r - skips_[k];
    return f < 0 ? f + p() : f;
  }
  // x mod p in [0, p) for any x with |x| < 2^62.
  std::int64_t mod(std::int64_t x) const {
    const std::int64_t m = x % p();
    return m < 0 ? m + p() : m;
  }

 private:
  int q_ = 0;
  std::array<std::int64_t, kMaxQ + 1> skips_{};
};

[[noreturn]] void throw_bad_rank(const Skips& s, std::int64_t r, const char* what);
[[noreturn]] void throw_bad_round(const Skips& s, int k);

// Throws std::invalid_argument naming `what` unless 0 <= r < p.
inline void check_rank(const Skips& s, std::int64_t r, const char* what) {
  if (r < 0 || r >= s.p()) throw_bad_rank(s, r, what);
}
// Throws std::out_of_range unless 0 <= k < q (a round of a phase).
inline void check_round(const Skips& s, int k) {
  if (k < 0 || k >= s.q()) throw_bad_round(s, k);
}

}  // namespace rosched

#endif  // ROSCHED_SCHED_CIRCULANT_SKIPS_H_
