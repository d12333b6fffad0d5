// Algorithm 1 and Lemma 1 of Träff 2022.
#include "sched/circulant/skips.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>

#include "tests/gen_p.h"

namespace rosched {
namespace {

using rosched_test::gen_p;

TEST(Skips, Table1Skips) {
  const Skips s(20);
  ASSERT_EQ(s.q(), 5);
  const std::int64_t expected[] = {1, 2, 3, 5, 10, 20};
  for (int k = 0; k <= 5; ++k) EXPECT_EQ(s[k], expected[k]) << "k=" << k;
}

TEST(Skips, PowersOfTwoHavePowerOfTwoSkips) {
  const Skips s(32);
  for (int k = 0; k <= 5; ++k) EXPECT_EQ(s[k], std::int64_t{1} << k);
}

TEST(Skips, SmallestAndLargest) {
  EXPECT_EQ(Skips(1).q(), 0);
  EXPECT_EQ(Skips(1)[0], 1);
  EXPECT_EQ(Skips(2).q(), 1);
  const Skips big(kMaxProcesses);
  EXPECT_EQ(big.q(), 31);
  EXPECT_EQ(big[31], kMaxProcesses);
  EXPECT_EQ(big[30], std::int64_t{1} << 30);
}

TEST(Skips, RejectsBadP) {
  EXPECT_THROW(Skips(0), std::invalid_argument);
  EXPECT_THROW(Skips(-5), std::invalid_argument);
  EXPECT_THROW(Skips(kMaxProcesses + 1), std::invalid_argument);
  EXPECT_THROW(Skips(20).at(6), std::out_of_range);
  EXPECT_THROW(check_rank(Skips(20), 20, "rank"), std::invalid_argument);
  EXPECT_THROW(check_rank(Skips(20), -1, "root"), std::invalid_argument);
}

TEST(Skips, ModuloNeighbours) {
  const Skips s(20);
  EXPECT_EQ(s.to(19, 4), 9);
  EXPECT_EQ(s.from(3, 4), 13);
  EXPECT_EQ(s.mod(-41), 19);
}

RC_GTEST_PROP(Skips, Lemma1, ()) {
  const std::int64_t p = *gen_p(kMaxProcesses);
  const Skips s(p);
  RC_ASSERT((std::int64_t{1} << s.q()) >= p);
  // One bool: RC_ASSERT would evaluate both sides of a bare || (a shift by -1 for q = 0).
  RC_ASSERT((s.q() == 0 || (std::int64_t{1} << (s.q() - 1)) < p));
  RC_ASSERT(s[0] == 1);
  RC_ASSERT(s[s.q()] == p);
  std::int64_t sum = 0, gaps = 0;
  for (int k = 0; k < s.q(); ++k) {
    RC_ASSERT(s[k] < s[k + 1]);
    RC_ASSERT(s[k] + s[k] >= s[k + 1]);       // skips[k] + skips[k] >= skips[k+1]
    RC_ASSERT(s[k] + s[k] <= s[k + 1] + 1);   // halving rounds up: at most one more
    sum += s[k];
    RC_ASSERT(sum >= s[k + 1] - 1);           // sum_{i<=k} skips[i] >= skips[k+1] - 1
    gaps += s[k + 1] - s[k];
  }
  RC_ASSERT(gaps == p - 1);
}

}  // namespace
}  // namespace rosched
