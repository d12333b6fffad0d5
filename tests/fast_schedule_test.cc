// The O(log p) construction (sched/fast_schedule.h): valid for every rank of every p checked,
// locally valid for sampled ranks of random p up to 2^31 - 1, and consistent with the paper's.
#include "sched/circulant/fast_schedule.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "sched/circulant/baseblock.h"
#include "sched/circulant/full_schedule.h"
#include "sched/circulant/paper_schedule.h"
#include "sim/schedule_check.h"
#include "tests/gen_p.h"
#include "tests/reference.h"

namespace rosched {
namespace {

using sim::check_schedule;

using rosched_test::gen_p;

// Schedules are not unique (Table 5 of the paper), so the fast construction need not equal the
// paper's; it does, however, for every rank checked so far. Asserted here, as the strongest
// available cross-check between an O(log p) and an O(log^3 p) computation.
TEST(FastSchedule, EqualsPaperConstructionUpTo700) {
  for (std::int64_t p = 1; p <= 700; ++p) {
    const Skips s(p);
    for (std::int64_t r = 1; r < p; ++r) {
      ASSERT_EQ(fast::recv_schedule(s, r), paper::recv_schedule(s, r)) << "p=" << p << " r=" << r;
      ASSERT_EQ(fast::send_schedule(s, r), paper::send_schedule(s, r)) << "p=" << p << " r=" << r;
    }
  }
}

// recv_schedule() evaluates the send rule at each sender (fast_schedule.h); the receive walk is
// the definition it must reproduce, for every rank.
TEST(FastSchedule, ReceivesFromSendersEqualWalkUpTo2500) {
  for (std::int64_t p = 1; p <= 2500; ++p) {
    const Skips s(p);
    for (std::int64_t r = 0; r < p; ++r) {
      ASSERT_EQ(fast::recv_schedule(s, r), fast::detail::recv_walk(s, r, baseblock(s, r), s.q()))
          << "p=" << p << " r=" << r;
    }
  }
}

TEST(FastSchedule, AllRanksValidUpTo3000) {
  for (std::int64_t p = 1; p <= 3000; ++p) {
    const auto v = check_schedule(full_schedule_per_rank(Skips(p), Construction::fast));
    ASSERT_FALSE(v.has_value()) << v->describe(p);
  }
}

// The all-ranks construction gives every rank the schedule it computes for itself, the root's
// dummy receive schedule and the sends to the root included.
TEST(FastSchedule, AllRanksConstructionEqualsPerRank) {
  for (std::int64_t p = 1; p <= 1500; ++p) {
    const Skips s(p);
    const FullSchedule all = full_schedule(s, Construction::fast);
    const FullSchedule each = full_schedule_per_rank(s, Construction::fast);
    for (std::int64_t r = 0; r < p; ++r) {
      for (int k = 0; k < s.q(); ++k) {
        ASSERT_EQ(all.recv(r, k), each.recv(r, k)) << "p=" << p << " r=" << r << " k=" << k;
        ASSERT_EQ(all.send(r, k), each.send(r, k)) << "p=" << p << " r=" << r << " k=" << k;
      }
    }
  }
}

// The all-ranks construction writes every entry: built into storage filled with two different
// patterns, the results agree everywhere (also when the storage is reused for another p).
TEST(FastSchedule, AllRanksConstructionWritesEveryEntry) {
  const auto filled = [](std::int8_t value) {
    const Skips big(5000);
    FullSchedule f(big);
    for (std::int64_t r = 0; r < big.p(); ++r) {
      for (int k = 0; k < big.q(); ++k) f.recv(r, k) = f.send(r, k) = value;
    }
    return f;
  };
  FullSchedule a = filled(77), b = filled(-55);
  for (std::int64_t p : {4999, 1, 2, 3, 1024, 1025, 2049, 3000, 1152, 7, 4097, 20}) {
    const Skips s(p);
    full_schedule(s, Construction::fast, a);
    full_schedule(s, Construction::fast, b);
    ASSERT_EQ(a.p(), p);
    for (std::int64_t r = 0; r < p; ++r) {
      for (int k = 0; k < s.q(); ++k) {
        ASSERT_EQ(a.recv(r, k), b.recv(r, k)) << "p=" << p << " r=" << r << " k=" << k;
        ASSERT_EQ(a.send(r, k), b.send(r, k)) << "p=" << p << " r=" << r << " k=" << k;
      }
    }
    ASSERT_FALSE(check_schedule(a).has_value()) << "p=" << p;
  }
}

TEST(FastSchedule, PartsAgreeWithRankSchedule) {
  for (std::int64_t p : {1, 2, 3, 20, 33, 1000, 65537}) {
    const Skips s(p);
    for (std::int64_t r = 0; r < std::min<std::int64_t>(p, 200); ++r) {
      const RankSchedule both = fast::rank_schedule(s, r);
      EXPECT_EQ(both.recv, fast::recv_schedule(s, r));
      EXPECT_EQ(both.send, fast::send_schedule(s, r));
    }
  }
}

// The send schedule computes a neighbour's receive walk only for a few rounds per rank: this is
// what keeps it O(log p). The bound 4 is what has been observed (see fast_schedule.h).
TEST(FastSchedule, FewFallbacksPerRank) {
  int worst = 0;
  for (std::int64_t p = 2; p <= 3000; ++p) {
    const Skips s(p);
    for (std::int64_t r = 0; r < p; ++r) {
      int fallbacks = 0;
      fast::send_schedule(s, r, &fallbacks);
      worst = std::max(worst, fallbacks);
    }
  }
  EXPECT_LE(worst, 4);
}

TEST(FastSchedule, RejectsBadRank) {
  EXPECT_THROW(fast::recv_schedule(Skips(9), 9), std::invalid_argument);
  EXPECT_THROW(fast::send_schedule(Skips(9), -1), std::invalid_argument);
  EXPECT_THROW(fast::rank_schedule(Skips(9), 100), std::invalid_argument);
}

RC_GTEST_PROP(FastSchedule, AllRanksValid, ()) {
  const std::int64_t p = *gen_p(20000);
  RC_ASSERT(!check_schedule(full_schedule(Skips(p), Construction::fast)).has_value());
  if (p <= 5000) {
    RC_ASSERT(!check_schedule(full_schedule_per_rank(Skips(p), Construction::fast)).has_value());
  }
}

// Random p up to 2^31 - 1, sampled ranks and rounds: the receive set, sends of held blocks only,
// send[k] of r = recv[k] of (r + skips[k]) mod p, the paper's schedules, and the receive walk.
RC_GTEST_PROP(FastSchedule, SampledRanksValidLargeP, ()) {
  const std::int64_t p = *gen_p(kMaxProcesses);
  const Skips s(p);
  for (int t = 0; t < 4; ++t) {
    const std::int64_t r = *rc::gen::inRange<std::int64_t>(0, p);
    const RankSchedule sched = fast::rank_schedule(s, r);
    RC_ASSERT(rosched_test::rank_conditions(s, r, sched) == "");
    if (s.q() == 0) continue;
    if (r != 0) {
      RC_ASSERT(sched.recv == paper::recv_schedule(s, r));
      RC_ASSERT(sched.send == paper::send_schedule(s, r));
    }
    RC_ASSERT(sched.recv == fast::detail::recv_walk(s, r, baseblock(s, r), s.q()));
    const int k = *rc::gen::inRange(0, s.q());
    const std::int64_t to = s.to(r, k);
    if (to != 0) RC_ASSERT(sched.send[k] == fast::recv_schedule(s, to)[k]);
  }
}

}  // namespace
}  // namespace rosched
