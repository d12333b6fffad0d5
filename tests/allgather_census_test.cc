// Algorithms 7 (regular all-gather) and 8 (census) of Träff 2022, and Algorithm 7 run backwards
// (reduce-scatter), simulated with explicit data.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>

#include "sched/circulant/allgather_schedule.h"
#include "sched/circulant/census_schedule.h"
#include "sched/circulant/reduce_scatter_schedule.h"
#include "tests/gen_p.h"
#include "tests/reference.h"

namespace rosched {
namespace {

using rosched_test::gen_p;

TEST(Allgather, Table1Rounds) {
  const Skips s(20);
  const AllgatherRound rd = allgather_round(s, 3, 4);  // skips[4] = 10, skips[5] = 20
  EXPECT_EQ(rd.to, 13);
  EXPECT_EQ(rd.from, 13);
  EXPECT_EQ(rd.send_offset, 0);
  EXPECT_EQ(rd.send_count, 10);
  EXPECT_EQ(rd.recv_offset, 10);
  EXPECT_EQ(rd.recv_count, 10);
}

TEST(Allgather, AllPUpTo300) {
  for (std::int64_t p = 1; p <= 300; ++p) ASSERT_EQ(rosched_test::simulate_allgather(p), "");
}

TEST(Census, AllPUpTo300) {
  for (std::int64_t p = 1; p <= 300; ++p) ASSERT_EQ(rosched_test::simulate_census(p), "");
}

TEST(ReduceScatter, AllPUpTo120) {
  for (std::int64_t p = 1; p <= 120; ++p) ASSERT_EQ(rosched_test::simulate_reduce_scatter(p), "");
}

TEST(ReduceScatter, Table1RoundsBackwards) {
  const Skips s(20);  // skips 1 2 3 5 10 20: round 0 is all-gather round 4 reversed
  const ReduceScatterRound rd = reduce_scatter_round(s, 3, 0);
  EXPECT_EQ(rd.to, 13);
  EXPECT_EQ(rd.from, 13);
  EXPECT_EQ(rd.send_offset, 10);
  EXPECT_EQ(rd.send_count, 10);
  EXPECT_EQ(rd.recv_offset, 0);
  EXPECT_EQ(rd.recv_count, 10);
  const ReduceScatterRound last = reduce_scatter_round(s, 3, 4);  // all-gather round 0
  EXPECT_EQ(last.to, 4);
  EXPECT_EQ(last.from, 2);
  EXPECT_EQ(last.send_offset, 1);
  EXPECT_EQ(last.send_count, 1);
  EXPECT_THROW(reduce_scatter_round(s, 3, 5), std::out_of_range);
  EXPECT_THROW(reduce_scatter_round(s, 20, 0), std::invalid_argument);
}

TEST(Census, OddSkipUsesNeighbourBefore) {
  const Skips s(20);  // skips 1 2 3 5 10 20: 3 + 3 > 5, so round 2 goes one rank closer
  const CensusRound rd = census_round(s, 0, 2);
  EXPECT_EQ(rd.from, 2);
  EXPECT_EQ(rd.to, 18);
  EXPECT_FALSE(rd.send_includes_own);
  EXPECT_FALSE(census_round(s, 0, 1).send_includes_own);  // 2 + 2 > 3
  EXPECT_TRUE(census_round(s, 0, 0).send_includes_own);   // 1 + 1 == 2
  EXPECT_TRUE(census_round(s, 0, 3).send_includes_own);   // 5 + 5 == 10
}

TEST(AllgatherCensus, RejectBadArguments) {
  EXPECT_THROW(allgather_round(Skips(20), 20, 0), std::invalid_argument);
  EXPECT_THROW(allgather_round(Skips(20), 0, 5), std::out_of_range);
  EXPECT_THROW(census_round(Skips(20), -1, 0), std::invalid_argument);
  EXPECT_THROW(census_round(Skips(1), 0, 0), std::out_of_range);
}

RC_GTEST_PROP(Allgather, EveryContributionOnce, ()) {
  RC_ASSERT(rosched_test::simulate_allgather(*gen_p(1500)) == "");
}

RC_GTEST_PROP(ReduceScatter, EveryContributionOnce, ()) {
  RC_ASSERT(rosched_test::simulate_reduce_scatter(*gen_p(250)) == "");
}

RC_GTEST_PROP(Census, EveryContributionOnce, ()) {
  RC_ASSERT(rosched_test::simulate_census(*gen_p(400)) == "");
}

}  // namespace
}  // namespace rosched
