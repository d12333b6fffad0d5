// Receive and send schedules of one rank in O(log p) time and space, without computing other
// ranks' schedules in full: the construction `fast`.
//
// The idea is Träff's (arXiv 2312.11236, 2023, "Round-optimal n-Block Broadcast Schedules in
// Logarithmic Time"); the code and the explanation here are this project's.
//
// Receive schedule. Work on the doubled ring 0 .. 2p, where rank r sits at T = p + r and the
// root at 0 (and p). The first phase spreads blocks along a tree: position x passes block e on
// to x + skips[e], for decreasing e (ranks s = skips[e1] + skips[e2] + ..., e1 > e2 > ...,
// hold block e_last, their baseblock). In round k of a phase, r receives from T - skips[k];
// that rank can only pass on a block whose tree position lies at or before it. The walk goes
// depth first from the root, always trying the largest block not yet assigned, and assigns to
// round k the first tree position c with c <= T - skips[k]: a child subtree is entered only
// while it still lies at or before T - skips[k+1], so the blocks found inside it go to earlier
// rounds, and positions after a chosen one are cut off (the bound), since no later sender could
// have received from them in time. Block q stands for the root's position p: where it is
// assigned, r receives its own baseblock of the current phase; any other block e means block e
// of the previous phase. Every step of the walk assigns a block, descends, returns, or moves to
// the next smaller free block; there are O(log p) of each (about 2q steps measured), and the
// free blocks are a bit mask, so the next smaller free block costs one count-leading-zeros.
//
// Send schedule. send[k] of r is recv[k] of t = r + skips[k]. Walking k from q - 1 down along
// r's greedy decomposition by the skips (the homerange recursion of baseblock): while the
// decomposition contains skips[k], r sits in the subtree that received previous-phase block k,
// and that is what t expects from it; otherwise r passes on the block of the nearest enclosing
// subtree (its own baseblock at the top). Where t lands exactly on the edge of that subtree the
// rule cannot decide locally, and t's receive walk is run up to round k instead. Such rounds
// are rare: at most 4 per rank, 0.8 on average, for every rank of every p <= 20,000, for
// random ranks of 200,000 random p < 2^31 and of p = 2^k + 1 (k = 20..30); so the send
// schedule costs O(log p) as well (tests/fast_schedule_test.cc checks the bound of 4 for every
// rank of every p <= 3,000). The rule itself is in fast_rule.h.
//
// The receive schedule as computed: the walk above is the definition, but its ~2q steps are
// data-dependent branches. recv_schedule() instead evaluates the send rule at each sender
// f_k = t - skips[k] (recv[k] of t = send[k] of f_k), which needs f_k's rule state before level
// k, i.e. f_k's decomposition above k. It comes from t's decomposition, computed once (the
// greedy decomposition keeps order, and the ranks that take the same skips above level k form
// an interval, the subtree [node, node + end) of the rule's state):
//  * if t takes skips[k], f_k takes the same skips without it (its rest below k is t's, below
//    skips[k]); then f_k lies outside the block-k subtree and f_k + skips[k] = t inside its own
//    subtree, so the rule decides: f_k passes on t's block at level k (O(1), no rule needed);
//  * else, if t takes skips[k+1], f_k takes what t takes above k + 1 but not skips[k+1], and
//    continues from rest skips[k+1] + (t's rest below k) - skips[k] (O(1));
//  * else f_k = f_{k+1} + (skips[k+1] - skips[k]); if that stays inside f_{k+1}'s subtree
//    interval at level k+1 (rest + step < end), f_k takes the same skips above k + 1 as f_{k+1},
//    and one more level gives its state (O(1));
//  * else (rare) f_k borrows from the smallest skip j > k that t takes, as above from level
//    j - 1, or, if t takes nothing above k, f_k = p + t - skips[k] is decomposed from the top.
// Rounds the rule leaves undecided are completed from what t must receive (its baseblock in
// its homerange round; a single open round gets the one block still missing) or, when more
// remain, by t's walk. The result equals the walk's for every rank of every p <= 3,000 and for
// 300,000 random (p, rank) up to 2^31 - 1 that were compared; tests/fast_schedule_test.cc
// asserts it for every rank of every p <= 2,500 and for random p up to 2^31 - 1. What this
// saves over the walk is measured by bench/schedule_bench.cc (docs/perf.md).
//
// The schedules are exactly the paper's (Algorithms 4 and 5 with the correction noted in
// paper_schedule.h) for every rank of every p <= 3,000 and for 300,000 random (p, rank) with
// p < 2^31 that were compared; tests/fast_schedule_test.cc keeps comparing. Correctness is not
// taken on trust either: the verifier checks every rank of every p up to 100,000
// (`bazel run -c opt //verify -- --to 100000`), and property tests check sampled ranks of random
// p up to 2^31 - 1 against the local conditions.
#ifndef ROSCHED_SCHED_CIRCULANT_FAST_SCHEDULE_H_
#define ROSCHED_SCHED_CIRCULANT_FAST_SCHEDULE_H_

#include <cstdint>

#include "sched/circulant/phase_schedule.h"
#include "sched/circulant/skips.h"

namespace rosched {
namespace fast {

// Receive schedule of rank r, 0 <= r < p (the root's is a dummy). Throws std::invalid_argument
// for r outside [0, p).
PhaseSchedule recv_schedule(const Skips& s, std::int64_t r);

// Send schedule of rank r. If `fallbacks` is given, it receives the number of rounds for which
// a neighbour's receive schedule had to be computed.
PhaseSchedule send_schedule(const Skips& s, std::int64_t r, int* fallbacks = nullptr);

// Both, sharing the work they have in common.
RankSchedule rank_schedule(const Skips& s, std::int64_t r);

// The pieces, for the all-ranks construction (fast_full_schedule.h) and the tests. Unchecked
// arguments.
namespace detail {
// The receive walk of rank r (baseblock `own`), stopped after the first `rounds` rounds.
PhaseSchedule recv_walk(const Skips& s, std::int64_t r, int own, int rounds);
// Completes the rounds `rounds` (bits) of rank t's receive schedule `recv` (t != 0, baseblock
// own; the other rounds are final): the homerange round gets t's baseblock, a single round
// left the one block still missing, several are taken from t's walk.
void complete_recvs(const Skips& s, std::int64_t t, int own, std::uint32_t rounds,
                    PhaseSchedule& recv);
}  // namespace detail

}  // namespace fast
}  // namespace rosched

#endif  // ROSCHED_SCHED_CIRCULANT_FAST_SCHEDULE_H_
