// The shared round runner (sim/round_run.h) on hand-made broadcasts of p = 4: a correct binomial
// broadcast passes, and each kind of broken round is caught with the rank and round named; the
// same broadcast backwards as a reduction, with and without rank order.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <optional>
#include <utility>

#include "sim/round_run.h"

namespace rosched::sim {
namespace {

// rounds[i][r]: what rank r does in round i of a broadcast of n = 1 block from root 0.
using Plan = std::map<std::pair<std::int64_t, std::int64_t>, BcastRound>;

// Binomial tree on 4 ranks: round 0: 0 -> 1; round 1: 0 -> 2, 1 -> 3.
Plan binomial() {
  Plan plan;
  plan[{0, 0}].send = Transfer{1, 0};
  plan[{0, 1}].recv = Transfer{0, 0};
  plan[{1, 0}].send = Transfer{2, 0};
  plan[{1, 2}].recv = Transfer{0, 0};
  plan[{1, 1}].send = Transfer{3, 0};
  plan[{1, 3}].recv = Transfer{1, 0};
  return plan;
}

RunResult run(const Plan& plan, std::int64_t rounds = 2) {
  return run_bcast_rounds("test-run", "hand-made", 4, 1, 0, rounds,
                          [&](std::int64_t r, std::int64_t i) {
                            const auto it = plan.find({i, r});
                            return it == plan.end() ? BcastRound{} : it->second;
                          });
}

void expect_failure(const Plan& plan, const char* kind, std::int64_t rank, std::int64_t round) {
  const RunResult result = run(plan);
  ASSERT_TRUE(result.counterexample.has_value()) << kind;
  EXPECT_EQ(result.counterexample->kind, kind);
  EXPECT_EQ(result.counterexample->rank, rank) << kind;
  EXPECT_EQ(result.counterexample->round, round) << kind;
  EXPECT_EQ(result.counterexample->check, "test-run");
}

TEST(RoundRun, CorrectBroadcastPasses) {
  const RunResult result = run(binomial());
  EXPECT_FALSE(result.counterexample.has_value()) << result.counterexample->describe();
  EXPECT_EQ(result.rounds_used, 2);
}

TEST(RoundRun, BrokenRoundsAreNamed) {
  Plan p = binomial();
  p[{1, 3}].recv.reset();  // rank 1 sends to 3, which does not receive
  expect_failure(p, "send-without-receive", 1, 1);

  p = binomial();
  p[{1, 3}].recv->block = 0;
  p[{1, 1}].send->block = 0;
  p[{0, 1}].recv.reset();  // ... and rank 1 never got the block it sends
  p[{0, 0}].send.reset();
  expect_failure(p, "send-before-receive", 1, 1);

  p = binomial();
  p[{1, 3}].recv->peer = 2;  // 3 expects the block from 2, which sends nothing to it
  expect_failure(p, "send-without-receive", 1, 1);

  p = binomial();
  p[{1, 2}].recv->block = 7;  // out of range on the receiving side only
  p[{1, 0}].send->block = 7;
  expect_failure(p, "block-out-of-range", 0, 1);

  p = binomial();
  p[{1, 0}].send->peer = 9;
  expect_failure(p, "bad-peer", 0, 1);

  p = binomial();
  p.erase({1, 1});  // rank 3 never gets the block
  p.erase({1, 3});
  expect_failure(p, "missing-block", 3, 2);

  p = binomial();
  p[{1, 1}].send = Transfer{0, 0};  // to the root
  p[{1, 0}].recv = Transfer{1, 0};
  p[{1, 3}].recv.reset();
  expect_failure(p, "root-receives", 0, 1);
}

TEST(RoundRun, DuplicateReceiveIsCaught) {
  Plan p = binomial();
  p[{2, 0}].send = Transfer{1, 0};  // a third round sends rank 1 its block again
  p[{2, 1}].recv = Transfer{0, 0};
  const RunResult result = run(p, 3);
  ASSERT_TRUE(result.counterexample.has_value());
  EXPECT_EQ(result.counterexample->kind, "duplicate-block");
  EXPECT_EQ(result.counterexample->rank, 1);
}

// The hook before each round sees what the ranks hold.
TEST(RoundRun, HookSeesHeldBlocks) {
  const Plan plan = binomial();
  BcastRun state("test-run", "hook", 4, 1, 0);
  std::int64_t holders_before_round_1 = -1;
  const RunResult result = run_bcast_rounds(
      state, 2,
      [&](std::int64_t r, std::int64_t i) {
        const auto it = plan.find({i, r});
        return it == plan.end() ? BcastRound{} : it->second;
      },
      [&](const BcastRun& s, std::int64_t i) -> std::optional<Counterexample> {
        if (i == 1) {
          holders_before_round_1 = 0;
          for (std::int64_t r = 0; r < 4; ++r) holders_before_round_1 += s.holds(r, 0);
        }
        return std::nullopt;
      });
  EXPECT_FALSE(result.counterexample.has_value());
  EXPECT_EQ(holders_before_round_1, 2);
}

// The binomial broadcast run backwards (sched/round.h, reversed) as a reduction to rank 0:
// round 0: 2 -> 0, 3 -> 1; round 1: 1 -> 0. Rank 0 combines rank 2's value before rank 1's.
RunResult run_reversed(const Plan& plan, bool rank_order) {
  return run_reduce_rounds(
      "test-reduce", "hand-made", 4, 1, 0, 2,
      [&](std::int64_t r, std::int64_t i) {
        const auto it = plan.find({1 - i, r});
        return it == plan.end() ? ReduceRound{} : reversed(it->second);
      },
      rank_order ? std::function<std::int64_t(std::int64_t)>([](std::int64_t r) { return r; })
                 : nullptr);
}

TEST(RoundRun, ReversedBroadcastIsACommutativeReduction) {
  EXPECT_FALSE(run_reversed(binomial(), false).counterexample.has_value());
  // Out of rank order: caught where the order is asked for.
  const RunResult ordered = run_reversed(binomial(), true);
  ASSERT_TRUE(ordered.counterexample.has_value());
  EXPECT_EQ(ordered.counterexample->kind, "out-of-order");
  EXPECT_EQ(ordered.counterexample->rank, 0);
  EXPECT_EQ(ordered.counterexample->round, 0);
}

TEST(RoundRun, CommutativeReductionCountsContributions) {
  // Rank 3 never sends its value (nor does rank 1 wait for it): the root ends with 3 of 4.
  Plan plan = binomial();
  plan.erase({1, 1});
  plan.erase({1, 3});
  const RunResult lost = run_reversed(plan, false);
  ASSERT_TRUE(lost.counterexample.has_value());
  EXPECT_EQ(lost.counterexample->kind, "incomplete-result");
  EXPECT_EQ(lost.counterexample->rank, 0);
  // Rank 1 sends its partial result in both rounds: caught as the second send.
  plan = binomial();
  plan[{1, 1}] = BcastRound{std::nullopt, Transfer{0, 0}};  // backwards: 1 -> 0 in round 0
  plan[{1, 0}] = BcastRound{Transfer{1, 0}, std::nullopt};  // and 0 receives from 1 then
  plan.erase({1, 2});
  plan.erase({1, 3});
  const RunResult twice = run_reversed(plan, false);
  ASSERT_TRUE(twice.counterexample.has_value());
  EXPECT_EQ(twice.counterexample->kind, "sent-twice");
  EXPECT_EQ(twice.counterexample->rank, 1);
  EXPECT_EQ(twice.counterexample->round, 1);
}

}  // namespace
}  // namespace rosched::sim
