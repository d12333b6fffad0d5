// The pipelined k-ary tree broadcast (sched/kary/kary_tree_schedule.h): a hand-worked example,
// the closed form of its round count against the rank-by-rank reference, round-by-round runs
// (sim/kary_run.h) for random p, n, root and degree, the lecture's linear-pipeline shape at
// the root, and argument errors; the reduction that runs it backwards
// (sched/kary/kary_tree_reduce.h): a hand-worked example, runs, and mutations the run catches.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>
#include <vector>

#include "sched/kary/kary_tree_reduce.h"
#include "sched/kary/kary_tree_schedule.h"
#include "sim/kary_run.h"
#include "sim/round_run.h"
#include "tests/gen_p.h"

namespace rosched {
namespace {

// One round of a hand-worked schedule: its receive and send (peer -1: none).
struct ExpectedRound {
  int round;
  int recv_peer, recv_block, send_peer, send_block;
};

// Every listed round of schedule s (a BcastRound or ReduceRound per round) as expected.
template <typename Schedule>
void expect_rounds(const Schedule& s, const std::vector<ExpectedRound>& expected) {
  for (const ExpectedRound& e : expected) {
    const auto r = s.round(e.round);
    EXPECT_EQ(r.recv.has_value(), e.recv_peer >= 0) << e.round;
    if (r.recv) {
      EXPECT_EQ(*r.recv, (Transfer{e.recv_peer, e.recv_block})) << e.round;
    }
    EXPECT_EQ(r.send.has_value(), e.send_peer >= 0) << e.round;
    if (r.send) {
      EXPECT_EQ(*r.send, (Transfer{e.send_peer, e.send_block})) << e.round;
    }
  }
}

// p = 7, k = 2, n = 2, root 0: ranks 1, 2 are the root's children, 3, 4 rank 1's, 5, 6 rank
// 2's. start: 0, 1, 2, 2, 3, 3, 4, so 1 * 2 + 4 = 6 rounds. Rank 2 receives block 0 in round 1
// and block 1 in round 3, and sends block 0 to 5, 6 in rounds 2, 3 and block 1 in rounds 4, 5.
TEST(KaryTree, HandWorkedSevenRanksBinary) {
  const KaryTreeBcastSchedule s(7, 2, 2, 0, 2);
  EXPECT_EQ(s.rounds(), 6);
  EXPECT_EQ(s.start(), 2);
  EXPECT_EQ(s.children(), 2);
  EXPECT_EQ(s.parent(), 0);
  EXPECT_EQ(KaryTreeBcastSchedule(7, 2, 0, 0, 2).parent(), -1);
  EXPECT_EQ(KaryTreeBcastSchedule(7, 2, 5, 3, 2).parent(), 3);  // virtual 2 -> virtual 0
  expect_rounds(s, {{0, -1, 0, -1, 0},
                    {1, 0, 0, -1, 0},
                    {2, -1, 0, 5, 0},
                    {3, 0, 1, 6, 0},
                    {4, -1, 0, 5, 1},
                    {5, -1, 0, 6, 1}});
  EXPECT_EQ(kary_max_start(7, 2), 4);
  EXPECT_EQ(kary_depth(7, 2), 2);
  EXPECT_EQ(kary_depth(8, 2), 3);
  EXPECT_EQ(kary_depth(1, 5), 0);
  EXPECT_EQ(kary_depth(1152, 5), 5);  // 1 + 5 + 25 + 125 + 625 = 781 < 1152
}

RC_GTEST_PROP(KaryTree, MaxStartMatchesTheReference, ()) {
  const std::int64_t p = *rosched_test::gen_p(20000);
  const std::int64_t k = *rc::gen::inRange<std::int64_t>(2, 70);
  RC_ASSERT(kary_max_start(p, k) == sim::kary_max_start_reference(p, k));
}

RC_GTEST_PROP(KaryTree, BroadcastRunsForAnyPNRootDegree, ()) {
  const std::int64_t p = *rosched_test::gen_p(300);
  const std::int64_t n = *rc::gen::inRange<std::int64_t>(1, 12);
  const std::int64_t root = *rc::gen::inRange<std::int64_t>(0, p);
  const std::int64_t k = *rc::gen::inRange<std::int64_t>(2, 9);
  const auto ce = sim::run_kary_tree(p, n, root, k);
  RC_ASSERT(!ce.has_value());
}

// Every rank sends each block to its children in order, one per round, and receives a new
// block every k rounds: the round of a rank's receive of block b is its parent's send.
RC_GTEST_PROP(KaryTree, ReceivesComeEveryKRoundsFromTheParent, ()) {
  const std::int64_t p = *rosched_test::gen_p(2000);
  RC_PRE(p >= 2);
  const std::int64_t k = *rc::gen::inRange<std::int64_t>(2, 9);
  const std::int64_t n = *rc::gen::inRange<std::int64_t>(1, 6);
  const std::int64_t rank = *rc::gen::inRange<std::int64_t>(1, p);
  const KaryTreeBcastSchedule me(p, n, rank, 0, k), parent(p, n, (rank - 1) / k, 0, k);
  std::int64_t received = 0;
  for (std::int64_t i = 0; i < me.rounds(); ++i) {
    const BcastRound r = me.round(i);
    if (!r.recv) continue;
    RC_ASSERT(r.recv->peer == (rank - 1) / k);
    RC_ASSERT(r.recv->block == received);
    RC_ASSERT(i == me.start() - 1 + received * k);
    const BcastRound from = parent.round(i);
    RC_ASSERT(from.send.has_value());
    RC_ASSERT(*from.send == (Transfer{rank, received}));
    ++received;
  }
  RC_ASSERT(received == n);
}

TEST(KaryTree, LargestProcessCountsAreLocalAndCheap) {
  const std::int64_t p = kMaxProcesses;
  const KaryTreeBcastSchedule last(p, 1000, p - 1, 0, 2), root(p, 1000, 0, 0, 2);
  EXPECT_EQ(root.start(), 0);
  EXPECT_EQ(last.rounds(), 999 * 2 + kary_max_start(p, 2));
  EXPECT_GT(last.start(), 0);
  EXPECT_LE(last.start(), last.rounds());
  EXPECT_EQ(kary_depth(p, 2), 30);
}

TEST(KaryTree, BadArgumentsThrow) {
  EXPECT_THROW(KaryTreeBcastSchedule(0, 1, 0, 0, 2), std::invalid_argument);
  EXPECT_THROW(KaryTreeBcastSchedule(kMaxProcesses + 1, 1, 0, 0, 2), std::invalid_argument);
  EXPECT_THROW(KaryTreeBcastSchedule(4, 1, 4, 0, 2), std::invalid_argument);
  EXPECT_THROW(KaryTreeBcastSchedule(4, 1, 0, -1, 2), std::invalid_argument);
  EXPECT_THROW(KaryTreeBcastSchedule(4, 0, 0, 0, 2), std::invalid_argument);
  EXPECT_THROW(KaryTreeBcastSchedule(4, 1, 0, 0, 1), std::invalid_argument);
  EXPECT_THROW(KaryTreeBcastSchedule(4, 1, 0, 0, kMaxTreeDegree + 1), std::invalid_argument);
  EXPECT_THROW(kary_max_start(5, 1), std::invalid_argument);
  EXPECT_THROW(kary_depth(0, 2), std::invalid_argument);
  const KaryTreeBcastSchedule s(4, 2, 1, 0, 2);
  EXPECT_THROW(s.round(-1), std::out_of_range);
  EXPECT_THROW(s.round(s.rounds()), std::out_of_range);
}

// The same tree as HandWorkedSevenRanksBinary, backwards: rank 2 receives block 1 from its
// children 6, 5 in rounds 0, 1, sends it to its parent 0 in round 2, receives block 0 from 6, 5
// in rounds 2, 3 and sends it in round 4; round 5 is the root's last receive, from rank 1.
TEST(KaryTreeReduce, HandWorkedSevenRanksBinary) {
  const KaryTreeReduceSchedule s(7, 2, 2, 0, 2);
  EXPECT_EQ(s.rounds(), 6);
  expect_rounds(s, {{0, 6, 1, -1, 0},
                    {1, 5, 1, -1, 0},
                    {2, 6, 0, 0, 1},
                    {3, 5, 0, -1, 0},
                    {4, -1, 0, 0, 0},
                    {5, -1, 0, -1, 0}});
  for (std::int64_t i = 0; i < s.rounds(); ++i) EXPECT_FALSE(s.round(i).recv_before_own) << i;
  const ReduceRound last = KaryTreeReduceSchedule(7, 2, 0, 0, 2).round(5);
  ASSERT_TRUE(last.recv.has_value());
  EXPECT_EQ(*last.recv, (Transfer{1, 0}));
  EXPECT_THROW(s.round(6), std::out_of_range);
}

RC_GTEST_PROP(KaryTreeReduce, ReductionRunsForAnyPNRootDegree, ()) {
  const std::int64_t p = *rosched_test::gen_p(300);
  const std::int64_t n = *rc::gen::inRange<std::int64_t>(1, 12);
  const std::int64_t root = *rc::gen::inRange<std::int64_t>(0, p);
  const std::int64_t k = *rc::gen::inRange<std::int64_t>(2, 9);
  const auto ce = sim::run_kary_tree_reduce(p, n, root, k);
  RC_ASSERT(!ce.has_value());
}

// The run catches a reduction that forwards a block before its last child's partial result
// has arrived, or sends it to the wrong rank.
TEST(KaryTreeReduce, RunCatchesMutations) {
  for (const std::int64_t k : {2, 3}) {
    const std::int64_t p = 23, n = 3, root = 4;
    std::vector<KaryTreeReduceSchedule> ranks;
    for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(p, n, r, root, k);
    const std::int64_t rounds = ranks[0].rounds();
    ASSERT_FALSE(sim::run_reduce_rounds(
                     "m", "", p, n, root, rounds,
                     [&](std::int64_t r, std::int64_t t) { return ranks[r].round(t); }, nullptr)
                     .counterexample);
    // Rank root + 1 (virtual rank 1, interior) a round early: it sends before it holds its
    // subtree's partial results.
    const std::int64_t early_rank = (root + 1) % p;
    const auto early = [&](std::int64_t r, std::int64_t t) {
      return ranks[r].round(r == early_rank && t + 1 < rounds ? t + 1 : t);
    };
    EXPECT_TRUE(sim::run_reduce_rounds("m", "", p, n, root, rounds, early, nullptr).counterexample);
    const auto wrong_peer = [&](std::int64_t r, std::int64_t t) {
      ReduceRound round = ranks[r].round(t);
      if (round.send && r == early_rank) round.send->peer = (round.send->peer + 1) % p;
      return round;
    };
    EXPECT_TRUE(
        sim::run_reduce_rounds("m", "", p, n, root, rounds, wrong_peer, nullptr).counterexample);
  }
}

}  // namespace
}  // namespace rosched
