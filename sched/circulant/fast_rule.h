// The local send rule of the construction `fast` (see fast_schedule.h for the idea): one level
// of a rank's greedy decomposition by the skips, and the block the rank sends in that round.
// Shared by the per-rank construction (fast_schedule.cc, 64-bit state) and the all-ranks one
// (fast_full_schedule.cc, 32-bit state in arrays the compiler vectorises), so both run the same
// arithmetic. Written with masks instead of branches: the conditions depend on the rank and
// would be mispredicted about half the time.
//
// State of a rank x before level k: `rest` is x minus the skips taken above k, `end` the end of
// the first phase's subtree x lies in (from the same origin as rest; end <= skips[k + 1] below
// the top level), `block` what x passes on: previous-phase block j (as j - q) for the smallest
// skip j > k taken so far, or x's own baseblock of the current phase while none is taken.
#ifndef ROSCHED_SCHED_CIRCULANT_FAST_RULE_H_
#define ROSCHED_SCHED_CIRCULANT_FAST_RULE_H_

#include <cstdint>

namespace rosched {
namespace fast {
namespace rule {

template <class U>  // std::uint64_t, or std::uint32_t where every value is below 2^31
struct State {
  U rest, end;
  std::int32_t block;
};

// All ones if c, else 0.
template <class U>
inline U mask(bool c) {
  return U{0} - static_cast<U>(c);
}

// a where m is all ones, b where it is 0.
inline std::int32_t select(std::uint32_t m, std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>((m & static_cast<std::uint32_t>(a)) |
                                   (~m & static_cast<std::uint32_t>(b)));
}

// Level k: take skips[k] = sk if it fits. `block_k` is previous-phase block k, k - q.
template <class U>
inline void take(U sk, std::int32_t block_k, State<U>& x) {
  const U in = mask<U>(x.rest >= sk);
  x.block = select(static_cast<std::uint32_t>(in), block_k, x.block);
  x.end = (in & (x.end - sk)) | (~in & (x.end < sk ? x.end : sk));
  x.rest -= in & sk;
}

// What x passes on in round k: previous-phase block k if x lies in the subtree that received
// it (x takes skips[k]), else its block.
template <class U>
inline std::int32_t passed_on(U sk, std::int32_t block_k, const State<U>& x) {
  return select(static_cast<std::uint32_t>(mask<U>(x.rest >= sk)), block_k, x.block);
}

// The rule at level k >= 1 (sk = skips[k], below = skips[k - 1], block_k = k - q): the block x
// sends in round k, to x + skips[k]. `decided` becomes 1 if the rule decides it, 0 where the
// receiver lands exactly on the edge of x's subtree and only the receiver's own schedule can
// tell.
template <class U>
inline std::int32_t send(U sk, U below, bool k_is_1, std::int32_t block_k, const State<U>& x,
                         U& decided) {
  const U in = mask<U>(x.rest >= sk);  // x lies in the subtree that got previous-phase block k
  const U end_in = x.end - sk;
  const U first = static_cast<U>(k_is_1);
  // (For k = 1: x's own baseblock is not 0, i.e. nothing is left after level 1.)
  const U own_not_0 = static_cast<U>(x.rest - (in & sk) == 0);
  // Outside: x passes on its block unless x + skips[k] reaches the end of its subtree.
  const U out_decided = static_cast<U>(x.rest + sk < x.end) | static_cast<U>(x.end < below) |
                        (first & own_not_0);
  // Inside: x passes on previous-phase block k unless it sits exactly on skips[k].
  const U in_decided = static_cast<U>(x.rest > sk) | static_cast<U>(x.rest <= end_in) | first |
                       static_cast<U>(end_in < below);
  decided = (in & in_decided) | (~in & out_decided);
  return passed_on(sk, block_k, x);
}

// Whether the rule may leave level k undecided for x: only where the receiver x + skips[k]
// lands on or beyond the end of x's subtree (x outside the block-k subtree) or x sits exactly
// on skips[k] (inside). A cheap necessary condition of decided == 0, for scalar code that
// evaluates send()'s full condition only then.
template <class U>
inline bool on_edge(U sk, const State<U>& x) {
  const bool in = x.rest >= sk;
  return (in & (x.rest == sk)) | (!in & (x.rest + sk >= x.end));
}

}  // namespace rule
}  // namespace fast
}  // namespace rosched

#endif  // ROSCHED_SCHED_CIRCULANT_FAST_RULE_H_
