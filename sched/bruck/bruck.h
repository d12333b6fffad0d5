// The Bruck all-to-all schedule (Bruck, Ho, Kipnis, Upfal, Weathersby 1997, Sec. 3, radix r;
// radix 2 as in Fan et al. 2022, Sec. 2.1) as pure functions of (P, radix, step, relative index).
//
// Every rank p holds P blocks, one per destination. A block is named at p by its relative index
// i in [0, P): in the "minus" direction (the modified, zero-rotation, zero-copy, padded and
// two-phase variants) the block from source s to destination d has i = (s - d) mod P and travels
// one hop per non-zero base-r digit of i, towards lower ranks; in the "plus" direction (the
// basic variant) i = (d - s) mod P and it travels towards higher ranks. i = 0 never moves.
//
// Steps: for every digit position x (0 <= x < K, K = number of base-r digits of P - 1) and digit
// value z = 1..r-1 with z r^x <= P - 1, in that order, one step (x, z): the relative indices
// whose digit x equals z move, at distance z r^x: rank p sends them to (p - z r^x) mod P and
// receives the same indices from (p + z r^x) mod P (minus; plus swaps the two). Both sides list
// the moved indices in increasing order. The number of steps is (r - 1)(K - 1) +
// floor((P - 1) / r^(K - 1)) (0 for P = 1); for r = 2 it is ceil(log2 P).
//
// At rank p relative index i sits in slot (p + i) mod P of the minus variants' buffers; a block
// keeps its relative index on every hop, so after its last hop the block from s sits at its
// destination in slot s: source order, no final rotation (Fan et al. 2022, Sec. 3.1).
//
// Hop status of i at step (x, z) (i moves there): first hop iff i mod r^x = 0, last hop iff
// i < r^(x+1), hops left including this one = non-zero digits of i at positions >= x. Blocks
// sent per rank: the sum over i < P of the non-zero base-r digits of i (for r = 2 the sum of
// popcount(i), not the paper's log P (P + 1) / 2); per step at most floor(P / 2) for r = 2, and
// a middle step can carry fewer than the first (P = 6: 3, 2, 2).
//
// Corrections to Fan et al. 2022 that concern the schedule itself: its loops "[0, P]" and
// "[0, log(P)]" are half-open with log(P) = ceil(log2 P); "W[(i + p) N]" means slot
// ((i + p) mod P); its count "(P + 1)/2 blocks per step, fewer only in the last" is an upper
// bound (see above). The variants' own corrections are in bruck_plan.h and bruck_engine.h.
//
// Set-up is O(log P) (the powers of r); every function is O(1) or O(log P) except the list of
// moved indices, which is O(P / r) by nature.
#ifndef ROSCHED_SCHED_BRUCK_BRUCK_H_
#define ROSCHED_SCHED_BRUCK_BRUCK_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sched/round.h"

namespace rosched {

// Radix limits: 2 <= r <= kMaxBruckRadix.
inline constexpr std::int64_t kMaxBruckRadix = 1024;

// One step: digit position x, digit value z, its weight r^x and distance z r^x.
struct BruckStep {
  int x = 0;
  std::int64_t z = 1, weight = 1, distance = 1;
};

enum class BruckDirection { kMinus, kPlus };

class BruckSchedule {
 public:
  // Throws std::invalid_argument unless 1 <= p <= 2^31 - 1 and 2 <= radix <= kMaxBruckRadix.
  BruckSchedule(std::int64_t p, std::int64_t radix = 2);

  std::int64_t p() const { return p_; }
  std::int64_t radix() const { return r_; }
  // K: the number of base-r digits of P - 1 (0 for P = 1).
  int digits() const { return k_; }
  std::int64_t steps() const { return steps_; }
  // Step t, 0 <= t < steps(); throws std::out_of_range otherwise. O(1).
  BruckStep step(std::int64_t t) const;

  // Partners of rank at step t: minus sends to rank - distance, receives from rank + distance;
  // plus the reverse. Preconditions (not checked): 0 <= rank < p, 0 <= t < steps().
  std::int64_t send_to(std::int64_t rank, const BruckStep& s, BruckDirection d) const {
    return d == BruckDirection::kMinus ? mod(rank - s.distance) : mod(rank + s.distance);
  }
  std::int64_t recv_from(std::int64_t rank, const BruckStep& s, BruckDirection d) const {
    return d == BruckDirection::kMinus ? mod(rank + s.distance) : mod(rank - s.distance);
  }

  // Digit x of i in base r.
  std::int64_t digit(std::int64_t i, int x) const { return low(high(i, x), 1); }
  // Whether i moves at step s.
  bool moves(std::int64_t i, const BruckStep& s) const { return digit(i, s.x) == s.z; }
  // For an i that moves at s: its first hop, its last hop, the hops left including this one.
  bool first_hop(std::int64_t i, const BruckStep& s) const { return low(i, s.x) == 0; }
  bool last_hop(std::int64_t i, const BruckStep& s) const { return high(i, s.x) < r_; }
  int hops_left(std::int64_t i, const BruckStep& s) const { return nonzero_digits(high(i, s.x)); }
  // The part of i already travelled before step s (lower digits, and digit x if it is below z):
  // the block at relative index i of rank p came from p + travelled (minus) or p - travelled.
  std::int64_t travelled(std::int64_t i, const BruckStep& s) const;

  // The moved indices of step s in increasing order: O(count).
  std::vector<std::int64_t> moved(const BruckStep& s) const;
  // Calls f(i) for each, in increasing order, without allocating. Always inlined: the
  // simulator's per-block loops run through it, and out of line it would take their state's
  // address, which forces reloading it for every block.
  template <typename F>
  [[gnu::always_inline]] inline void for_each_moved(const BruckStep& s, F&& f) const {
    const std::int64_t period = s.weight * r_;
    for (std::int64_t base = s.distance; base < p_; base += period) {
      const std::int64_t end = base + s.weight < p_ ? base + s.weight : p_;
      for (std::int64_t i = base; i < end; ++i) f(i);
    }
  }
  // How many indices move at step s. O(1).
  std::int64_t moved_count(const BruckStep& s) const;
  // The number of non-zero base-r digits of v.
  int nonzero_digits(std::int64_t v) const;
  // Blocks sent (= received) per rank over all steps: sum over i < P of nonzero_digits(i).
  // O(K r) from the per-step counts.
  std::int64_t blocks_per_rank() const;

  // v mod P in [0, P); no division for -P <= v < 2P (every slot and partner computation).
  std::int64_t mod(std::int64_t v) const {
    if (v >= p_) v -= p_;
    if (v < 0) v += p_;
    if (v >= 0 && v < p_) return v;
    const std::int64_t m = v % p_;
    return m < 0 ? m + p_ : m;
  }

 private:
  // floor(i / r^x) and i mod r^x: shifts and masks when r is a power of two (radix 2 above all).
  std::int64_t high(std::int64_t i, int x) const {
    return shift_ ? i >> (shift_ * x) : i / pow_[x];
  }
  std::int64_t low(std::int64_t i, int x) const {
    return shift_ ? i & (pow_[x] - 1) : i % pow_[x];
  }

  std::int64_t p_, r_;
  int k_ = 0, shift_ = 0;  // shift_: log2 r if r is a power of two, else 0
  std::int64_t steps_ = 0;
  std::array<std::int64_t, kMaxQ + 1> pow_{};  // r^x for x <= K
};

inline std::int64_t BruckSchedule::travelled(std::int64_t i, const BruckStep& s) const {
  const std::int64_t d = digit(i, s.x);
  return low(i, s.x) + (d != 0 && d < s.z ? d * s.weight : 0);
}

inline int BruckSchedule::nonzero_digits(std::int64_t v) const {
  if (r_ == 2) return __builtin_popcountll(static_cast<unsigned long long>(v));
  int n = 0;
  if (shift_) {
    for (; v > 0; v >>= shift_) n += (v & (r_ - 1)) != 0;
    return n;
  }
  for (; v > 0; v /= r_) n += v % r_ != 0;
  return n;
}

// The radix written in `text` (a decimal integer in [2, kMaxBruckRadix]); throws
// std::invalid_argument naming the text otherwise. For the tools' --radix options.
std::int64_t bruck_radix_from_string(const std::string& text);

// The reference sum over i < P of the non-zero base-r digits of i, by brute force (O(P log P)),
// for tests.
std::int64_t bruck_blocks_brute_force(std::int64_t p, std::int64_t radix);

}  // namespace rosched

#endif  // ROSCHED_SCHED_BRUCK_BRUCK_H_
