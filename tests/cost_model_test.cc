// The block count of the cost model (mpi_exec/cost_model.h) against the brute-force minimum of
// its own time formula, and the formula against a round count written out.
#include "mpi_exec/cost_model.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "mpi_exec/kary_tree_plan.h"
#include "sched/kary/kary_tree_schedule.h"
#include "tests/cost_model_figures.h"

namespace rosched::mpi {
namespace {

// n + extra rounds of alpha + beta m / n each, with the rounds counted one by one.
double reference_time(double alpha, double beta, double bytes, std::int64_t extra,
                      std::int64_t n) {
  double t = 0;
  for (std::int64_t round = 0; round < n + extra; ++round) t += alpha + beta * bytes / n;
  return t;
}

TEST(CostModel, TimeIsRoundsTimesRoundCost) {
  const CostModel model = CostModel::linear(2e-6, 8e-11);
  for (std::int64_t extra : {0, 1, 4, 10, 19}) {
    for (std::int64_t n : {1, 2, 7, 116}) {
      EXPECT_NEAR(pipeline_time(model, 1 << 24, extra, n),
                  reference_time(2e-6, 8e-11, 1 << 24, extra, n), 1e-12)
          << "extra=" << extra << " n=" << n;
    }
  }
}

// The figures of the flat SimGrid platform (1 us, 12.5 GB/s) at p = 1,152 (q = 11, so 10 rounds
// beyond the n blocks): about 7, 29 and 116 blocks for 64 KiB, 1 MiB and 16 MiB, as the
// square-root rule says.
TEST(CostModel, FlatPlatformBlockCounts) {
  const CostModel model = CostModel::linear(1e-6, 8e-11);
  EXPECT_EQ(pipeline_blocks(model, 1 << 16, 10, 1 << 30), 7);
  EXPECT_EQ(pipeline_blocks(model, 1 << 20, 10, 1 << 30), 29);
  EXPECT_EQ(pipeline_blocks(model, 1 << 24, 10, 1 << 30), 116);
  EXPECT_EQ(pipeline_blocks(model, 1 << 24, 0, 1 << 30), 1);  // p = 2: one round per block
  EXPECT_EQ(pipeline_blocks(model, 1 << 24, 10, 10), 10);    // whole elements only
}

// pipeline_blocks against the brute-force minimum over every block count, for random sizes.
void check_blocks_minimise(const CostModel& model, std::int64_t most_blocks) {
  const std::int64_t extra = *rc::gen::inRange<std::int64_t>(0, 64);
  const double bytes = *rc::gen::inRange(0, 1 << 26);
  const std::int64_t max_blocks = *rc::gen::inRange<std::int64_t>(1, most_blocks);
  const std::int64_t n = pipeline_blocks(model, bytes, extra, max_blocks);
  RC_ASSERT(n >= 1 && n <= max_blocks);
  double best = 1e300;
  for (std::int64_t k = 1; k <= max_blocks; ++k) {
    best = std::min(best, pipeline_time(model, bytes, extra, k));
  }
  RC_ASSERT(pipeline_time(model, bytes, extra, n) <= best * (1 + 1e-12));
}

RC_GTEST_PROP(CostModel, BlocksMinimiseTheModelledTime, ()) {
  const CostModel model = CostModel::linear(*rc::gen::inRange(1, 100000) * 1e-9,
                                            *rc::gen::inRange(1, 10000) * 1e-13);
  check_blocks_minimise(model, 4096);
}

// A measured model: interpolated between its points (also across a steep step, as at an eager
// limit, or as SMPI's calibrated model has between 8 and 16 KiB), extrapolated beyond the last
// with the last slope, the first point's time below it.
TEST(CostModel, PiecewiseLinear) {
  CostModel model;
  model.bytes = {8, 4096, 8192, 16384, 32768, 61440, 131072, 1048576};
  model.seconds = {1e-6, 2e-6, 2.5e-6, 6e-6, 10e-6, 12e-6, 40e-6, 100e-6};
  EXPECT_DOUBLE_EQ(model.time(1), 1e-6);
  EXPECT_DOUBLE_EQ(model.time(4096), 2e-6);
  EXPECT_NEAR(model.time((4096 + 8192) / 2.0), 2.25e-6, 1e-15);
  EXPECT_NEAR(model.time((8192 + 16384) / 2.0), 4.25e-6, 1e-15);
  EXPECT_NEAR(model.time((16384 + 32768) / 2.0), 8e-6, 1e-15);
  EXPECT_NEAR(model.time(2 * 1048576.0), 100e-6 + 60e-6 / 917504 * 1048576, 1e-12);
  EXPECT_NEAR(model.per_byte(100000), 28e-6 / (131072 - 61440), 1e-18);
  EXPECT_NEAR(model.time(100000), 12e-6 + 28e-6 * (100000 - 61440) / (131072 - 61440), 1e-15);
}

// What a further message of a burst costs: per_message at 8 B and below, the burst and stream
// figures at their sizes (one message in each of SMPI's size classes below 4 KiB), linear
// between neighbouring sizes, proportional beyond the largest streamed size; on the linear
// model beta s at every measured size.
TEST(CostModel, FurtherMessageBetweenMeasuredSizes) {
  CostModel model;
  model.per_message = 1e-8;
  model.burst = {8e-7, 1.7e-6, 2e-6};
  model.stream = {2.9e-6, 4.4e-6, 1.4e-5, 2.8e-5, 5.3e-5, 8.4e-5};
  EXPECT_DOUBLE_EQ(model.further(1), 1e-8);
  EXPECT_DOUBLE_EQ(model.further(8), 1e-8);
  EXPECT_NEAR(model.further(260), 1e-8 + (8e-7 - 1e-8) * 252 / 504, 1e-18);
  EXPECT_NEAR(model.further(512), 8e-7, 1e-18);
  EXPECT_NEAR(model.further(768), 1.25e-6, 1e-18);
  EXPECT_NEAR(model.further(1536), 1.85e-6, 1e-18);
  EXPECT_NEAR(model.further(3072), 2.45e-6, 1e-18);
  EXPECT_NEAR(model.further(4096), 2.9e-6, 1e-18);
  EXPECT_NEAR(model.further(100000), 5.3e-5 + 3.1e-5 * (100000 - 61440) / (131072 - 61440), 1e-15);
  EXPECT_NEAR(model.further(1 << 20), 8.4e-5 * 8, 1e-15);
  const CostModel linear = CostModel::linear(1e-6, 1e-10);
  for (double b : {512.0, 1024.0, 2048.0, 4096.0, 61440.0, 131072.0, 1048576.0}) {
    EXPECT_NEAR(linear.further(b), 1e-10 * b, 1e-20) << b;
  }
}

// Whatever the measured points, no block count in 1..max_blocks is faster by the model.
RC_GTEST_PROP(CostModel, BlocksMinimiseAMeasuredModel, ()) {
  CostModel model;
  model.bytes = kModelSizes;
  double t = *rc::gen::inRange(1, 100000) * 1e-9;
  for (double& s : model.seconds) s = t += *rc::gen::inRange(0, 1000000) * 1e-10;
  check_blocks_minimise(model, 2048);
}

TEST(CostModel, WindowCoversLatenciesWhileBlocksAreShort) {
  const CostModel model = CostModel::linear(1e-6, 1e-10);  // alpha / beta = 10,000 B
  ASSERT_DOUBLE_EQ(model.time(0), 1e-6 + 8e-10);  // the 8-byte point
  EXPECT_EQ(window_rounds(model, 1e6), 1);     // long blocks: one round at a time
  // 8 x 1.0008 us over 0.1 ns x (b - 8): 2.67 at b = 30,000 rounds to 3, 2 at b = 40,040.
  EXPECT_EQ(window_rounds(model, 30000), 3);
  EXPECT_EQ(window_rounds(model, 40040), 2);
  EXPECT_EQ(window_rounds(model, 1), 4);       // tiny blocks: the cap
}

// Where a rank's messages each have a path of their own (fanout at most 1.25), four rounds in
// flight whatever the block, eager or synchronous; above it the rules as before.
TEST(CostModel, OwnPathsKeepFourRoundsInFlight) {
  CostModel model = CostModel::linear(1e-6, 1e-10);
  ASSERT_EQ(window_rounds(model, 1e6), 1);
  ASSERT_EQ(synchronous_window(model, 1e6), 1);
  model.fanout = 1.25;
  EXPECT_EQ(window_rounds(model, 1e6), 4);
  EXPECT_EQ(synchronous_window(model, 1e6), 4);
  EXPECT_EQ(window_rounds(model, 1), 4);
  model.fanout = 1.3;
  EXPECT_EQ(window_rounds(model, 1e6), 1);
  EXPECT_EQ(synchronous_window(model, 1e6), 1);
}

// Synchronous sends where their price is below half a block's transfer time, time(b) - time(0):
// never for free blocks, always where a synchronous send costs nothing more but a block takes
// time, and on either side of the boundary as the rule says.
TEST(CostModel, SynchronousSendsWhereTheyCostLessThanHalfATransfer) {
  CostModel model = CostModel::linear(1e-6, 1e-10);
  const double zero = model.time(0);
  ASSERT_DOUBLE_EQ(zero, model.time(8));
  model.sync_extra = 0;
  EXPECT_FALSE(synchronous_sends(model, 0));  // nothing to transfer: 0 < 0 fails
  EXPECT_TRUE(synchronous_sends(model, 100));
  model.sync_extra = 1e-6;
  // Half the transfer of b bytes is 0.5e-10 (b - 8) s: equal to 1 us at b = 20,008.
  EXPECT_FALSE(synchronous_sends(model, 20000));
  EXPECT_TRUE(synchronous_sends(model, 20016));
  EXPECT_TRUE(synchronous_sends(model, 1e6));
  // Where a shared resource limits (all ranks' exchange 1.5 times a lone pair's or more), eager.
  model.crowding = 1.5;
  EXPECT_TRUE(synchronous_sends(model, 1e6));
  model.crowding = 1.6;
  EXPECT_FALSE(synchronous_sends(model, 1e6));
}

// Two synchronous rounds in flight where a block's latency is at least 1.1 times its transfer,
// else one; on a linear model latency alpha and transfer beta b, also for a block just above a
// measured point whose segment crosses a step.
TEST(CostModel, SynchronousWindowFromLatencyOverTransfer) {
  const CostModel model = CostModel::linear(1e-6, 1e-10);  // latency 1 us on every segment
  // 1.1 transfers equal the latency at b = 1e-6 / 1.1e-10 = 9,091 B.
  EXPECT_EQ(synchronous_window(model, 1000), 2);
  EXPECT_EQ(synchronous_window(model, 9000), 2);
  EXPECT_EQ(synchronous_window(model, 9200), 1);
  EXPECT_EQ(synchronous_window(model, 1e6), 1);
  // A latency of 100 us: 1.1 transfers equal it at b = 909,091 B, on the model's last segment.
  const CostModel slow = CostModel::linear(1e-4, 1e-10);
  EXPECT_EQ(synchronous_window(slow, 880000), 2);
  EXPECT_EQ(synchronous_window(slow, 940000), 1);
  // A protocol step of 20 us between the 60 KiB and 128 KiB points: a block of 61,681 B (1 MiB
  // in 17) costs 1 us + 6.2 us on its way across the step, where the segment's slope would say
  // 2.9e-10 s/B and a negative intercept; the half-block slope says latency 1 us, transfer
  // 6.2 us: one round.
  CostModel step = model;
  for (int i = kEagerPoint + 1; i < CostModel::kPoints; ++i) step.seconds[i] += 20e-6;
  EXPECT_EQ(synchronous_window(step, 61681), 1);
  // With a latency of 10 us below the step, the same block takes two rounds (10 us >= 1.1 x
  // 6.2 us); the segment's own intercept would have been negative.
  CostModel high = CostModel::linear(10e-6, 1e-10);
  for (int i = kEagerPoint + 1; i < CostModel::kPoints; ++i) high.seconds[i] += 20e-6;
  EXPECT_EQ(synchronous_window(high, 61681), 2);
}

// The size classes of the timed choices: powers of two up to the next, against a loop that
// doubles; an answer belongs to its class alone and can be replaced.
TEST(MeasuredChoices, OneAnswerPerPowerOfTwoClass) {
  for (std::int64_t bytes : {0LL, 1LL, 2LL, 3LL, 4095LL, 4096LL, 1048575LL, 1LL << 40,
                             (1LL << 62) + 5}) {
    int k = 0;  // the largest k <= 62 with 2^k <= bytes (0 for bytes < 2)
    for (std::int64_t low = 1; k < 62 && low <= bytes / 2; low *= 2) ++k;
    EXPECT_EQ(MeasuredChoices::size_class(bytes), k) << bytes;
  }
  MeasuredChoices choices;
  int answer = -1;
  EXPECT_FALSE(choices.find(4096, &answer));
  choices.store(5000, 0);  // class 12: 4096..8191
  ASSERT_TRUE(choices.find(8191, &answer));
  EXPECT_EQ(answer, 0);
  EXPECT_FALSE(choices.find(8192, &answer));
  EXPECT_FALSE(choices.find(4095, &answer));
  choices.store(8192, 1);
  ASSERT_TRUE(choices.find(16383, &answer));
  EXPECT_EQ(answer, 1);
  ASSERT_TRUE(choices.find(4096, &answer));
  EXPECT_EQ(answer, 0);
  choices.store(4096, 3);
  ASSERT_TRUE(choices.find(6000, &answer));
  EXPECT_EQ(answer, 3);
  choices.store(4096, 2);  // replaced: both bits of the answer
  ASSERT_TRUE(choices.find(6000, &answer));
  EXPECT_EQ(answer, 2);
  ASSERT_TRUE(choices.find(8192, &answer));
  EXPECT_EQ(answer, 1);
  // every answer in every class, against a plain array
  MeasuredChoices all;
  int expected[63];
  for (int k = 0; k < 63; ++k) {
    expected[k] = (k * 7 + 1) % (kMaxAnswer + 1);
    all.store(std::int64_t{1} << k, expected[k]);
  }
  for (int k = 0; k < 63; ++k) {
    ASSERT_TRUE(all.find(std::int64_t{1} << k, &answer)) << k;
    EXPECT_EQ(answer, expected[k]) << k;
  }
}

// The memo answers for the (count, size) stored last only, with the answer stored, and keeps
// nothing for elements of 2^28 bytes or more.
TEST(DecisionMemo, LastCountAndSizeOnly) {
  DecisionMemo memo;
  int answer = -1;
  EXPECT_FALSE(memo.find(0, 0, &answer));
  for (int stored = 0; stored <= kMaxAnswer; ++stored) {
    memo.store(1000, 4, stored);
    ASSERT_TRUE(memo.find(1000, 4, &answer));
    EXPECT_EQ(answer, stored);
    EXPECT_FALSE(memo.find(1000, 8, &answer));
    EXPECT_FALSE(memo.find(1001, 4, &answer));
    EXPECT_FALSE(memo.find(4, 1000, &answer));
  }
  memo.store(INT_MAX, (1 << 28) - 1, kMaxAnswer);  // the largest kept
  ASSERT_TRUE(memo.find(INT_MAX, (1 << 28) - 1, &answer));
  EXPECT_EQ(answer, kMaxAnswer);
  EXPECT_FALSE(memo.find(INT_MAX - 1, (1 << 28) - 1, &answer));
  memo.store(5, 1 << 28, 1);  // too large an element: nothing kept
  EXPECT_FALSE(memo.find(5, 1 << 28, &answer));
  EXPECT_FALSE(memo.find(INT_MAX, (1 << 28) - 1, &answer));
  memo.store(0, 0, 1);
  ASSERT_TRUE(memo.find(0, 0, &answer));
  EXPECT_EQ(answer, 1);
}

// The k-ary tree's plan (kary_tree_plan.h): the degree is floor(crowding) within [2, 64], the
// window 8 blocks per child, and the block size the streamed size of least predicted time,
// here the model SMPI measured on 288 ranks sharing a 500 GB/s backbone, whose 8 KiB blocks
// stream fastest per byte.
TEST(KaryTreePlan, DegreeWindowAndBlocksFromTheModel) {
  CostModel model = CostModel::linear(4e-6, 1e-10);
  // (8 and 16 KiB: interpolated; measured before the model had those points)
  model.seconds = {4.04e-6, 4.9e-6, 8.53e-6, 1.579e-5, 3.03e-5, 5.44e-5, 8.67e-5, 6.73e-4};
  model.stream = {2.87e-6, 4.45e-6, 1.4e-5, 2.85e-5, 5.33e-5, 8.44e-5};
  model.crowding = 5.76;
  const KaryTreePlan plan = kary_tree_plan(model, 288, 1 << 20, 1 << 18);
  EXPECT_EQ(plan.degree, 5);
  EXPECT_EQ(plan.window, 5 * kStreamInFlight);
  EXPECT_EQ(plan.n, (1 << 20) / 8192);
  // Written out: depth time(block) + (n - 1) stream(size) for each streamed size, and one block.
  const double depth = kary_depth(288, 5);
  double best = depth * model.time(1 << 20);
  std::int64_t best_n = 1;
  for (int i = 0; i < CostModel::kStreamPoints; ++i) {
    const std::int64_t n = (1 << 20) / static_cast<std::int64_t>(kStreamSizes[i]);
    const double t = depth * model.time(kStreamSizes[i]) + (n - 1) * model.stream[i];
    if (t < best) best = t, best_n = n;
  }
  EXPECT_EQ(plan.n, best_n);
  // Below the smallest streamed size: one block. Whole elements only: at most max_blocks.
  EXPECT_EQ(kary_tree_plan(model, 288, 4000, 1000).n, 1);
  EXPECT_EQ(kary_tree_plan(model, 288, 1 << 20, 10).n, 10);
  model.crowding = 1;
  EXPECT_EQ(kary_tree_plan(model, 288, 1 << 20, 1 << 18).degree, 2);
  model.crowding = 1000;
  EXPECT_EQ(kary_tree_plan(model, 288, 1 << 20, 1 << 18).degree, 64);
}

// On a linear model a further block costs beta s in a stream, so the smallest streamed size
// (4 KiB) is best for a large message; one rank or nothing to send: one block.
TEST(KaryTreePlan, LinearModelTakesTheSmallestStreamedBlocks) {
  CostModel model = CostModel::linear(2e-6, 1e-10);
  model.crowding = 3.5;
  const KaryTreePlan plan = kary_tree_plan(model, 1000, 1 << 24, 1 << 22);
  EXPECT_EQ(plan.degree, 3);
  EXPECT_EQ(plan.n, (1 << 24) / 4096);
  EXPECT_EQ(kary_tree_plan(model, 1, 1 << 24, 1 << 22).n, 1);
  EXPECT_EQ(kary_tree_plan(model, 1000, 0, 1).n, 1);
}

// stream_parts against its definition written out over every streamed size, and its limits:
// on a linear model a stream never beats one message over one edge (a further part costs as
// many bytes' time as it carries, and the first pays the latency); with the figures SMPI
// measured on 288 ranks sharing a backbone (KaryTreePlan above: 8 KiB streams faster per byte
// than a large message moves) a round of 2 MiB goes in 8 KiB parts.
TEST(StreamParts, LeastPredictedTimeOverTheStreamedSizes) {
  CostModel linear = CostModel::linear(2e-6, 1e-10);
  EXPECT_EQ(stream_parts(linear, 1 << 24, 1, 1, 1 << 30), 1);
  EXPECT_EQ(stream_parts(linear, 1 << 24, 3, 1, 1 << 30), (1 << 24) / 4096);  // over 3 edges
  EXPECT_EQ(stream_parts(linear, 0, 3, 1, 1 << 30), 1);
  CostModel model = CostModel::linear(4e-6, 1e-10);
  // (8 and 16 KiB: interpolated; measured before the model had those points)
  model.seconds = {4.04e-6, 4.9e-6, 8.53e-6, 1.579e-5, 3.03e-5, 5.44e-5, 8.67e-5, 6.73e-4};
  model.stream = {2.87e-6, 4.45e-6, 1.4e-5, 2.85e-5, 5.33e-5, 8.44e-5};
  EXPECT_EQ(stream_parts(model, 1 << 21, 1, 1, 1 << 30), (1 << 21) / 8192);
  EXPECT_EQ(stream_parts(model, 1 << 21, 1, 1, 100), 100);  // whole elements only
  EXPECT_EQ(stream_parts(model, 4000, 1, 1, 1 << 30), 1);  // below the smallest streamed size
  // Written out, for sizes and leads of every kind.
  for (const double bytes : {5000.0, 70000.0, 1e6, 3.3e6, 5e7}) {
    for (const double lead : {1.0, 2.5, 6.0}) {
      for (const double shared : {1.0, 3.0}) {
        double best = lead * model.time(bytes);
        std::int64_t best_n = 1;
        for (int i = 0; i < CostModel::kStreamPoints; ++i) {
          if (kStreamSizes[i] >= bytes) break;
          const auto n = static_cast<std::int64_t>(std::ceil(bytes / kStreamSizes[i]));
          const double t = lead * model.time(bytes / n) + (n - 1) * model.stream[i] * shared;
          if (t < best) best = t, best_n = n;
        }
        EXPECT_EQ(stream_parts(model, bytes, lead, shared, 1 << 30), best_n)
            << bytes << " B, lead " << lead << ", shared " << shared;
      }
    }
  }
}

// fan_parts against its definition written out over every streamed size, and its limits: on a
// linear model parts never pay (each costs the bytes it carries); with the figures SMPI measured
// on `paper` 36 x 1, where an n-port round's messages of 7.3 KiB took longer in two parts of
// 3.6 KiB than whole, they stay whole, and messages of 29 KiB go in 4 parts of 7.3 KiB (the
// 1 MiB all-gather on 11 ports: 52.6 us, 76.7 whole).
TEST(FanParts, LeastCostPerByteOverTheStreamedSizes) {
  const CostModel linear = CostModel::linear(2e-6, 1e-10);
  for (const double bytes : {5000.0, 1e5, 1.6e7}) EXPECT_EQ(fan_parts(linear, bytes, 1 << 30), 1);
  CostModel paper = CostModel::linear(4e-6, 1e-10);
  paper.seconds = {3.99e-6, 3.99e-6, 4.7e-6, 7.97e-6, 8.96e-6, 1.07e-5, 2.92e-5, 7.01e-5};
  paper.per_message = 1.29e-9;
  paper.stream = {2.23e-7, 3.17e-7, 9.87e-7, 1.97e-6, 3.7e-6, 5.85e-6};
  paper.burst = {6.56e-8, 1.28e-7, 1.42e-7};
  paper.measured = true;
  EXPECT_EQ(fan_parts(paper, 0, 1 << 30), 1);
  EXPECT_EQ(fan_parts(paper, 4000, 1 << 30), 1);  // below the smallest streamed size
  EXPECT_EQ(fan_parts(paper, 7475, 1 << 30), 1);
  EXPECT_EQ(fan_parts(paper, 29127, 1 << 30), 4);
  EXPECT_EQ(fan_parts(paper, 29127, 3), 3);  // whole elements only
  for (const double bytes : {5000.0, 20000.0, 70000.0, 116508.0, 1e6, 5e7}) {
    const double whole = paper.further(bytes);
    double best = whole;
    std::int64_t best_n = 1;
    for (int i = 0; i < CostModel::kStreamPoints; ++i) {
      if (kStreamSizes[i] >= bytes) break;
      const auto n = static_cast<std::int64_t>(std::ceil(bytes / kStreamSizes[i]));
      const double t = n * paper.further(bytes / n);
      if (t < best) best = t, best_n = n;
    }
    EXPECT_EQ(fan_parts(paper, bytes, 1 << 30), best <= 0.9 * whole ? best_n : 1) << bytes << " B";
  }
}

// stream_window: 9 L / step parts in flight (rounded), L = time(part) - step, within [8, 64];
// windowed stream_parts adds L / window to each step. Figures SMPI measured: `paper` 36 x 1
// (each part's latency 14 times its step: 64) and `flat` 1,152 ranks (0.9 times: 8).
TEST(StreamWindow, CoversThePartsLatency) {
  CostModel paper = CostModel::linear(4e-6, 1e-10);
  paper.seconds = {3.99e-6, 3.99e-6, 4.7e-6, 7.97e-6, 8.96e-6, 1.07e-5, 2.92e-5, 7.01e-5};
  paper.stream = {2.23e-7, 3.17e-7, 9.87e-7, 1.97e-6, 3.7e-6, 5.85e-6};
  EXPECT_EQ(stream_window(paper, 8192), 64);
  CostModel flat = CostModel::linear(4e-6, 1e-10);
  // (8 and 16 KiB: interpolated; measured before the model had those points)
  flat.seconds = {4.04e-6, 4.76e-6, 8.37e-6, 1.558e-5, 3e-5, 5.42e-5, 8.38e-5, 6.73e-4};
  flat.stream = {2.88e-6, 4.37e-6, 1.45e-5, 2.97e-5, 5.33e-5, 8.5e-5};
  EXPECT_EQ(stream_window(flat, 8192), kStreamInFlight);
  // Between the bounds: a latency of 2 steps gives 18.
  CostModel mid = flat;
  mid.seconds[1] = 3 * 4096 * 1e-10;  // time(4 KiB) = a step and 2 steps of latency
  mid.stream[0] = 4096 * 1e-10;
  mid.seconds[0] = std::min(mid.seconds[0], mid.seconds[1]);
  EXPECT_EQ(stream_window(mid, 4096), 18);
  // Windowed, a round of 2 MiB on `flat` still goes in 8 KiB parts (step 4.37 + 4.0 / 8 us,
  // against a large message's 5.3 us per 8 KiB); written out for `paper`.
  EXPECT_EQ(stream_parts(flat, 1 << 21, 1, 1, 1 << 30, true), (1 << 21) / 8192);
  for (const double bytes : {70000.0, 1e6, 3e6}) {
    double best = paper.time(bytes);
    std::int64_t best_n = 1;
    for (int i = 0; i < CostModel::kStreamPoints && kStreamSizes[i] < bytes; ++i) {
      const auto n = static_cast<std::int64_t>(std::ceil(bytes / kStreamSizes[i]));
      const double part = bytes / n;
      int j = 0;
      while (j + 1 < CostModel::kStreamPoints && kStreamSizes[j] < part) ++j;
      const double step = paper.stream[j] * part / kStreamSizes[j];
      const double t = paper.time(part) + (n - 1) * (paper.stream[i] +
                                                     (paper.time(part) - step) /
                                                         stream_window(paper, part));
      if (t < best) best = t, best_n = n;
    }
    EXPECT_EQ(stream_parts(paper, bytes, 1, 1, 1 << 30, true), best_n) << bytes;
  }
}

// median_model against each figure's sorted values (the upper middle one), and its times still
// growing with the size where every model's do.
RC_GTEST_PROP(MedianModel, EachFigureIsTheSortedMiddle, ()) {
  const int count = *rc::gen::inRange(1, 40);
  std::vector<CostModel> models;
  for (int m = 0; m < count; ++m) {
    CostModel model = CostModel::linear(1e-6, 1e-10);
    double t = 0;
    for (double& s : model.seconds) s = t += *rc::gen::inRange(0, 1000) * 1e-7;
    for (double* x : {&model.per_message, &model.sync_extra, &model.crowding, &model.fanout}) {
      *x = *rc::gen::inRange(0, 50) * 0.1;
    }
    for (double& s : model.stream) s = *rc::gen::inRange(0, 1000) * 1e-8;
    for (double& s : model.burst) s = *rc::gen::inRange(0, 1000) * 1e-8;
    models.push_back(model);
  }
  const CostModel median = median_model(models);
  const std::vector<double> got = all_figures(median);
  for (std::size_t i = 0; i < got.size(); ++i) {
    std::vector<double> column;
    for (const CostModel& m : models) column.push_back(all_figures(m)[i]);
    std::sort(column.begin(), column.end());
    RC_ASSERT(got[i] == column[column.size() / 2]);
  }
  RC_ASSERT(std::is_sorted(median.seconds.begin(), median.seconds.end()));
  RC_ASSERT(median.bytes == models.front().bytes);
}

TEST(MedianModel, OneModelIsItself) {
  CostModel model = CostModel::linear(3e-6, 2e-10);
  model.crowding = 1.7;
  model.burst[1] = 4e-7;
  EXPECT_EQ(all_figures(median_model({model})), all_figures(model));
  EXPECT_THROW(median_model({}), std::out_of_range);
}

}  // namespace
TEST(SameModel, EveryFieldCounts) {
  CostModel a = CostModel::linear(2e-6, 1e-10);
  a.stream = {1e-7, 2e-7, 3e-7, 4e-7, 5e-7, 6e-7};
  a.burst = {1e-8, 2e-8, 3e-8};
  EXPECT_TRUE(same_model(a, a));
  const CostModel copy = a;
  EXPECT_TRUE(same_model(a, copy));
  const std::vector<void (*)(CostModel&)> changes = {
      [](CostModel& m) { m.bytes[3] += 1; },         [](CostModel& m) { m.seconds[7] *= 2; },
      [](CostModel& m) { m.per_message += 1e-9; },   [](CostModel& m) { m.sync_extra += 1e-9; },
      [](CostModel& m) { m.crowding += 0.5; },       [](CostModel& m) { m.fanout -= 0.5; },
      [](CostModel& m) { m.stream[5] *= 2; },        [](CostModel& m) { m.burst[0] *= 2; },
      [](CostModel& m) { m.measured = !m.measured; }};
  for (std::size_t i = 0; i < changes.size(); ++i) {
    CostModel b = a;
    changes[i](b);
    EXPECT_FALSE(same_model(a, b)) << "change " << i;
    EXPECT_FALSE(same_model(b, a)) << "change " << i;
  }
}

}  // namespace rosched::mpi
