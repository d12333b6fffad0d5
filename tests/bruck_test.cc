// The Bruck all-to-all (sched/bruck/): the schedule against brute force over the digits, every
// variant's plan simulated one rank (relative) and all ranks (physical) with the two compared
// (the symmetry the verifier relies on), the printed zero-copy parity rejected at P = 2,
// mutations caught and located, and byte-exact runs of the engines on size matrices.
#include "sched/bruck/bruck.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>
#include <vector>

#include "sched/bruck/bruck_engine.h"
#include "sched/bruck/bruck_plan.h"
#include "sim/bruck_run.h"
#include "tests/gen_p.h"

namespace rosched {
namespace {

std::int64_t digit_of(std::int64_t i, int x, std::int64_t r) {
  for (int k = 0; k < x; ++k) i /= r;
  return i % r;
}

// Every step (x, z) with z r^x <= P - 1, in order, by enumeration.
std::vector<BruckStep> brute_steps(std::int64_t p, std::int64_t r) {
  std::vector<BruckStep> out;
  for (std::int64_t w = 1, x = 0; w <= p - 1; w *= r, ++x)
    for (std::int64_t z = 1; z < r && z * w <= p - 1; ++z)
      out.push_back({static_cast<int>(x), z, w, z * w});
  return out;
}

TEST(BruckSchedule, StepsAndMovedIndicesEqualBruteForce) {
  for (std::int64_t r = 2; r <= 9; ++r) {
    for (std::int64_t p = 1; p <= (r == 2 ? 600 : 200); ++p) {
      const BruckSchedule s(p, r);
      const std::vector<BruckStep> want = brute_steps(p, r);
      ASSERT_EQ(s.steps(), static_cast<std::int64_t>(want.size())) << "p=" << p << " r=" << r;
      if (r == 2) {
        EXPECT_EQ(s.steps(), ceil_log2(p));
      }
      std::int64_t blocks = 0;
      for (std::int64_t t = 0; t < s.steps(); ++t) {
        const BruckStep st = s.step(t);
        ASSERT_EQ(st.x, want[t].x);
        ASSERT_EQ(st.z, want[t].z);
        ASSERT_EQ(st.distance, want[t].distance);
        std::vector<std::int64_t> moved;
        for (std::int64_t i = 0; i < p; ++i)
          if (digit_of(i, st.x, r) == st.z) moved.push_back(i);
        ASSERT_EQ(s.moved(st), moved) << "p=" << p << " r=" << r << " t=" << t;
        ASSERT_EQ(s.moved_count(st), static_cast<std::int64_t>(moved.size()));
        if (r == 2) {
          EXPECT_LE(s.moved_count(st), p / 2);
        }
        blocks += s.moved_count(st);
        for (const std::int64_t i : moved) {
          bool lower_zero = true;
          int higher_nonzero = 0;
          for (int y = 0; y < st.x; ++y) lower_zero &= digit_of(i, y, r) == 0;
          for (int y = st.x; y < 32; ++y) higher_nonzero += digit_of(i, y, r) != 0;
          EXPECT_EQ(s.first_hop(i, st), lower_zero);
          EXPECT_EQ(s.last_hop(i, st), higher_nonzero == 1);
          EXPECT_EQ(s.hops_left(i, st), higher_nonzero);
          EXPECT_EQ(s.travelled(i, st), i % st.weight);
        }
        for (std::int64_t rank : {std::int64_t{0}, p / 3, p - 1}) {
          EXPECT_EQ(s.send_to(rank, st, BruckDirection::kMinus), ((rank - st.distance) % p + p) % p);
          EXPECT_EQ(s.recv_from(rank, st, BruckDirection::kMinus), (rank + st.distance) % p);
          EXPECT_EQ(s.send_to(rank, st, BruckDirection::kPlus), (rank + st.distance) % p);
        }
      }
      ASSERT_EQ(blocks, bruck_blocks_brute_force(p, r)) << "p=" << p << " r=" << r;
      ASSERT_EQ(s.blocks_per_rank(), blocks);
    }
  }
}

TEST(BruckSchedule, CountsPerStepAsInTheSeedNote) {
  const auto counts = [](std::int64_t p) {
    const BruckSchedule s(p);
    std::vector<std::int64_t> c;
    for (std::int64_t t = 0; t < s.steps(); ++t) c.push_back(s.moved_count(s.step(t)));
    return c;
  };
  EXPECT_EQ(counts(6), (std::vector<std::int64_t>{3, 2, 2}));
  EXPECT_EQ(counts(12), (std::vector<std::int64_t>{6, 6, 4, 4}));
  EXPECT_EQ(BruckSchedule(200).blocks_per_rank(), 732);
  EXPECT_EQ(BruckSchedule(4096).blocks_per_rank(), 24576);
  EXPECT_EQ(BruckSchedule(1).steps(), 0);
  // Radix r: (r - 1)(K - 1) + floor((P - 1) / r^(K - 1)).
  EXPECT_EQ(BruckSchedule(10, 3).steps(), 2 * 2 + 9 / 9);
  EXPECT_EQ(BruckSchedule(27, 3).steps(), 2 * 2 + 26 / 9);
  EXPECT_EQ(BruckSchedule(5, 8).steps(), 4);
}

TEST(BruckSchedule, BadArgumentsThrow) {
  EXPECT_THROW(BruckSchedule(0), std::invalid_argument);
  EXPECT_THROW(BruckSchedule(kMaxProcesses + 1), std::invalid_argument);
  EXPECT_THROW(BruckSchedule(8, 1), std::invalid_argument);
  EXPECT_THROW(BruckSchedule(8, kMaxBruckRadix + 1), std::invalid_argument);
  EXPECT_THROW(BruckSchedule(8).step(3), std::out_of_range);
  EXPECT_THROW(BruckSchedule(8).step(-1), std::out_of_range);
  EXPECT_THROW(bruck_variant_from_name("rotated"), std::invalid_argument);
  for (BruckVariant v : bruck_variants()) EXPECT_EQ(bruck_variant_from_name(bruck_variant_name(v)), v);
}

// Large P (up to 2^31 - 1): the step list is the digit enumeration, a random i moves exactly at
// the steps of its non-zero digits, and its hop status there follows the definitions.
RC_GTEST_PROP(BruckSchedule, LocalPropertiesForLargeP, ()) {
  const std::int64_t p = *rosched_test::gen_p(kMaxProcesses);
  const std::int64_t r = *rc::gen::inRange<std::int64_t>(2, 17);
  const BruckSchedule s(p, r);
  RC_ASSERT(s.steps() == static_cast<std::int64_t>(brute_steps(p, r).size()));
  if (p == 1) return;
  const std::int64_t i = *rc::gen::inRange<std::int64_t>(1, p);
  int hops = 0, left = s.nonzero_digits(i);
  bool first = true;
  for (std::int64_t t = 0; t < s.steps(); ++t) {
    const BruckStep st = s.step(t);
    if (!s.moves(i, st)) continue;
    RC_ASSERT(s.first_hop(i, st) == first);
    RC_ASSERT(s.hops_left(i, st) == left);
    RC_ASSERT(s.last_hop(i, st) == (left == 1));
    first = false;
    --left;
    ++hops;
  }
  RC_ASSERT(hops == s.nonzero_digits(i));
}

// Every valid variant: the relative run passes, the all-ranks run passes, and the all-ranks
// state is the relative one shifted to every rank (radix 2: every P <= 128 and sampled P <= 300,
// powers of two and their neighbours included; radix 3..8: P <= 30). verify --family bruck
// does the same for every P <= 300 (group all-ranks).
TEST(BruckRun, RelativeRunEqualsAllRanksRun) {
  std::vector<std::int64_t> radix2;
  for (std::int64_t p = 1; p <= 300; ++p) {
    if (p <= 128 || p % 23 == 0 || p == 255 || p == 256 || p == 257 || p == 300) radix2.push_back(p);
  }
  for (std::int64_t r = 2; r <= 8; ++r) {
    std::vector<std::int64_t> ps = radix2;
    if (r > 2) ps.resize(30);  // 1..30
    for (const std::int64_t p : ps) {
      const BruckSchedule s(p, r);
      for (BruckVariant v : bruck_variants()) {
        const BruckPlan plan(s, v);
        const sim::BruckRunResult rel = sim::run_bruck_relative(plan);
        ASSERT_FALSE(rel.counterexample) << rel.counterexample->describe();
        ASSERT_EQ(rel.blocks_sent, s.blocks_per_rank());
        const sim::BruckRunResult all = sim::run_bruck_all_ranks(plan);
        ASSERT_FALSE(all.counterexample) << all.counterexample->describe();
        ASSERT_EQ(all.blocks_sent, s.blocks_per_rank());
        const auto diff = sim::compare_bruck_states(plan, rel.state, all.state);
        ASSERT_FALSE(diff) << diff->describe();
      }
    }
  }
}

TEST(BruckRun, PrintedZeroCopyParityFailsAtP2) {
  const BruckPlan printed(BruckSchedule(2), BruckVariant::kZeroCopyPrinted);
  for (const sim::BruckRunResult& run :
       {sim::run_bruck_relative(printed), sim::run_bruck_all_ranks(printed)}) {
    ASSERT_TRUE(run.counterexample);
    EXPECT_EQ(run.counterexample->kind, "wrong-final-block");
    EXPECT_EQ(run.counterexample->p, 2);
    EXPECT_EQ(run.counterexample->rank, 0);
    // Rank 0's receive slot 1 keeps its own block to 1 (0 -> 1 = token 1) instead of 1 -> 0.
    EXPECT_EQ(run.counterexample->expected, std::int64_t{1} << 32);
    EXPECT_EQ(run.counterexample->actual, 1);
  }
  // It fails for every P >= 2 checked; the corrected parity passes.
  for (std::int64_t p = 2; p <= 64; ++p) {
    EXPECT_TRUE(sim::run_bruck_relative(BruckPlan(BruckSchedule(p), BruckVariant::kZeroCopyPrinted))
                    .counterexample) << "p=" << p;
  }
}

// A wrong slot or partner at one rank and step is caught and names that rank (or the rank
// that next reads the corrupted slot) and a step at or after the corruption.
TEST(BruckRun, MutationsAreCaughtAndLocated) {
  for (BruckVariant v : bruck_variants()) {
    for (std::int64_t p : {5, 9, 20}) {
      const BruckPlan plan(BruckSchedule(p), v);
      const std::int64_t bad_rank = 3, bad_step = 1;
      const std::int64_t victim = plan.schedule().moved(plan.schedule().step(bad_step)).front();
      sim::BruckMutation wrong_slot;
      wrong_slot.write = [&](std::int64_t rank, std::int64_t t, std::int64_t i, BruckLoc loc) {
        if (rank == bad_rank && t == bad_step && i == victim) loc.offset += 1;
        return loc;
      };
      auto ce = sim::run_bruck_all_ranks(plan, wrong_slot).counterexample;
      ASSERT_TRUE(ce) << bruck_variant_name(v) << " p=" << p;
      EXPECT_EQ(ce->rank, bad_rank) << ce->describe();
      EXPECT_GE(ce->round, bad_step) << ce->describe();

      sim::BruckMutation wrong_read;
      wrong_read.read = [&](std::int64_t rank, std::int64_t t, std::int64_t i, BruckLoc loc) {
        if (rank == bad_rank && t == bad_step && i == victim) loc.offset += 1;
        return loc;
      };
      ce = sim::run_bruck_all_ranks(plan, wrong_read).counterexample;
      ASSERT_TRUE(ce);
      EXPECT_EQ(ce->rank, bad_rank) << ce->describe();
      EXPECT_EQ(ce->round, bad_step) << ce->describe();

      sim::BruckMutation wrong_partner;
      wrong_partner.send_to = [&](std::int64_t rank, std::int64_t t, std::int64_t to) {
        return rank == bad_rank && t == bad_step ? (to + 1) % p : to;
      };
      ce = sim::run_bruck_all_ranks(plan, wrong_partner).counterexample;
      ASSERT_TRUE(ce);
      EXPECT_EQ(ce->kind, "partner-mismatch");
      EXPECT_EQ(ce->rank, bad_rank);
      EXPECT_EQ(ce->round, bad_step);
    }
  }
}

// Byte-exact runs of the engines: every variant on uniform sizes, padded and two-phase on
// random, zero, one-huge and empty-row/column matrices (the data volumes are asserted inside).
TEST(BruckBytes, EveryVariantByteExact) {
  std::uint64_t seed = 1;
  for (std::int64_t r : {2, 3, 5}) {
    for (std::int64_t p = 1; p <= (r == 2 ? 70 : 30); ++p) {
      const BruckSchedule s(p, r);
      for (BruckVariant v : bruck_variants()) {
        for (sim::BruckSizes kind : sim::bruck_size_kinds()) {
          if (!bruck_nonuniform(v) && kind != sim::BruckSizes::kUniform) continue;
          const auto sizes = sim::bruck_size_matrix(p, kind, 9, 300, seed++);
          const auto run = sim::run_bruck_bytes(BruckPlan(s, v), sizes);
          ASSERT_FALSE(run.counterexample)
              << run.counterexample->describe() << " sizes=" << sim::bruck_sizes_name(kind);
        }
      }
    }
  }
  for (std::int64_t p : {257, 600}) {  // larger P, sampled
    for (BruckVariant v : {BruckVariant::kPadded, BruckVariant::kTwoPhase}) {
      const auto run = sim::run_bruck_bytes(BruckPlan(BruckSchedule(p), v),
                                            sim::bruck_size_matrix(p, sim::BruckSizes::kOneHuge,
                                                                   4, 64, seed++));
      ASSERT_FALSE(run.counterexample) << run.counterexample->describe();
    }
  }
}

TEST(BruckBytes, PaddedAndTwoPhaseVolumes) {
  // Every rank of the padded run sends N * blocks_per_rank bytes, the receive-side checks hold.
  const std::int64_t p = 64;
  const auto sizes = sim::bruck_size_matrix(p, sim::BruckSizes::kRandom, 8, 0, 7);
  const auto padded = sim::run_bruck_bytes(BruckPlan(BruckSchedule(p), BruckVariant::kPadded), sizes);
  ASSERT_FALSE(padded.counterexample);
  EXPECT_EQ(padded.max_rank_bytes, 8 * BruckSchedule(p).blocks_per_rank());
  EXPECT_EQ(padded.min_rank_bytes, padded.max_rank_bytes);
  const auto two = sim::run_bruck_bytes(BruckPlan(BruckSchedule(p), BruckVariant::kTwoPhase), sizes);
  ASSERT_FALSE(two.counterexample);
  EXPECT_EQ(two.size_entries, p * BruckSchedule(p).blocks_per_rank());
  EXPECT_LT(two.data_bytes, padded.data_bytes);
}

TEST(BruckBytes, SizeMismatchIsReportedByTheReceiver) {
  for (BruckVariant v : {BruckVariant::kTwoPhase, BruckVariant::kPadded}) {
    const std::int64_t p = 7;
    const auto sizes = sim::bruck_size_matrix(p, sim::BruckSizes::kUniform, 5, 0, 3);
    auto recv = sizes;
    recv[2 * p + 4] = 6;  // rank 4 expects 6 bytes from rank 2, which sends 5
    const auto run = sim::run_bruck_bytes(BruckPlan(BruckSchedule(p), v), sizes, recv);
    ASSERT_TRUE(run.counterexample) << bruck_variant_name(v);
    EXPECT_EQ(run.counterexample->kind, "size-mismatch");
    EXPECT_EQ(run.counterexample->rank, 4);
    EXPECT_EQ(run.counterexample->expected, 6);
  }
}

TEST(BruckBytes, EngineRefusesBadInput) {
  const BruckPlan plan(BruckSchedule(4), BruckVariant::kTwoPhase);
  BruckBlocks b;
  b.send_offset = b.send_size = b.recv_offset = b.recv_size = std::vector<std::int64_t>(4, 0);
  EXPECT_THROW(BruckEngine(plan, 4, b, 1), std::invalid_argument);
  b.send_size[2] = 3;
  EXPECT_THROW(BruckEngine(plan, 0, b, 2), std::invalid_argument);  // a block above N
  b.send_size[2] = -1;
  EXPECT_THROW(BruckEngine(plan, 0, b, 2), std::invalid_argument);
  b.send_size.pop_back();
  EXPECT_THROW(BruckEngine(plan, 0, b, 2), std::invalid_argument);
  b.send_size = b.recv_size = std::vector<std::int64_t>(4, 2);
  b.recv_size[1] = 1;  // a uniform variant with a block of another size
  EXPECT_THROW(BruckEngine(BruckPlan(BruckSchedule(4), BruckVariant::kModified), 0, b, 2),
               std::invalid_argument);
}

}  // namespace
}  // namespace rosched
