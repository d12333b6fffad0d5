// Algorithms 4 and 5 of Träff 2022: golden tables and the validity conditions.
#include "sched/circulant/paper_schedule.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>
#include <vector>

#include "sim/schedule_check.h"
#include "tests/gen_p.h"
#include "tests/reference.h"

namespace rosched {
namespace {

using sim::check_schedule;

using rosched_test::gen_p;
using Rows = std::vector<std::vector<int>>;  // row k, column r, as printed in the paper

void expect_table(std::int64_t p, const Rows& recv, const Rows& send) {
  const Skips s(p);
  for (std::int64_t r = 0; r < p; ++r) {
    const PhaseSchedule rs = paper::recv_schedule(s, r);
    const PhaseSchedule ss = paper::send_schedule(s, r);
    for (int k = 0; k < s.q(); ++k) {
      EXPECT_EQ(rs[k], recv[k][r]) << "recv p=" << p << " r=" << r << " k=" << k;
      EXPECT_EQ(ss[k], send[k][r]) << "send p=" << p << " r=" << r << " k=" << k;
    }
  }
}

// Table 1 of Träff 2022 (p = 20), including the root's dummy receive column.
TEST(PaperSchedule, Table1) {
  expect_table(20,
               {{-5, 0, -5, -4, -3, -5, -2, -5, -4, -3, -5, -1, -5, -4, -3, -5, -2, -5, -4, -3},
                {-3, -3, 1, -5, -4, -3, -3, -2, -5, -4, -3, -3, -1, -5, -4, -3, -3, -2, -5, -4},
                {-4, -4, -3, 2, 0, -4, -4, -3, -2, -2, -4, -4, -3, -1, -1, -4, -4, -3, -2, -2},
                {-2, -2, -2, -2, -2, 3, 0, 1, 2, 0, -2, -2, -2, -2, -2, -1, -1, -1, -1, -1},
                {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 4, 0, 1, 2, 0, 3, 0, 1, 2, 0}},
               {{0, -5, -4, -3, -5, -2, -5, -4, -3, -5, -1, -5, -4, -3, -5, -2, -5, -4, -3, -5},
                {1, -5, -4, -3, -3, -2, -5, -4, -3, -3, -1, -5, -4, -3, -3, -2, -5, -4, -3, -3},
                {2, 0, -4, -4, -3, -2, -2, -4, -4, -3, -1, -1, -4, -4, -3, -2, -2, -4, -4, -3},
                {3, 0, 1, 2, 0, -2, -2, -2, -2, -2, -1, -1, -1, -1, -1, -2, -2, -2, -2, -2},
                {4, 0, 1, 2, 0, 3, 0, 1, 2, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}});
}

// The left schedule of Table 5 of Träff 2022 (p = 9).
TEST(PaperSchedule, Table5Left) {
  expect_table(9,
               {{-2, 0, -4, -3, -2, -4, -1, -4, -3},
                {-3, -2, 1, -4, -3, -2, -2, -1, -4},
                {-1, -3, -2, 2, 0, -3, -3, -2, -1},
                {-4, -1, -1, -1, -1, 3, 0, 1, 2}},
               {{0, -4, -3, -2, -4, -1, -4, -3, -2},
                {1, -4, -3, -2, -2, -1, -4, -3, -2},
                {2, 0, -3, -3, -2, -1, -1, -3, -2},
                {3, 0, 1, 2, -4, -1, -1, -1, -1}});
}

TEST(PaperSchedule, RejectsBadArguments) {
  EXPECT_THROW(paper::recv_schedule(Skips(9), 9), std::invalid_argument);
  EXPECT_THROW(paper::send_schedule(Skips(9), -1), std::invalid_argument);
  EXPECT_THROW(paper::recv_schedule(Skips(9), 1, 5), std::invalid_argument);
  EXPECT_THROW(parse_construction("fastest"), std::invalid_argument);
}

TEST(PaperSchedule, AllRanksValidUpTo2000) {
  for (std::int64_t p = 1; p <= 2000; ++p) {
    const Skips s(p);
    const auto v = check_schedule(full_schedule_per_rank(s, Construction::paper));
    ASSERT_FALSE(v.has_value()) << v->describe(p);
  }
}

// Whole schedules: every condition for every rank.
RC_GTEST_PROP(PaperSchedule, AllRanksValid, ()) {
  const std::int64_t p = *gen_p(3000);
  const Skips s(p);
  const auto v = check_schedule(full_schedule_per_rank(s, Construction::paper));
  RC_ASSERT(!v.has_value());
}

// Large p up to 2^31 - 1, sampled ranks: the receive set (own baseblock once, q - 1 distinct
// previous-phase blocks), sends only of held blocks, and
// send[k] of r = recv[k] of (r + skips[k]) mod p for sampled k.
RC_GTEST_PROP(PaperSchedule, SampledRanksValidLargeP, ()) {
  const std::int64_t p = *gen_p(kMaxProcesses);
  const Skips s(p);
  for (int t = 0; t < 4; ++t) {
    const std::int64_t r = *rc::gen::inRange<std::int64_t>(0, p);
    const RankSchedule sched = rank_schedule(s, r, Construction::paper);
    RC_ASSERT(rosched_test::rank_conditions(s, r, sched) == "");
    if (s.q() == 0) continue;
    const int k = *rc::gen::inRange(0, s.q());
    const std::int64_t t_rank = s.to(r, k);
    if (t_rank != 0) RC_ASSERT(sched.send[k] == paper::recv_schedule(s, t_rank)[k]);
  }
}

}  // namespace
}  // namespace rosched
