// The n-port all-gather (sched/nway/nway_allgather.h, sim/nway_allgather_run.h): against a
// reference that moves explicit sets of contributions, the same rounds as Algorithm 7 for n = 1,
// the round count and port bound, mutation tests naming the rank and round, local runs for p up
// to 2^31 - 1.
#include "sched/nway/nway_allgather.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>
#include <vector>

#include "sched/circulant/allgather_schedule.h"
#include "sim/nway_allgather_run.h"
#include "tests/gen_p.h"

namespace rosched {
namespace {

// Rounds of a radix-b dissemination by repeated multiplication.
int rounds_by_powers(std::int64_t p, std::int64_t b) {
  int k = 0;
  for (std::int64_t x = 1; x < p; x *= b) ++k;
  return k;
}

// Runs the rounds on explicit sets: has[r][j] is whether rank r holds rank j's contribution.
// A rank sends contributions (r + t) mod p for t in [0, count), which it must hold at the start
// of the round; the receiver must not hold them yet. Returns false at the first violation.
bool reference_run(std::int64_t p, std::int64_t n) {
  const NwayPlan plan = nway_allgather_plan(p, n);
  std::vector<std::vector<bool>> has(p, std::vector<bool>(p, false));
  for (std::int64_t r = 0; r < p; ++r) has[r][r] = true;
  for (int i = 0; i < plan.rounds(); ++i) {
    const std::vector<std::vector<bool>> start = has;
    const std::vector<NwayAllgatherMessage> round = nway_allgather_round(plan, i);
    if (static_cast<std::int64_t>(round.size()) > n) return false;
    for (std::int64_t s = 0; s < p; ++s) {
      for (const NwayAllgatherMessage& m : round) {
        const std::int64_t to = ((s - m.distance) % p + p) % p;
        for (std::int64_t t = 0; t < m.count; ++t) {
          const std::int64_t j = (s + t) % p;
          if (!start[s][j] || has[to][j]) return false;
          has[to][j] = true;
        }
      }
    }
  }
  for (std::int64_t r = 0; r < p; ++r) {
    for (std::int64_t j = 0; j < p; ++j) {
      if (!has[r][j]) return false;
    }
  }
  return true;
}

TEST(NwayAllgather, ReferenceRunEveryPAndN) {
  for (std::int64_t p = 1; p <= 90; ++p) {
    for (std::int64_t n = 1; n <= 10; ++n) {
      ASSERT_TRUE(reference_run(p, n)) << "p=" << p << " n=" << n;
      const NwayPlan plan = nway_allgather_plan(p, n);
      ASSERT_EQ(plan.rounds(), rounds_by_powers(p, n + 1)) << "p=" << p << " n=" << n;
      ASSERT_FALSE(sim::run_nway_allgather(plan)) << "p=" << p << " n=" << n;
    }
  }
}

// For n = 1 the rounds are Algorithm 7's: the same skips, one message of the same count over the
// same distance.
TEST(NwayAllgather, OnePortIsAlgorithmSeven) {
  for (std::int64_t p = 2; p <= 600; ++p) {
    const NwayPlan plan = nway_allgather_plan(p, 1);
    const Skips s(p);
    ASSERT_EQ(plan.rounds(), s.q()) << p;
    for (int i = 0; i < s.q(); ++i) {
      const std::vector<NwayAllgatherMessage> round = nway_allgather_round(plan, i);
      ASSERT_EQ(round.size(), 1u) << p << " " << i;
      const AllgatherRound a = allgather_round(s, 0, i);
      EXPECT_EQ(round[0].distance, a.recv_offset) << p << " " << i;
      EXPECT_EQ(round[0].count, a.recv_count) << p << " " << i;
      EXPECT_EQ(nway_allgather_peers(plan, 0, round[0]).from, a.from) << p << " " << i;
      EXPECT_EQ(nway_allgather_peers(plan, 0, round[0]).to, a.to) << p << " " << i;
    }
  }
}

// p = (n + 1)^k: the plain dissemination, every round on all n ports with b^i contributions.
TEST(NwayAllgather, FullPowersUseEveryPort) {
  const NwayPlan plan = nway_allgather_plan(125, 4);
  ASSERT_EQ(plan.rounds(), 3);
  for (int i = 0; i < 3; ++i) {
    const std::vector<NwayAllgatherMessage> round = nway_allgather_round(plan, i);
    ASSERT_EQ(round.size(), 4u);
    for (int j = 1; j <= 4; ++j) {
      EXPECT_EQ(round[j - 1], (NwayAllgatherMessage{j, j * plan.power(i), plan.power(i)}));
    }
  }
  EXPECT_THROW(nway_allgather_round(plan, 3), std::out_of_range);
  EXPECT_THROW(nway_allgather_round(plan, -1), std::out_of_range);
  EXPECT_THROW(nway_allgather_plan(0, 2), std::invalid_argument);
  EXPECT_THROW(nway_allgather_plan(10, 65), std::invalid_argument);
}

// 1,152 ranks on 10 ports: 3 rounds (Algorithm 7: 11), skips 1, 10, 105, 1,152
// (ceil(1152 / 11) = 105, ceil(105 / 11) = 10).
TEST(NwayAllgather, ThousandRanksTenPorts) {
  const NwayPlan plan = nway_allgather_plan(1152, 10);
  ASSERT_EQ(plan.rounds(), 3);
  EXPECT_EQ(plan.skip(1), 10);
  EXPECT_EQ(plan.skip(2), 105);
  EXPECT_EQ(nway_allgather_round(plan, 0).size(), 9u);   // 1 -> 10: nine of one
  EXPECT_EQ(nway_allgather_round(plan, 1).size(), 10u);  // 10 -> 105: nine of 10, one of 5
  EXPECT_EQ(nway_allgather_round(plan, 1).back().count, 5);
  EXPECT_EQ(nway_allgather_round(plan, 2).size(), 10u);  // 105 -> 1,152: nine of 105, one of 102
  EXPECT_EQ(nway_allgather_round(plan, 2).back().count, 102);
  EXPECT_EQ(nway_allgather_round(plan, 2).back().distance, 1050);
}

// Mutations: each caught, naming the kind, rank and round.
TEST(NwayAllgather, MutationsAreCaught) {
  const NwayPlan plan = nway_allgather_plan(40, 3);
  const auto mutated = [&](int at, auto change) {
    return [&plan, at, change](int i) {
      std::vector<NwayAllgatherMessage> r = nway_allgather_round(plan, i);
      if (i == at) change(r);
      return r;
    };
  };
  // A message one contribution too long: the sender lacks it (round 0: it holds 1).
  auto c = sim::run_nway_allgather(plan, mutated(0, [](auto& r) { r[0].count += 1; }));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, "sends-unheld");
  EXPECT_EQ(c->round, 0);
  // The last message of round 1 dropped (skips 1, 3, 10, 40): every rank then holds 9 where
  // round 2 sends 10.
  c = sim::run_nway_allgather(plan, mutated(1, [](auto& r) { r.pop_back(); }));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, "sends-unheld");
  EXPECT_EQ(c->round, 2);
  EXPECT_EQ(c->actual, 9);
  // Two messages swapped: the ports out of order.
  c = sim::run_nway_allgather(plan, mutated(1, [](auto& r) { std::swap(r[0], r[1]); }));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, "port-order");
  EXPECT_EQ(c->round, 1);
  // A fourth port on a 3-port plan (round 2 uses all three).
  c = sim::run_nway_allgather(plan, mutated(2, [](auto& r) { r.push_back({4, 40, 1}); }));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, "too-many-ports");
  // The same mutations in a local run of rank 7.
  c = sim::run_nway_allgather_local(plan, mutated(0, [](auto& r) { r[0].count += 1; }), {7});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, "sends-unheld");
  c = sim::run_nway_allgather_local(plan, mutated(2, [](auto& r) { r.back().distance += 1; }), {7});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, "gap-or-overlap");
  EXPECT_EQ(c->rank, 7);
  EXPECT_EQ(c->round, 2);
}

RC_GTEST_PROP(NwayAllgatherProperty, LocalRunOfRandomRanks, ()) {
  const std::int64_t p = *rosched_test::gen_p(kMaxProcesses);
  const std::int64_t n = *rc::gen::inRange<std::int64_t>(1, 65);
  const std::int64_t rank = *rc::gen::inRange<std::int64_t>(0, p);
  const NwayPlan plan = nway_allgather_plan(p, n);
  RC_ASSERT(plan.rounds() == rounds_by_powers(p, n + 1));
  RC_ASSERT(!sim::run_nway_allgather_local(plan, {rank, 0, p - 1}));
}

RC_GTEST_PROP(NwayAllgatherProperty, EveryRankForRandomSmallP, ()) {
  const std::int64_t p = *rosched_test::gen_p(3000);
  const std::int64_t n = *rc::gen::inRange<std::int64_t>(1, 65);
  RC_ASSERT(!sim::run_nway_allgather(nway_allgather_plan(p, n)));
}

}  // namespace
}  // namespace rosched
