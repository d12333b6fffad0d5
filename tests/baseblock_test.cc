// Algorithm 2 (BASEBLOCK) and Algorithm 3 (RANGEBLOCKS) of Träff 2022 against the linear-time
// first-phase simulation and brute force over the range.
#include "sched/circulant/baseblock.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>

#include "tests/gen_p.h"
#include "tests/reference.h"

namespace rosched {
namespace {

using rosched_test::brute_rangeblocks;
using rosched_test::gen_p;

TEST(Baseblock, AllBaseblocksTable1) {
  const auto bb = all_baseblocks(Skips(20));
  const int expected[] = {5, 0, 1, 2, 0, 3, 0, 1, 2, 0, 4, 0, 1, 2, 0, 3, 0, 1, 2, 0};
  for (int r = 0; r < 20; ++r) EXPECT_EQ(bb[r], expected[r]) << "r=" << r;
}

TEST(Baseblock, Table1) {
  const Skips s(20);
  const int expected[] = {5, 0, 1, 2, 0, 3, 0, 1, 2, 0, 4, 0, 1, 2, 0, 3, 0, 1, 2, 0};
  for (int r = 0; r < 20; ++r) EXPECT_EQ(baseblock(s, r), expected[r]) << "r=" << r;
}

TEST(Baseblock, RejectsBadRank) {
  EXPECT_THROW(baseblock(Skips(20), 20), std::invalid_argument);
  EXPECT_THROW(baseblock(Skips(20), -1), std::invalid_argument);
  EXPECT_THROW(rangeblocks(Skips(20), 0, 20), std::invalid_argument);
  EXPECT_THROW(rangeblocks(Skips(20), -3, 2), std::invalid_argument);
}

TEST(Rangeblocks, ExhaustiveSmallP) {
  for (std::int64_t p = 1; p <= 140; ++p) {
    const Skips s(p);
    const auto bb = all_baseblocks(Skips(p));
    for (std::int64_t a = 0; a < p; ++a) {
      for (std::int64_t b = 0; b < p; ++b) {
        ASSERT_EQ(rangeblocks(s, a, b).bits(), brute_rangeblocks(bb, a, b))
            << "p=" << p << " a=" << a << " b=" << b;
      }
    }
  }
}

RC_GTEST_PROP(Baseblock, EqualsFirstPhaseSimulation, ()) {
  const std::int64_t p = *gen_p(100000);
  const Skips s(p);
  const auto bb = all_baseblocks(Skips(p));
  for (std::int64_t r = 0; r < p; ++r) RC_ASSERT(baseblock(s, r) == bb[r]);
}

RC_GTEST_PROP(Rangeblocks, EqualsBruteForce, ()) {
  const std::int64_t p = *gen_p(100000);
  const Skips s(p);
  const auto bb = all_baseblocks(Skips(p));
  for (int t = 0; t < 50; ++t) {
    const std::int64_t a = *rc::gen::inRange<std::int64_t>(0, p);
    // Short ranges are where the structure matters; long ones (cyclic too) also occur.
    const std::int64_t len = *rc::gen::oneOf(rc::gen::inRange<std::int64_t>(1, std::min<std::int64_t>(p, 64) + 1),
                                             rc::gen::inRange<std::int64_t>(1, p + 1));
    const std::int64_t b = (a + len - 1) % p;
    RC_ASSERT(rangeblocks(s, a, b).bits() == brute_rangeblocks(bb, a, b));
  }
}

// For p up to 2^31 - 1, brute force over a short range needs the baseblocks only of that range,
// which baseblock() gives (itself checked against the simulation above).
RC_GTEST_PROP(Rangeblocks, EqualsBruteForceLargeP, ()) {
  const std::int64_t p = *gen_p(kMaxProcesses);
  const Skips s(p);
  const std::int64_t a = *rc::gen::inRange<std::int64_t>(0, p);
  const std::int64_t len = *rc::gen::inRange<std::int64_t>(1, std::min<std::int64_t>(p, 4096) + 1);
  std::uint64_t bits = 0;
  for (std::int64_t i = 0; i < len; ++i) bits |= std::uint64_t{1} << baseblock(s, (a + i) % p);
  RC_ASSERT(rangeblocks(s, a, (a + len - 1) % p).bits() == bits);
}

}  // namespace
}  // namespace rosched
