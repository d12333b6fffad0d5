// The binomial-tree reduction (sched/binomial/) against a brute-force reduction of explicit
// contribution lists driven by the lecture's gather loop (Träff's lecture notes, "Binomial
// tree gather"), the round-by-round run of the verifier (sim/binomial_run.h), and
// rank-local properties up to p = 2^31 - 1.
#include "sched/binomial/binomial_reduce.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "sim/binomial_run.h"
#include "sim/round_run.h"
#include "tests/gen_p.h"

namespace rosched {
namespace {

// The lecture's loop for virtual rank v: d = 1; while v & d != d and d < p: receive from v + d
// if v + d < p; d <<= 1. Then (v != 0) send to v - d. Round k is the iteration with d = 2^k.
ReduceRound lecture_round(std::int64_t p, std::int64_t v, std::int64_t k) {
  ReduceRound r;
  std::int64_t d = 1, round = 0;
  while ((v & d) != d && d < p) {
    if (round == k && v + d < p) r.recv = Transfer{v + d, 0};
    d <<= 1;
    ++round;
  }
  if (v != 0 && round == k) r.send = Transfer{v - d, 0};
  return r;
}

TEST(BinomialReduce, MatchesTheLectureLoopAndCombinesEveryContributionOnceInOrder) {
  for (std::int64_t p = 1; p <= 130; ++p) {
    for (std::int64_t root = 0; root < p; ++root) {
      std::vector<BinomialReduceSchedule> ranks;
      for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(p, r, root);
      // held[r]: the virtual ranks whose contributions rank r has combined, in order.
      std::vector<std::vector<std::int64_t>> held(p);
      std::vector<int> sends(p, 0);
      for (std::int64_t r = 0; r < p; ++r) held[r] = {virtual_rank(r, root, p)};
      for (std::int64_t k = 0; k < ranks[0].rounds(); ++k) {
        std::vector<std::vector<std::int64_t>> next = held;
        for (std::int64_t r = 0; r < p; ++r) {
          const ReduceRound got = ranks[r].round(k);
          const ReduceRound want = lecture_round(p, virtual_rank(r, root, p), k);
          ASSERT_EQ(got.send.has_value(), want.send.has_value()) << p << " " << root << " " << r;
          ASSERT_EQ(got.recv.has_value(), want.recv.has_value()) << p << " " << root << " " << r;
          ASSERT_FALSE(got.recv_before_own);
          if (got.send) {
            ASSERT_EQ(got.send->peer, real_rank(want.send->peer, root, p));
            ASSERT_EQ(got.send->block, 0);
            ++sends[r];
            const ReduceRound parent = ranks[got.send->peer].round(k);
            ASSERT_TRUE(parent.recv && parent.recv->peer == r) << p << " " << root << " " << r;
          }
          if (got.recv) {
            ASSERT_EQ(got.recv->peer, real_rank(want.recv->peer, root, p));
            ASSERT_EQ(sends[r], 0) << "receives after sending";
            const std::vector<std::int64_t>& theirs = held[got.recv->peer];
            next[r].insert(next[r].end(), theirs.begin(), theirs.end());
          }
        }
        held.swap(next);
      }
      std::vector<std::int64_t> all(p);
      for (std::int64_t v = 0; v < p; ++v) all[v] = v;
      ASSERT_EQ(held[root], all) << "p = " << p << ", root = " << root;
      for (std::int64_t r = 0; r < p; ++r) ASSERT_EQ(sends[r], r == root ? 0 : 1);
    }
  }
}

TEST(BinomialReduce, VerifierRunPassesForEveryRoot) {
  for (std::int64_t p = 1; p <= 200; ++p) {
    for (std::int64_t root = 0; root < p; ++root) {
      const auto result = sim::run_binomial_reduce(p, root);
      ASSERT_FALSE(result.counterexample) << result.counterexample->describe();
    }
  }
}

// The run catches a reduction that combines on the wrong side or from the wrong rank.
TEST(BinomialReduce, VerifierRunCatchesMutations) {
  const std::int64_t p = 13, root = 5;
  std::vector<BinomialReduceSchedule> ranks;
  for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(p, r, root);
  const auto order = [&](std::int64_t r) { return virtual_rank(r, root, p); };
  const auto wrong_side = [&](std::int64_t r, std::int64_t k) {
    ReduceRound round = ranks[r].round(k);
    round.recv_before_own = round.recv.has_value() && r == root;
    return round;
  };
  EXPECT_TRUE(sim::run_reduce_rounds("m", "", p, 1, root, ranks[0].rounds(), wrong_side, order)
                  .counterexample);
  const auto wrong_peer = [&](std::int64_t r, std::int64_t k) {
    ReduceRound round = ranks[r].round(k);
    if (round.send && k == 1) round.send->peer = (round.send->peer + 1) % p;
    return round;
  };
  EXPECT_TRUE(sim::run_reduce_rounds("m", "", p, 1, root, ranks[0].rounds(), wrong_peer, order)
                  .counterexample);
}

TEST(BinomialReduce, RejectsBadArguments) {
  EXPECT_THROW(BinomialReduceSchedule(0, 0, 0), std::invalid_argument);
  EXPECT_THROW(BinomialReduceSchedule(INT64_C(1) << 31, 0, 0), std::invalid_argument);
  EXPECT_THROW(BinomialReduceSchedule(4, 4, 0), std::invalid_argument);
  EXPECT_THROW(BinomialReduceSchedule(4, 0, -1), std::invalid_argument);
  EXPECT_THROW(BinomialReduceSchedule(4, -1, 0), std::invalid_argument);
  EXPECT_THROW(BinomialReduceSchedule(4, 0, 4), std::invalid_argument);
  const BinomialReduceSchedule s(5, 1, 0);
  EXPECT_THROW(s.round(-1), std::out_of_range);
  EXPECT_THROW(s.round(3), std::out_of_range);
  EXPECT_EQ(BinomialReduceSchedule(1, 0, 0).rounds(), 0);
}

// For any p: ceil(log2 p) rounds; a non-root sends once, to its parent, in its send round, and
// the parent receives it then; every receive is met by the peer's send; a rank receives from
// each child v + 2^k (k below its send round, v + 2^k < p) and from nobody else.
RC_GTEST_PROP(BinomialReduce, RankLocalPropertiesUpTo2To31, ()) {
  const std::int64_t p = *rosched_test::gen_p((INT64_C(1) << 31) - 1);
  const std::int64_t rank = *rc::gen::inRange<std::int64_t>(0, p);
  const std::int64_t root = *rc::gen::inRange<std::int64_t>(0, p);
  const BinomialReduceSchedule s(p, rank, root);
  RC_ASSERT(s.rounds() == ceil_log2(p));
  const std::int64_t v = virtual_rank(rank, root, p);
  std::int64_t sends = 0, receives = 0;
  for (std::int64_t k = 0; k < s.rounds(); ++k) {
    const ReduceRound r = s.round(k);
    RC_ASSERT(!(r.send && r.recv));
    if (r.send) {
      ++sends;
      RC_ASSERT(k == s.send_round());
      RC_ASSERT(r.send->peer == s.parent());
      const ReduceRound up = BinomialReduceSchedule(p, r.send->peer, root).round(k);
      RC_ASSERT(up.recv && up.recv->peer == rank);
    }
    if (r.recv) {
      ++receives;
      RC_ASSERT(virtual_rank(r.recv->peer, root, p) == v + (INT64_C(1) << k));
      const ReduceRound down = BinomialReduceSchedule(p, r.recv->peer, root).round(k);
      RC_ASSERT(down.send && down.send->peer == rank);
    }
  }
  RC_ASSERT(sends == (v == 0 ? 0 : 1));
  std::int64_t children = 0;
  const std::int64_t below = v == 0 ? s.rounds() : s.send_round();
  for (std::int64_t k = 0; k < below; ++k) children += v + (INT64_C(1) << k) < p ? 1 : 0;
  RC_ASSERT(receives == children);
}

}  // namespace
}  // namespace rosched
