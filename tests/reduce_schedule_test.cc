// The circulant n-block reduction (sched/circulant/reduce_schedule.h: Träff 2022's Alg. 6
// broadcast run backwards) against a brute-force reference: every rank's value of every block
// carried as the multiset of contributions it holds, moved round by round as the schedule
// says; and by the verifier's run (sim::run_reduce) for larger p.
#include "sched/circulant/reduce_schedule.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "sched/circulant/full_schedule.h"
#include "sim/circulant_run.h"
#include "tests/gen_p.h"

namespace rosched {
namespace {

using rosched_test::gen_p;

// held[r][b][c]: how often rank r's partial result of block b contains rank c's contribution.
// Every round, first every rank sends what it holds (as the round starts), then the receivers
// add it. "" if the root ends with each contribution to each block exactly once, every other
// rank sent each block exactly once and never received a block after sending it, and sends
// meet receives; else the first fault.
std::string brute_force(std::int64_t p, std::int64_t n, std::int64_t root, Construction c) {
  std::vector<ReduceSchedule> ranks;
  for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(p, n, r, root, c);
  using Counts = std::vector<int>;
  std::vector<std::vector<Counts>> held(p, std::vector<Counts>(n, Counts(p, 0)));
  std::vector<std::vector<int>> sent(p, std::vector<int>(n, 0));
  for (std::int64_t r = 0; r < p; ++r) {
    for (std::int64_t b = 0; b < n; ++b) held[r][b][r] = 1;
  }
  const std::string at = " p=" + std::to_string(p) + " n=" + std::to_string(n) +
                         " root=" + std::to_string(root);
  for (std::int64_t i = 0; i < ranks[0].rounds(); ++i) {
    std::vector<ReduceRound> now;
    for (std::int64_t r = 0; r < p; ++r) now.push_back(ranks[r].round(i));
    std::vector<std::vector<Counts>> next = held;
    for (std::int64_t r = 0; r < p; ++r) {
      if (now[r].recv_before_own) return "recv_before_own set" + at;
      if (const auto& s = now[r].send) {
        const ReduceRound& other = now[s->peer];
        if (!other.recv || other.recv->peer != r || other.recv->block != s->block) {
          return "unmatched send in round " + std::to_string(i) + at;
        }
        if (r == root) return "the root sends" + at;
        ++sent[r][s->block];
      }
      if (const auto& v = now[r].recv) {
        if (sent[r][v->block] > 0) return "a receive after the send" + at;
        for (std::int64_t k = 0; k < p; ++k) next[r][v->block][k] += held[v->peer][v->block][k];
      }
    }
    held = next;
  }
  for (std::int64_t b = 0; b < n; ++b) {
    for (std::int64_t r = 0; r < p; ++r) {
      if (r != root && sent[r][b] != 1) return "a block not sent once" + at;
      if (held[root][b][r] != 1) return "a contribution not combined once" + at;
    }
  }
  return "";
}

TEST(ReduceSchedule, RoundsAreTheBroadcasts) {
  EXPECT_EQ(ReduceSchedule(20, 1, 3, 0).rounds(), 5);
  EXPECT_EQ(ReduceSchedule(20, 7, 3, 0).rounds(), 11);
  EXPECT_EQ(ReduceSchedule(1, 7, 0, 0).rounds(), 0);
  // Round i is the broadcast's round rounds - 1 - i with send and receive exchanged.
  for (std::int64_t rank = 0; rank < 20; ++rank) {
    const ReduceSchedule reduce(20, 9, rank, 6);
    const BcastSchedule bcast(20, 9, rank, 6);
    for (std::int64_t i = 0; i < reduce.rounds(); ++i) {
      const ReduceRound r = reduce.round(i);
      const BcastRound b = bcast.round(bcast.rounds() - 1 - i);
      EXPECT_EQ(r.send, b.recv);
      EXPECT_EQ(r.recv, b.send);
    }
  }
}

TEST(ReduceSchedule, RejectsBadArguments) {
  EXPECT_THROW(ReduceSchedule(0, 1, 0, 0), std::invalid_argument);
  EXPECT_THROW(ReduceSchedule(8, 0, 0, 0), std::invalid_argument);
  EXPECT_THROW(ReduceSchedule(8, 1, 8, 0), std::invalid_argument);
  EXPECT_THROW(ReduceSchedule(8, 1, 0, -1), std::invalid_argument);
  EXPECT_THROW(ReduceSchedule(8, 4, 0, 0).round(6), std::out_of_range);
  EXPECT_THROW(ReduceSchedule(8, 4, 0, 0).round(-1), std::out_of_range);
}

TEST(ReduceSchedule, BruteForceSmallPAllRoots) {
  for (std::int64_t p = 1; p <= 24; ++p) {
    for (std::int64_t root = 0; root < p; ++root) {
      for (std::int64_t n : {1, 2, 3, 5, 8, 13}) {
        ASSERT_EQ(brute_force(p, n, root, Construction::fast), "");
        ASSERT_EQ(brute_force(p, n, root, Construction::paper), "");
      }
    }
  }
}

RC_GTEST_PROP(ReduceSchedule, EveryContributionReachesTheRootOnce, ()) {
  const std::int64_t p = *gen_p(2000);
  const std::int64_t n = *rc::gen::inRange<std::int64_t>(1, 61);
  const std::int64_t root = *rc::gen::inRange<std::int64_t>(0, p);
  const auto failure = sim::run_reduce(full_schedule_per_rank(Skips(p), Construction::fast), n, root);
  RC_ASSERT(!failure.has_value());
  if (p <= 70) RC_ASSERT(brute_force(p, n, root, Construction::fast) == "");
}

}  // namespace
}  // namespace rosched
