// The all-to-all cost rule of mpi_exec/alltoall_bruck.h (radix-2 Bruck against the linear
// exchange) against a reference that counts each step's blocks one by one, and bruck_can_pay,
// Rosched_Alltoallv's test of whether a call can be worth more than the library's linear
// exchange at p, against the rule evaluated over a grid of block sizes.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <vector>

#include "mpi_exec/alltoall_bruck.h"
#include "mpi_exec/cost_model.h"

namespace rosched::mpi {
namespace {

// Blocks moved per radix-2 step, counted one by one: step t moves the relative indices
// 1..p-1 with bit t set.
std::vector<std::int64_t> step_blocks(std::int64_t p) {
  std::vector<std::int64_t> c;
  for (std::int64_t bit = 1; bit < p; bit <<= 1) {
    std::int64_t k = 0;
    for (std::int64_t j = 1; j < p; ++j) k += (j & bit) != 0;
    c.push_back(k);
  }
  return c;
}

// Whether some Bruck variant is strictly faster than the linear exchange for uniform blocks of
// `block` bytes (padded: every block that size; two-phase: the sizes first), by the rule's
// formulas with the counted steps.
bool bruck_faster(const CostModel& m, std::int64_t p, double block) {
  double padded = 0, two_phase = 0;
  for (const std::int64_t c : step_blocks(p)) {
    padded += m.time(block * c);
    two_phase += m.time(8.0 * c) + m.time(block * c);
  }
  const double linear = (p - 1) * m.time(block);
  return padded < linear || two_phase < linear;
}

CostModel random_linear_model() {
  const double alpha = *rc::gen::inRange(1, 100000) * 1e-9;  // 1 ns .. 100 us
  const double beta = *rc::gen::inRange(1, 100000) * 1e-13;  // up to 10 ns per byte
  return CostModel::linear(alpha, beta);
}

TEST(AlltoallRule, NoBruckGainUpToThreeRanks) {
  for (const CostModel& m : {CostModel::linear(1e-6, 8e-11), CostModel::linear(1e-4, 1e-12),
                             CostModel::linear(1e-9, 1e-8)}) {
    for (std::int64_t p = 1; p <= 3; ++p) EXPECT_FALSE(bruck_can_pay(m, p)) << "p=" << p;
    EXPECT_EQ(bruck_can_pay(m, 4), m.time(2) * 2 < 3 * m.time(1));
  }
}

// bruck_can_pay(p) is true exactly where some block size of the grid (1 B .. 1 GiB) makes a Bruck
// variant strictly faster than the linear exchange: one byte is the most favourable size.
RC_GTEST_PROP(AlltoallRule, CanPayIffSomeSizePays, ()) {
  const CostModel m = random_linear_model();
  const std::int64_t p = *rc::gen::inRange<std::int64_t>(2, 3000);
  bool some = false;
  for (double block = 1; block <= double{1 << 30} && !some; block *= 2) {
    some = bruck_faster(m, p, block);
  }
  RC_ASSERT(bruck_can_pay(m, p) == some);
}

// Where the rule picks a Bruck variant with a strict gain over linear, bruck_can_pay agrees (the
// choice Rosched_Alltoallv skips by bruck_can_pay is never one the rule would have made).
RC_GTEST_PROP(AlltoallRule, RuleNeverPicksBruckWhereItCannotPay, ()) {
  const CostModel m = random_linear_model();
  const std::int64_t p = *rc::gen::inRange<std::int64_t>(2, 3000);
  const double largest = *rc::gen::inRange(1, 1 << 24);
  const double heaviest = largest * *rc::gen::inRange<std::int64_t>(1, p - 1);
  const AlltoallAlgorithm algo = choose_nonuniform(m, p, largest, heaviest);
  if (!algo.bruck) return;
  const double average = heaviest / (p - 1);
  double padded = 0, two_phase = 0;
  for (const std::int64_t c : step_blocks(p)) {
    padded += m.time(largest * c);
    two_phase += m.time(8.0 * c) + m.time(average * c);
  }
  const double linear = (p - 1) * m.time(average);
  if (padded < linear || two_phase < linear) RC_ASSERT(bruck_can_pay(m, p));
}

}  // namespace
}  // namespace rosched::mpi
