// The schedule checker catches hand-broken schedules, with the right diagnosis.
#include "sched/schedule_check.h"

#include <gtest/gtest.h>

namespace rosched {
namespace {

class BrokenSchedule : public ::testing::Test {
 protected:
  const Skips s{20};
  std::vector<RankSchedule> all = full_schedule(s, Construction::paper);

  Violation expect_violation() {
    const auto v = check_schedule(s, all);
    EXPECT_TRUE(v.has_value());
    return v.value_or(Violation{});
  }
};

TEST_F(BrokenSchedule, ValidAsBuilt) { EXPECT_FALSE(check_schedule(s, all).has_value()); }

TEST_F(BrokenSchedule, WrongReceivedBlock) {
  // Table 1: rank 7 receives -5 -2 -3 1 -1. Swapping rounds 0 and 2 keeps its own conditions
  // valid; only its senders disagree, first rank 4 (7 - skips[2]) in round 2.
  all[7].recv[0] = -3;
  all[7].recv[2] = -5;
  const Violation v = expect_violation();
  EXPECT_EQ(v.kind, ViolationKind::kSendMismatch);
  EXPECT_EQ(v.rank, 4);
  EXPECT_EQ(v.round, 2);
  EXPECT_EQ(v.expected, -5);
  EXPECT_EQ(v.actual, -3);
}

TEST_F(BrokenSchedule, DuplicateBlock) {
  all[3].recv[1] = all[3].recv[0];
  const Violation v = expect_violation();
  EXPECT_EQ(v.kind, ViolationKind::kDuplicateBlock);
  EXPECT_EQ(v.rank, 3);
  EXPECT_EQ(v.round, 1);
}

TEST_F(BrokenSchedule, MissingBaseblock) {
  all[10].recv[4] = 0;  // rank 10 receives block 0 of this phase instead of its baseblock 4
  const Violation v = expect_violation();
  EXPECT_EQ(v.kind, ViolationKind::kMissingBaseblock);
  EXPECT_EQ(v.rank, 10);
  EXPECT_EQ(v.expected, 4);
}

TEST_F(BrokenSchedule, OwnPreviousBaseblockReceivedAgain) {
  all[4].recv[1] = -5;  // baseblock(4) = 0, block 0 - 5 of the previous phase is already held
  const Violation v = expect_violation();
  EXPECT_EQ(v.kind, ViolationKind::kDuplicateBlock);
  EXPECT_EQ(v.rank, 4);
}

TEST_F(BrokenSchedule, SendBeforeReceive) {
  all[2].send[0] = 1;  // rank 2 receives its baseblock 1 only in round 1
  const Violation v = expect_violation();
  EXPECT_EQ(v.kind, ViolationKind::kSendBeforeReceive);
  EXPECT_EQ(v.rank, 2);
  EXPECT_EQ(v.round, 0);
  EXPECT_EQ(v.actual, 1);
}

TEST_F(BrokenSchedule, BlockOutOfRange) {
  all[5].recv[0] = -6;
  const Violation v = expect_violation();
  EXPECT_EQ(v.kind, ViolationKind::kBlockOutOfRange);
  EXPECT_EQ(v.rank, 5);
}

TEST_F(BrokenSchedule, DescribeNamesEverything) {
  const Violation v{ViolationKind::kSendMismatch, 6, 0, -4, -5};
  EXPECT_EQ(v.describe(20), "send-mismatch: p=20 rank=6 round=0 expected=-4 actual=-5");
}

}  // namespace
}  // namespace rosched
