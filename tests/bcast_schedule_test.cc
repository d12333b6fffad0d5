// Algorithm 6 of Träff 2022 as a schedule description, simulated round by round.
#include "sched/circulant/bcast_schedule.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>

#include "sched/circulant/full_schedule.h"
#include "tests/gen_p.h"
#include "sim/circulant_run.h"

namespace rosched {
namespace {

using rosched_test::gen_p;

// The broadcast of n blocks from root, every rank's description built independently (as each
// process does), run round by round by the verifier's simulation (itself tested on broken
// schedules in verify_test.cc). "" or the failure.
std::string simulate_bcast(std::int64_t p, std::int64_t n, std::int64_t root, Construction c) {
  const auto failure = sim::run_bcast(full_schedule_per_rank(Skips(p), c), n, root);
  return failure ? failure->describe() : "";
}

TEST(BcastSchedule, OptimalRoundCount) {
  EXPECT_EQ(BcastSchedule(20, 1, 3, 0).rounds(), 5);
  EXPECT_EQ(BcastSchedule(20, 7, 3, 0).rounds(), 11);
  EXPECT_EQ(BcastSchedule(1, 7, 0, 0).rounds(), 0);
  EXPECT_EQ(BcastSchedule(2, 3, 1, 1).rounds(), 3);
}

TEST(BcastSchedule, RootSendsBlocksInOrderAndNeverReceives) {
  const BcastSchedule root(20, 12, 7, 7);
  for (std::int64_t i = 0; i < root.rounds(); ++i) {
    const BcastRound rd = root.round(i);
    EXPECT_FALSE(rd.recv.has_value());
    ASSERT_TRUE(rd.send.has_value());
    EXPECT_EQ(rd.send->block, std::min<std::int64_t>(i, 11)) << "round " << i;
  }
}

TEST(BcastSchedule, RejectsBadArguments) {
  EXPECT_THROW(BcastSchedule(0, 1, 0, 0), std::invalid_argument);
  EXPECT_THROW(BcastSchedule(8, 0, 0, 0), std::invalid_argument);
  EXPECT_THROW(BcastSchedule(8, -3, 0, 0), std::invalid_argument);
  EXPECT_THROW(BcastSchedule(8, 1, 8, 0), std::invalid_argument);
  EXPECT_THROW(BcastSchedule(8, 1, 0, -1), std::invalid_argument);
  EXPECT_THROW(BcastSchedule(8, 1, 0, 8), std::invalid_argument);
  EXPECT_THROW(BcastSchedule(8, 4, 0, 0).round(6), std::out_of_range);
  EXPECT_THROW(BcastSchedule(8, 4, 0, 0).round(-1), std::out_of_range);
}

TEST(BcastSchedule, SmallPAllRootsAllBlockCounts) {
  for (std::int64_t p = 1; p <= 40; ++p) {
    for (std::int64_t root = 0; root < p; ++root) {
      for (std::int64_t n = 1; n <= 12; ++n) {
        ASSERT_EQ(simulate_bcast(p, n, root, Construction::fast), "");
        ASSERT_EQ(simulate_bcast(p, n, root, Construction::paper), "");
      }
    }
  }
}

RC_GTEST_PROP(BcastSchedule, EveryRankEndsWithEveryBlockOnce, ()) {
  const std::int64_t p = *gen_p(2000);
  const std::int64_t n = *rc::gen::inRange<std::int64_t>(1, 61);
  const std::int64_t root = *rc::gen::inRange<std::int64_t>(0, p);
  RC_ASSERT(simulate_bcast(p, n, root, Construction::fast) == "");
  RC_ASSERT(simulate_bcast(p, n, root, Construction::paper) == "");
}

// Any rank of any p up to 2^31 - 1 gets a well-formed description without building others.
RC_GTEST_PROP(BcastSchedule, LargePRoundsAreWellFormed, ()) {
  const std::int64_t p = *gen_p(kMaxProcesses);
  const std::int64_t n = *rc::gen::inRange<std::int64_t>(1, 1000);
  const std::int64_t root = *rc::gen::inRange<std::int64_t>(0, p);
  const std::int64_t rank = *rc::gen::inRange<std::int64_t>(0, p);
  const BcastSchedule sched(p, n, rank, root);
  std::int64_t received = 0;
  for (std::int64_t i = 0; i < sched.rounds(); ++i) {
    const BcastRound rd = sched.round(i);
    for (const auto& t : {rd.send, rd.recv}) {
      if (!t) continue;
      RC_ASSERT(t->peer >= 0 && t->peer < p && t->peer != rank);
      RC_ASSERT(t->block >= 0 && t->block < n);
    }
    if (rd.send) RC_ASSERT(rd.send->peer != root);
    received += rd.recv.has_value();
  }
  RC_ASSERT(received == (rank == root || p == 1 ? 0 : n));
}

}  // namespace
}  // namespace rosched
