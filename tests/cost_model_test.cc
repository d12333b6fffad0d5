// The block count of the cost model (mpi_exec/cost_model.h) against the brute-force minimum of
// its own time formula, and the formula against a round count written out.
#include "mpi_exec/cost_model.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace rosched::mpi {
namespace {

// n - 1 + ceil(log2 p) rounds of alpha + beta m / n each, with the rounds counted one by one.
double reference_time(const CostModel& model, double bytes, std::int64_t p, std::int64_t n) {
  std::int64_t q = 0;
  while ((std::int64_t{1} << q) < p) ++q;
  double t = 0;
  for (std::int64_t round = 0; round < n - 1 + q; ++round) t += model.alpha + model.beta * bytes / n;
  return t;
}

TEST(CostModel, TimeIsRoundsTimesRoundCost) {
  const CostModel model{2e-6, 8e-11, false};
  for (std::int64_t p : {2, 3, 20, 1152, 1 << 20}) {
    for (std::int64_t n : {1, 2, 7, 116}) {
      EXPECT_NEAR(pipeline_time(model, 1 << 24, p, n), reference_time(model, 1 << 24, p, n),
                  1e-12)
          << "p=" << p << " n=" << n;
    }
  }
}

// The figures of the flat SimGrid platform (1 us, 12.5 GB/s) at p = 1,152: about 7, 29 and
// 116 blocks for 64 KiB, 1 MiB and 16 MiB, as the square-root rule says.
TEST(CostModel, FlatPlatformBlockCounts) {
  const CostModel model{1e-6, 8e-11, false};
  EXPECT_EQ(pipeline_blocks(model, 1 << 16, 1152, 1 << 30), 7);
  EXPECT_EQ(pipeline_blocks(model, 1 << 20, 1152, 1 << 30), 29);
  EXPECT_EQ(pipeline_blocks(model, 1 << 24, 1152, 1 << 30), 116);
  EXPECT_EQ(pipeline_blocks(model, 1 << 24, 2, 1 << 30), 1);  // one round per block at p = 2
  EXPECT_EQ(pipeline_blocks(model, 1 << 24, 1152, 10), 10);    // whole elements only
}

RC_GTEST_PROP(CostModel, BlocksMinimiseTheModelledTime, ()) {
  const CostModel model{*rc::gen::inRange(1, 100000) * 1e-9, *rc::gen::inRange(1, 10000) * 1e-13,
                        false};
  const std::int64_t p = *rc::gen::inRange<std::int64_t>(1, 1 << 20);
  const double bytes = *rc::gen::inRange(0, 1 << 26);
  const std::int64_t max_blocks = *rc::gen::inRange<std::int64_t>(1, 4096);
  const std::int64_t n = pipeline_blocks(model, bytes, p, max_blocks);
  RC_ASSERT(n >= 1 && n <= max_blocks);
  double best = 1e300;
  for (std::int64_t k = 1; k <= max_blocks; ++k) {
    best = std::min(best, pipeline_time(model, bytes, p, k));
  }
  RC_ASSERT(pipeline_time(model, bytes, p, n) <= best * (1 + 1e-12));
}

TEST(CostModel, WindowCoversOneLatency) {
  const CostModel model{1e-6, 1e-10, false};  // alpha / beta = 10,000 bytes
  EXPECT_EQ(window_rounds(model, 1e6), 2);     // long blocks: the minimum of 2
  EXPECT_EQ(window_rounds(model, 2500), 5);    // 1 + 10,000 / 2,500
  EXPECT_EQ(window_rounds(model, 1), 8);       // tiny blocks: the cap
}

}  // namespace
}  // namespace rosched::mpi
