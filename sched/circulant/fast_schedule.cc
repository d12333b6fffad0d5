#include "sched/circulant/fast_schedule.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sched/circulant/baseblock.h"
#include "sched/circulant/fast_rule.h"

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

void complete_recvs(const Skips& s, std::int64_t t, int own, std::uint32_t rounds,
                    PhaseSchedule& recv) {
  const int q = s.q();
  int home = 0;  // the homerange round: skips[home] <= t < skips[home + 1]
  while (s[home + 1] <= t) ++home;
  if ((rounds >> home) & 1U) {
    recv[home] = own;
    rounds &= ~(std::uint32_t{1} << home);
  }
  if (rounds && (rounds & (rounds - 1)) == 0) {  // one entry left: the block still missing
    const int left = __builtin_ctz(rounds);
    std::uint64_t seen = std::uint64_t{1} << own;  // previous-phase block b as bit b
    for (int k = 0; k < q; ++k) {
      if (k != left && recv[k] < 0) seen |= std::uint64_t{1} << (recv[k] + q);
    }
    const std::uint64_t missing = ((std::uint64_t{1} << q) - 1) & ~seen;
    recv[left] = __builtin_ctzll(missing) - q;
  } else if (rounds) {  // several left: t's own receive walk, up to the last open round
    const PhaseSchedule walk = recv_walk(s, t, own, 32 - __builtin_clz(rounds));
    for (std::uint32_t m = rounds; m; m &= m - 1) {
      const int k = __builtin_ctz(m);
      recv[k] = walk[k];
    }
  }
}

}  // namespace detail

namespace {

// Stands for "the sender's own baseblock of the current phase" while no skip has been taken.
constexpr std::int32_t kOwnBlock = 1 << 20;

using RuleState = rule::State<std::uint64_t>;

inline void take_level(const Skips& s, int k, int q, RuleState& x) {
  rule::take(static_cast<std::uint64_t>(s[k]), k - q, x);
}

inline std::int32_t send_rule(const Skips& s, int k, int q, const RuleState& x, bool& decided) {
  const std::uint64_t sk = static_cast<std::uint64_t>(s[k]);
  if (!rule::on_edge(sk, x)) {  // the common case: decided, no need for the full condition
    decided = true;
    return rule::passed_on(sk, k - q, x);
  }
  std::uint64_t d;
  const std::int32_t b =
      rule::send(sk, static_cast<std::uint64_t>(s[k - 1]), k == 1, k - q, x, d);
  decided = d != 0;
  return b;
}

// The decomposition of a rank by the skips, level by level: the rule's state before each level.
struct Decomposition {
  std::uint64_t rest[kMaxQ + 1], end[kMaxQ + 1];  // [q]: before any level
  std::int32_t block[kMaxQ + 1];
  std::uint32_t included = 0;  // bit k: skips[k] is taken
  int own = 0;                 // the baseblock: the smallest skip taken
};

// Rank r's decomposition (r != 0) and, in the same pass, its send schedule by the rule;
// returns the rounds the rule leaves undecided.
std::uint32_t decompose(const Skips& s, std::int64_t r, Decomposition& d, PhaseSchedule& send) {
  const int q = s.q();
  send.q = q;
  RuleState x{static_cast<std::uint64_t>(r), static_cast<std::uint64_t>(s.p()), kOwnBlock};
  d.rest[q] = x.rest;
  d.end[q] = x.end;
  d.block[q] = x.block;
  std::uint32_t included = 0, undecided = 0;
  for (int k = q - 1; k >= 1; --k) {
    d.rest[k] = x.rest;
    d.end[k] = x.end;
    d.block[k] = x.block;
    bool decided;
    send[k] = send_rule(s, k, q, x, decided);
    undecided |= static_cast<std::uint32_t>(!decided) << k;
    included |= static_cast<std::uint32_t>(x.rest >= static_cast<std::uint64_t>(s[k])) << k;
    take_level(s, k, q, x);
  }
  d.rest[0] = x.rest;
  d.end[0] = x.end;
  d.block[0] = x.block;
  included |= static_cast<std::uint32_t>(x.rest >= 1);
  d.included = included;
  d.own = __builtin_ctz(included);
  // Above the largest skip taken, r passes on its own baseblock.
  for (int k = q - 1; k > 31 - __builtin_clz(included); --k) send[k] = d.own;
  send[0] = d.own - q;  // in round 0, r holds only its previous baseblock
  return undecided;
}

// The state after level j of f_k = t - skips[k], where j > k is a skip t takes and none
// between k and j: f_k takes what t takes above j but not skips[j] (the rest skips[j] + t's rest
// below k - skips[k] stays below it).
inline RuleState borrowing(const Skips& s, const Decomposition& d, int j, std::uint64_t sk) {
  return {d.rest[j] - sk, std::min(d.end[j], static_cast<std::uint64_t>(s[j])), d.block[j]};
}

// Rank t's receive schedule (t != 0, baseblock own) as its senders' rule gives it: recv[k] is
// send[k] of f_k = t - skips[k] (mod p). f_k's rule state before level k comes from t's
// decomposition d in O(1) in the common cases (see the header); returns the undecided rounds.
std::uint32_t rule_recvs(const Skips& s, std::int64_t t, const Decomposition& d,
                         PhaseSchedule& recv) {
  const int own = d.own;
  const int q = s.q();
  recv.q = q;
  std::uint32_t undecided = 0;
  RuleState prev{0, 0, 0};  // f_{k+1} before level k+1, if t does not take skips[k+1]
  for (int k = q - 1; k >= 0; --k) {
    const std::uint64_t sk = static_cast<std::uint64_t>(s[k]);
    if ((d.included >> k) & 1U) {
      // f_k is t without skips[k]: outside the block-k subtree, inside the one t's state at
      // level k gives; the rule decides, and f_k passes on t's block.
      recv[k] = d.block[k] == kOwnBlock ? own : d.block[k];
      continue;
    }
    const std::uint64_t step = static_cast<std::uint64_t>(s[k + 1]) - sk;  // f_k - f_{k+1}
    RuleState f;
    // (The case j = k + 1 of the borrow below, tested first: it is common, and its own branch
    // is faster than going through the general one; docs/perf.md.)
    if ((d.included >> (k + 1)) & 1U) {  // t takes skips[k+1]: f_k borrows from it
      f = borrowing(s, d, k + 1, sk);
    } else if (prev.rest + step < prev.end) {
      // f_k = f_{k+1} + step stays in f_{k+1}'s subtree at level k+1: f_{k+1}'s state, one
      // more level.
      f = RuleState{prev.rest + step, prev.end, prev.block};
      take_level(s, k + 1, q, f);
    } else {
      const std::uint32_t above = d.included >> (k + 1);
      int from;
      if (above) {  // borrow from the next skip j > k that t takes
        const int j = k + 1 + __builtin_ctz(above);
        f = borrowing(s, d, j, sk);
        from = j - 1;
      } else {  // t < skips[k]: f_k = p + t - skips[k], decomposed from the top
        f = RuleState{static_cast<std::uint64_t>(s.p() + t) - sk,
                      static_cast<std::uint64_t>(s.p()), kOwnBlock};
        from = q - 1;
      }
      for (int i = from; i > k; --i) take_level(s, i, q, f);
    }
    prev = f;
    std::int32_t b;
    if (k > 0) {
      bool decided;
      b = send_rule(s, k, q, f, decided);
      undecided |= static_cast<std::uint32_t>(!decided) << k;
    } else {  // round 0: f_0 = t - 1 sends its previous baseblock (block 0 if it takes skips[0])
      b = f.rest >= 1 ? -q : f.block;
    }
    recv[k] = b == kOwnBlock ? own : b;
  }
  return undecided;
}

// Completes the send rounds the rule left undecided with the receivers' walks.
void complete_sends(const Skips& s, std::int64_t r, std::uint32_t undecided, PhaseSchedule& send) {
  for (; undecided; undecided &= undecided - 1) {
    const int k = __builtin_ctz(undecided);
    const std::int64_t t = s.to(r, k);
    send[k] = detail::recv_walk(s, t, baseblock(s, t), k + 1)[k];  // rounds 0..k suffice
  }
}

// The receive schedule of rank t != 0 from its decomposition.
void recv_from(const Skips& s, std::int64_t t, const Decomposition& d, PhaseSchedule& recv) {
  const std::uint32_t undecided = rule_recvs(s, t, d, recv);
  if (undecided) detail::complete_recvs(s, t, d.own, undecided, recv);
}

PhaseSchedule root_recvs(const Skips& s) {  // a dummy: the root never receives
  return detail::recv_walk(s, 0, s.q(), s.q());
}

PhaseSchedule root_sends(int q) {  // the root sends block k of the phase in round k
  PhaseSchedule sched;
  sched.q = q;
  for (int k = 0; k < q; ++k) sched[k] = k;
  return sched;
}

}  // namespace

PhaseSchedule recv_schedule(const Skips& s, std::int64_t r) {
  check_rank(s, r, "rank");
  if (r == 0) return root_recvs(s);
  Decomposition d;
  PhaseSchedule send, recv;
  decompose(s, r, d, send);
  recv_from(s, r, d, recv);
  return recv;
}

PhaseSchedule send_schedule(const Skips& s, std::int64_t r, int* fallbacks) {
  check_rank(s, r, "rank");
  if (fallbacks) *fallbacks = 0;
  if (r == 0) return root_sends(s.q());
  Decomposition d;
  PhaseSchedule send;
  const std::uint32_t undecided = decompose(s, r, d, send);
  if (fallbacks) *fallbacks = __builtin_popcount(undecided);
  complete_sends(s, r, undecided, send);
  return send;
}

RankSchedule rank_schedule(const Skips& s, std::int64_t r) {
  check_rank(s, r, "rank");
  if (r == 0) return {root_recvs(s), root_sends(s.q())};
  Decomposition d;
  RankSchedule out;
  const std::uint32_t undecided = decompose(s, r, d, out.send);
  complete_sends(s, r, undecided, out.send);
  recv_from(s, r, d, out.recv);
  return out;
}

}  // namespace fast
}  // namespace rosched
