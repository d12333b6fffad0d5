// The merge-allreduce schedules (sched/merge/, Lang 2025) against an interpreter that moves
// explicit data (every block one element, its origin rank; merge = multiset union), the closed
// forms of the seed notes, the printed Algorithm 1 as a control, corrupted schedules, and local
// properties for random p up to 2^31 - 1.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <stdexcept>
#include <vector>

#include "sched/merge/circulant_merge.h"
#include "sched/merge/dissemination_merge.h"
#include "sched/merge/merge_cost.h"
#include "sched/merge/merge_plan.h"
#include "sched/round.h"
#include "sim/merge_run.h"
#include "tests/gen_p.h"
#include "verify/families.h"

namespace rosched::merge {
namespace {

using Data = std::vector<std::int64_t>;  // origin ranks, one per block

// Runs every rank's schedule with data: slots hold the origins of their blocks; a message part
// is the first `count` entries of its slot; merges concatenate and sort. Returns, per rank, the
// sorted result.
std::vector<Data> interpret(const MergePlan& plan) {
  const std::int64_t p = plan.p;
  const auto shared = std::make_shared<const MergePlan>(plan);
  std::vector<std::array<Data, kSlotCount>> slots(p);
  for (std::int64_t r = 0; r < p; ++r) slots[r][static_cast<int>(Slot::kOwn)] = {r};
  const auto at = [&](std::int64_t r, Slot s) -> Data& { return slots[r][static_cast<int>(s)]; };
  const auto apply = [&](std::int64_t r, const MergeOp& op) {
    Data out;
    for (int j = 0; j < op.sources; ++j) {
      const Data& d = at(r, op.src[j]);
      out.insert(out.end(), d.begin(), d.end());
    }
    if (!op.concat) std::sort(out.begin(), out.end());
    return out;
  };
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(plan.rounds.size()); ++i) {
    std::vector<std::array<Data, 2>> sent(p);
    std::vector<MergeRound> rounds(p);
    for (std::int64_t r = 0; r < p; ++r) {
      rounds[r] = MergeSchedule(shared, r).round(i);
      const Piece* parts[] = {&rounds[r].send_main, &rounds[r].send_partial};
      for (int k = 0; k < 2; ++k) {
        if (!*parts[k]) continue;
        const Data& d = at(r, parts[k]->slot);
        sent[r][k].assign(d.begin(), d.begin() + std::min<std::int64_t>(parts[k]->range.count, d.size()));
      }
    }
    for (std::int64_t r = 0; r < p; ++r) {
      at(r, Slot::kRecvMain) = sent[rounds[r].from][0];
      at(r, Slot::kRecvPartial) = sent[rounds[r].from][1];
      for (int k = 0; k < rounds[r].op_count; ++k) at(r, rounds[r].ops[k].dst) = apply(r, rounds[r].ops[k]);
    }
  }
  std::vector<Data> result(p);
  for (std::int64_t r = 0; r < p; ++r) {
    result[r] = apply(r, plan.final_op);
    std::sort(result[r].begin(), result[r].end());
  }
  return result;
}

bool everyone_gets_everything(const std::vector<Data>& results) {
  const auto p = static_cast<std::int64_t>(results.size());
  for (const Data& d : results) {
    if (static_cast<std::int64_t>(d.size()) != p) return false;
    for (std::int64_t j = 0; j < p; ++j) if (d[j] != j) return false;
  }
  return true;
}

TEST(MergeSchedule, DataRunsDeliverEveryBlockOnceForEveryP) {
  for (const Algorithm a : kAllAlgorithms) {
    for (std::int64_t p = 1; p <= 70; ++p) {
      const MergePlan plan = make_plan(a, p);
      EXPECT_EQ(static_cast<int>(plan.rounds.size()), ceil_log2(p));
      EXPECT_TRUE(everyone_gets_everything(interpret(plan))) << algorithm_name(a) << " p=" << p;
      const sim::MergeRunResult run = sim::run_merge(plan);
      ASSERT_FALSE(run.counterexample) << run.counterexample->describe();
    }
  }
}

TEST(MergeSchedule, PrintedAlgorithm1FailsAsTheNotesSay) {
  // Data: rank 0 of p = 7 lacks rank 6's block.
  const std::vector<Data> results = interpret(make_plan(Algorithm::kDisseminationPrinted, 7));
  EXPECT_EQ(results[0], (Data{0, 1, 2, 3, 4, 5}));
  int wrong = 0;
  std::int64_t first = 0;
  for (std::int64_t p = 1; p <= 300; ++p) {
    const sim::MergeRunResult run = sim::run_merge(make_plan(Algorithm::kDisseminationPrinted, p));
    const bool data_ok = everyone_gets_everything(interpret(make_plan(Algorithm::kDisseminationPrinted, p)));
    EXPECT_EQ(data_ok, !run.counterexample) << "p=" << p;
    if (run.counterexample) {
      ++wrong;
      if (first == 0) {
        first = p;
        EXPECT_EQ(run.counterexample->kind, "missing-blocks");
        EXPECT_EQ(run.counterexample->rank, 0);
        EXPECT_NE(run.counterexample->describe().find("lacks the block of rank 6"), std::string::npos)
            << run.counterexample->describe();
      }
    }
    // Wrong exactly when l = p - 2^floor(log2 p) has two or more set bits.
    const std::int64_t l = p - (std::int64_t{1} << floor_log2(p));
    EXPECT_EQ(static_cast<bool>(run.counterexample), (l & (l - 1)) != 0) << "p=" << p;
  }
  EXPECT_EQ(wrong, 257);
  EXPECT_EQ(first, 7);
}

TEST(MergeSchedule, VolumesEqualTheClosedForms) {
  for (std::int64_t p = 1; p <= 600; ++p) {
    for (const Algorithm a : kAllAlgorithms) {
      const sim::MergeRunResult run = sim::run_merge(make_plan(a, p));
      ASSERT_FALSE(run.counterexample);
      EXPECT_EQ(run.stats.min_volume, volume_blocks(a, p)) << algorithm_name(a) << " p=" << p;
      EXPECT_EQ(run.stats.max_volume, volume_blocks(a, p));
      if (a != Algorithm::kAllgather && p > 1) {
        EXPECT_LE(run.stats.max_message, p / 2);
      }
    }
    const std::int64_t e = dissemination_extra_total(p);
    EXPECT_TRUE(e == 0 || 2 * e < p - 1) << "p=" << p;
  }
  // The worst case p = 2^j - 1 (notes: x 1.167 at p = 7, 1.286 at 15).
  EXPECT_EQ(dissemination_extra_total(7), 1);
  EXPECT_EQ(dissemination_extra_total(15), 4);
  EXPECT_EQ(dissemination_extra_total(9), 0);
}

// Algorithm 1: special rounds and the partial invariant, from the notes' closed form.
TEST(MergeSchedule, DisseminationPartialFollowsTheClosedForm) {
  for (std::int64_t p = 1; p <= 1030; ++p) {
    const MergePlan plan = make_plan(Algorithm::kDissemination, p);
    const int q1 = floor_log2(p);
    const std::int64_t l = p - (std::int64_t{1} << q1);
    for (int k = 0; k < q1; ++k) {
      const MergeRound& r = plan.rounds[k];
      const bool extra = ((l >> k) & 1) && (l % (std::int64_t{1} << k)) > 0;
      EXPECT_EQ(r.send_main.range.count, std::int64_t{1} << k);
      EXPECT_EQ(static_cast<bool>(r.send_partial), extra) << "p=" << p << " k=" << k;
      if (extra) {
        EXPECT_EQ(r.send_partial.range.count, l % (std::int64_t{1} << k));
      }
    }
    if (l > 0) {
      EXPECT_EQ(plan.rounds[q1].send_main.range.count, l);
    }
  }
}

// Algorithm 2: V travels in round k iff bit q - 1 - k of p - 1 is set (Lang 2025, Sec. 4).
TEST(MergeSchedule, CirculantIncludesOwnBlockByTheBitsOfPMinusOne) {
  for (std::int64_t p = 2; p <= 3000; ++p) {
    const MergePlan plan = make_plan(Algorithm::kCirculant, p);
    const int q = ceil_log2(p);
    const std::vector<std::int64_t> s = merge_skips(p);
    EXPECT_EQ(s[0], 1);
    for (int k = 0; k < q; ++k) {
      const bool with_v = plan.rounds[k].send_main.slot == Slot::kOwn;
      EXPECT_EQ(with_v, (((p - 1) >> (q - 1 - k)) & 1) == 1) << "p=" << p << " k=" << k;
      const std::int64_t sent = plan.rounds[k].send_main.range.count +
                                (plan.rounds[k].send_partial ? plan.rounds[k].send_partial.range.count : 0);
      EXPECT_EQ(sent, plan.distance[k]) << "p=" << p << " k=" << k;
    }
  }
}

// A corrupted range is caught, and the counterexample names p, the round and the corrupted rank
// (or its partner, which sees the mismatch).
TEST(MergeSchedule, CorruptedRangesAreCaughtAndLocated) {
  for (const Algorithm a : kAllAlgorithms) {
    for (const std::int64_t p : {5, 9, 20, 33}) {
      const auto plan = std::make_shared<const MergePlan>(make_plan(a, p));
      for (std::int64_t bad_rank : {std::int64_t{0}, p / 2, p - 1}) {
        for (std::int64_t bad_round = 0; bad_round < static_cast<std::int64_t>(plan->rounds.size()); ++bad_round) {
          for (int what = 0; what < 3; ++what) {
            const sim::MergeRoundOf corrupt = [&](std::int64_t r, std::int64_t i) {
              MergeRound round = MergeSchedule(plan, r).round(i);
              if (r == bad_rank && i == bad_round) {
                if (what == 0) round.send_main.range.first = cyclic(round.send_main.range.first, 1, p);
                if (what == 1) round.recv_main.range.count += 1;
                if (what == 2) round.from = cyclic(round.from, 1, p);
              }
              return round;
            };
            const sim::MergeRunResult run = sim::run_merge(*plan, corrupt);
            ASSERT_TRUE(run.counterexample) << algorithm_name(a) << " p=" << p << " rank=" << bad_rank
                                            << " round=" << bad_round << " what=" << what;
            const auto& c = *run.counterexample;
            const MergeRound good = MergeSchedule(plan, bad_rank).round(bad_round);
            EXPECT_EQ(c.p, p);
            EXPECT_EQ(c.round, bad_round) << c.describe();
            EXPECT_TRUE(c.rank == bad_rank || c.rank == good.to || c.rank == good.from ||
                        c.rank == cyclic(good.from, 1, p))
                << c.describe();
          }
        }
      }
    }
  }
}

// The verifier's family: the printed Algorithm 1 is rejected, first at p = 7 (rank 0 lacks rank
// 6's block); the corrected algorithms pass; a bad --algorithm is refused.
TEST(MergeFamily, VerifierRejectsThePrintedAlgorithmAtP7) {
  const auto run = [](const std::string& algorithm, std::int64_t to) -> std::optional<sim::Counterexample> {
    auto f = verify::make_family("merge");
    verify::FamilyOptions o;
    o.run_to = 100;
    o.checks = {"runs", "volume"};
    o.params["algorithm"] = algorithm;
    f->configure(o);
    for (std::int64_t p = 1; p <= to; ++p) {
      if (auto c = f->verify_p(p).counterexample) return c;
    }
    return std::nullopt;
  };
  const auto printed = run("alg1-printed", 300);
  ASSERT_TRUE(printed.has_value());
  EXPECT_EQ(printed->p, 7);
  EXPECT_EQ(printed->rank, 0);
  EXPECT_EQ(printed->kind, "missing-blocks");
  EXPECT_NE(printed->describe().find("lacks the block of rank 6"), std::string::npos);
  EXPECT_FALSE(run("alg0,alg1,alg2", 300).has_value());
  auto f = verify::make_family("merge");
  verify::FamilyOptions o;
  o.params["algorithm"] = "alg1,bruck";
  EXPECT_THROW(f->configure(o), std::invalid_argument);
}

TEST(MergeSchedule, BadArgumentsAreRefused) {
  EXPECT_THROW(make_plan(Algorithm::kCirculant, 0), std::invalid_argument);
  EXPECT_THROW(make_plan(Algorithm::kDissemination, kMaxProcesses + 1), std::invalid_argument);
  EXPECT_THROW(MergeSchedule(Algorithm::kCirculant, 5, 5), std::invalid_argument);
  EXPECT_THROW(MergeSchedule(Algorithm::kCirculant, 5, -1), std::invalid_argument);
  EXPECT_THROW(MergeSchedule(Algorithm::kCirculant, 5, 0).round(3), std::out_of_range);
  EXPECT_THROW(MergeSchedule(Algorithm::kCirculant, 5, 0).round(-1), std::out_of_range);
  EXPECT_THROW(parse_algorithm("alg3"), std::invalid_argument);
  EXPECT_EQ(parse_algorithm("1"), Algorithm::kDissemination);
  EXPECT_EQ(parse_algorithm("alg1-printed"), Algorithm::kDisseminationPrinted);
  EXPECT_THROW(volume_blocks(Algorithm::kDisseminationPrinted, 7), std::invalid_argument);
}

// One rank of a random p up to 2^31 - 1: its sends are what it holds, they meet its partners'
// receives, every merge is of adjacent ranges and it ends with every block once; the volume is
// the closed form.
RC_GTEST_PROP(MergeScheduleProperty, RandomRankOfLargePIsValid, ()) {
  const std::int64_t p = *rosched_test::gen_p(kMaxProcesses);
  const std::int64_t rank = *rc::gen::inRange<std::int64_t>(0, p);
  for (const Algorithm a : kAllAlgorithms) {
    const MergePlan plan = make_plan(a, p);
    const sim::MergeRunResult run = sim::run_merge_ranks(plan, &rank, 1);
    RC_ASSERT(!run.counterexample);
    RC_ASSERT(run.stats.max_volume == volume_blocks(a, p));
  }
}

RC_GTEST_PROP(MergeScheduleProperty, EveryRankOfRandomSmallPIsValid, ()) {
  const std::int64_t p = *rosched_test::gen_p(1500);
  for (const Algorithm a : kAllAlgorithms) {
    const sim::MergeRunResult run = sim::run_merge(make_plan(a, p));
    RC_ASSERT(!run.counterexample);
    RC_ASSERT(run.stats.ranks == p);
  }
}

}  // namespace
}  // namespace rosched::merge
