#include "sched/fast_schedule.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sched/baseblock.h"

namespace rosched {
namespace fast {
namespace detail {

// The receive-schedule construction (see the header): a depth-first walk of the tree,
// iterative with an explicit stack (depth <= q + 1). Stops once the first `rounds` rounds are
// assigned (a send schedule needs a single round of a neighbour's schedule).
PhaseSchedule recv_walk(const Skips& s, std::int64_t r, int own, int rounds) {
  const int q = s.q();
  const std::int64_t target = s.p() + r;
  // Free blocks 0..q. For the root (whose receive schedule is a dummy) block q is never
  // reachable; it is taken out like a baseblock so that only previous-phase blocks are assigned.
  std::uint64_t free = ((std::uint64_t{2} << q) - 1) & ~(std::uint64_t{1} << own);
  const auto free_below = [&free](int e) {  // the largest free block < e, or -1
    const std::uint64_t below = free & ((std::uint64_t{1} << e) - 1);
    return below ? 63 - __builtin_clzll(below) : -1;
  };
  PhaseSchedule sched;
  sched.q = q;
  int round = 0;

  // A tree position x, its bound (children must lie below it) and the block e tried next.
  struct Frame {
    std::int64_t x, bound;
    int e;
  };
  constexpr int kStack = 2 * kMaxQ + 4;  // depth is at most about q + 1; checked
  Frame stack[kStack];
  int depth = 0;
  const auto overflow = [&]() {
    return std::logic_error("fast receive schedule: walk deeper than " + std::to_string(kStack) +
                            " for p = " + std::to_string(s.p()) + ", rank " + std::to_string(r));
  };

  Frame f{0, 2 * s.p(), free_below(q + 1)};
  for (;;) {
    bool finished = f.e < 0 || round == rounds;  // no more children to try here
    if (!finished) {
      const std::int64_t c = f.x + s[f.e];
      if (!(c <= target - s[round] && c < f.bound)) {  // child e cannot serve this round
        f.e = free_below(f.e);
        continue;
      }
      if (c <= target - s[round + 1]) {  // its subtree may serve earlier rounds: go down
        if (depth == kStack) throw overflow();
        stack[depth++] = f;
        f = Frame{c, f.bound, f.e};
        continue;
      }
      finished = f.x > target - s[round + 1];  // then no later round can use this position
    }
    // Back at position f.x after trying child f.e (directly or through its subtree).
    while (finished) {
      if (depth == 0) {
        if (round != rounds) {
          throw std::logic_error("fast receive schedule: " + std::to_string(round) + " of " +
                                 std::to_string(q) + " rounds assigned for p = " +
                                 std::to_string(s.p()) + ", rank " + std::to_string(r));
        }
        return sched;
      }
      f = stack[--depth];
      finished = round == rounds || f.x > target - s[round + 1];
    }
    if ((free >> f.e) & 1U) {  // (a subtree never takes its own edge's block; kept safe)
      f.bound = f.x + s[f.e];
      sched[round++] = f.e == q ? own : f.e - q;
      free &= ~(std::uint64_t{1} << f.e);
    }
    f.e = free_below(f.e);
  }
}

std::uint64_t local_sends(const Skips& s, std::int64_t r, int own, PhaseSchedule& sched) {
  const int q = s.q();
  sched.q = q;
  std::uint64_t undecided = 0;  // rounds that need the neighbour's receive schedule
  std::int64_t rest = r;        // r minus the skips of its decomposition taken so far
  std::int64_t end = s.p();     // end of the subtree r lies in, relative to rest
  std::int32_t block = own;     // what r passes on by default
  for (int k = q - 1; k >= 1; --k) {
    const std::int64_t sk = s[k], below = s[k - 1];
    // All ones if skips[k] is part of r's decomposition (a mask, not a branch: the condition is
    // data-dependent and would be mispredicted about half the time).
    const std::int64_t in = -static_cast<std::int64_t>(rest >= sk);
    // r outside: it passes on its block unless r + skips[k] reaches the end of its subtree.
    const bool local_out = (rest + sk < end) | (end < below) | ((k == 1) & (own > 0));
    const std::int64_t end_in = end - sk;
    // r inside: it passes on previous-phase block k unless it sits exactly on skips[k].
    const bool local_in = (rest > sk) | (rest <= end_in) | (k == 1) | (end_in < below);
    const bool local = (in & local_in) | (~in & local_out);
    block = static_cast<std::int32_t>((in & (k - q)) | (~in & block));
    end = (in & end_in) | (~in & std::min(end, sk));
    rest -= in & sk;
    sched[k] = block;
    undecided |= static_cast<std::uint64_t>(!local) << k;
  }
  sched[0] = own - q;  // in round 0, r holds only its previous baseblock
  return undecided;
}

}  // namespace detail

namespace {

// The send schedule of rank r != 0 with baseblock `own`: the local rule, and the neighbours'
// receive walks for the rounds it leaves undecided.
PhaseSchedule send_walk(const Skips& s, std::int64_t r, int own, int* fallbacks) {
  PhaseSchedule sched;
  std::uint64_t undecided = detail::local_sends(s, r, own, sched);
  if (fallbacks) *fallbacks = __builtin_popcountll(undecided);
  for (; undecided; undecided &= undecided - 1) {
    const int k = __builtin_ctzll(undecided);
    const std::int64_t t = s.to(r, k);
    sched[k] = detail::recv_walk(s, t, baseblock(s, t), k + 1)[k];  // rounds 0..k suffice
  }
  return sched;
}

PhaseSchedule root_sends(int q) {  // the root sends block k of the phase in round k
  PhaseSchedule sched;
  sched.q = q;
  for (int k = 0; k < q; ++k) sched[k] = k;
  return sched;
}

}  // namespace

PhaseSchedule recv_schedule(const Skips& s, std::int64_t r) {
  return detail::recv_walk(s, r, baseblock(s, r), s.q());  // baseblock checks r
}

PhaseSchedule send_schedule(const Skips& s, std::int64_t r, int* fallbacks) {
  const int own = baseblock(s, r);  // checks r
  if (fallbacks) *fallbacks = 0;
  return r == 0 ? root_sends(s.q()) : send_walk(s, r, own, fallbacks);
}

RankSchedule rank_schedule(const Skips& s, std::int64_t r) {
  const int own = baseblock(s, r);  // checks r
  return {detail::recv_walk(s, r, own, s.q()), r == 0 ? root_sends(s.q()) : send_walk(s, r, own, nullptr)};
}

}  // namespace fast
}  // namespace rosched
