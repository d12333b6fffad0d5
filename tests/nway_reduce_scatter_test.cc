// The n-port reduce-scatter (sched/nway/nway_reduce_scatter.h, sim/nway_reduce_scatter_run.h):
// against a reference that combines explicit contributor counts rank by rank, the circulant
// reduce-scatter's rounds for n = 1, mutations caught, and the run at 1,152 ranks.
#include "sched/nway/nway_reduce_scatter.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sched/circulant/reduce_scatter_schedule.h"
#include "sim/nway_reduce_scatter_run.h"

namespace rosched {
namespace {

// Runs the rounds on every rank with explicit counts: part[r][t][x] is how often rank x's
// contribution is in rank r's partial result of block (r + t) mod p. A rank sends offsets
// [d, d + count) as they were at the round's start, which it must hold (kept[r] > d + count - 1)
// and gives up; the receiver combines them into its offsets [0, count). At the end every rank
// holds block r alone with each contribution once. Returns false at the first violation.
bool reference_run(std::int64_t p, std::int64_t n) {
  const NwayPlan plan = nway_allgather_plan(p, n);
  using Counts = std::vector<int>;
  std::vector<std::vector<Counts>> part(p, std::vector<Counts>(p, Counts(p, 0)));
  for (std::int64_t r = 0; r < p; ++r) {
    for (std::int64_t t = 0; t < p; ++t) part[r][t][r] = 1;
  }
  std::vector<std::int64_t> kept(p, p);  // offsets [0, kept[r]) held
  for (int j = 0; j < plan.rounds(); ++j) {
    const std::vector<std::vector<Counts>> start = part;
    const std::vector<std::int64_t> start_kept = kept;
    const std::vector<NwayAllgatherMessage> round = nway_reduce_scatter_round(plan, j);
    if (static_cast<std::int64_t>(round.size()) > n) return false;
    std::int64_t lowest_sent = p;
    for (const NwayAllgatherMessage& m : round) lowest_sent = std::min(lowest_sent, m.distance);
    for (std::int64_t s = 0; s < p; ++s) {
      for (const NwayAllgatherMessage& m : round) {
        const std::int64_t to = (s + m.distance) % p;
        if (nway_reduce_scatter_peers(plan, to, m).from != s) return false;
        for (std::int64_t t = 0; t < m.count; ++t) {
          // Offset distance + t of s is block s + distance + t = to + t: offset t of `to`.
          if (m.distance + t >= start_kept[s] || t >= lowest_sent) return false;
          for (std::int64_t x = 0; x < p; ++x) part[to][t][x] += start[s][m.distance + t][x];
        }
      }
    }
    for (std::int64_t r = 0; r < p; ++r) kept[r] = lowest_sent;
  }
  for (std::int64_t r = 0; r < p; ++r) {
    if (kept[r] != 1) return false;
    for (std::int64_t x = 0; x < p; ++x) {
      if (part[r][0][x] != 1) return false;
    }
  }
  return true;
}

TEST(NwayReduceScatter, ReferenceRunEveryPAndN) {
  for (std::int64_t p = 1; p <= 40; ++p) {
    for (std::int64_t n = 1; n <= 8; ++n) {
      ASSERT_TRUE(reference_run(p, n)) << "p=" << p << " n=" << n;
      const NwayPlan plan = nway_allgather_plan(p, n);
      ASSERT_FALSE(sim::run_nway_reduce_scatter(plan)) << "p=" << p << " n=" << n;
    }
  }
}

TEST(NwayReduceScatter, RunPassesUpTo3000AndAtScale) {
  for (std::int64_t p = 1; p <= 3000; p += (p < 300 ? 1 : 37)) {
    for (const std::int64_t n : {1, 2, 3, 5, 10, 35, 64}) {
      if (n > p - 1 && p > 1) continue;
      const NwayPlan plan = nway_allgather_plan(p, n);
      const auto ce = sim::run_nway_reduce_scatter(plan);
      ASSERT_FALSE(ce) << ce->describe();
    }
  }
  for (const std::int64_t n : {1, 5, 10, 35}) {
    ASSERT_FALSE(sim::run_nway_reduce_scatter(nway_allgather_plan(1152, n))) << n;
  }
}

// For n = 1 the rounds are the circulant reduce-scatter's (Algorithm 7 backwards): the same
// peers, sent offsets and counts.
TEST(NwayReduceScatter, OnePortIsTheCirculantReduceScatter) {
  for (std::int64_t p = 2; p <= 600; ++p) {
    const NwayPlan plan = nway_allgather_plan(p, 1);
    const Skips s(p);
    ASSERT_EQ(plan.rounds(), s.q()) << p;
    for (int j = 0; j < s.q(); ++j) {
      const std::vector<NwayAllgatherMessage> round = nway_reduce_scatter_round(plan, j);
      ASSERT_EQ(round.size(), 1u) << p << " " << j;
      const ReduceScatterRound c = reduce_scatter_round(s, 0, j);
      const NwayAllgatherPeers peers = nway_reduce_scatter_peers(plan, 0, round[0]);
      EXPECT_EQ(peers.to, c.to) << p << " " << j;
      EXPECT_EQ(peers.from, c.from) << p << " " << j;
      EXPECT_EQ(round[0].distance, c.send_offset) << p << " " << j;
      EXPECT_EQ(round[0].count, c.send_count) << p << " " << j;
      EXPECT_EQ(c.recv_offset, 0) << p << " " << j;
      EXPECT_EQ(round[0].count, c.recv_count) << p << " " << j;
    }
  }
}

TEST(NwayReduceScatter, RoundOutOfRangeThrows) {
  const NwayPlan plan = nway_allgather_plan(125, 4);
  EXPECT_THROW(nway_reduce_scatter_round(plan, 3), std::out_of_range);
  EXPECT_THROW(nway_reduce_scatter_round(plan, -1), std::out_of_range);
  EXPECT_EQ(nway_reduce_scatter_round(plan, 0).front().distance, 25);  // all-gather's last
}

// Mutations: each caught, naming the kind and round.
TEST(NwayReduceScatter, MutationsAreCaught) {
  const NwayPlan plan = nway_allgather_plan(40, 3);  // skips 1, 3, 10, 40
  const auto mutated = [&](int at, auto change) {
    return [&plan, at, change](int j) {
      std::vector<NwayAllgatherMessage> r = nway_reduce_scatter_round(plan, j);
      if (j == at) change(r);
      return r;
    };
  };
  // The last message of round 0 dropped: its offsets are neither sent nor kept.
  auto c = sim::run_nway_reduce_scatter(plan, mutated(0, [](auto& r) { r.pop_back(); }));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, "lost");
  EXPECT_EQ(c->round, 0);
  // A message one block too long in round 1 (held 10): it sends an offset it keeps.
  c = sim::run_nway_reduce_scatter(plan, mutated(1, [](auto& r) { r[0].count += 1; }));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->round, 1);
  // The second message's distance moved onto the first's: offsets combined twice.
  c = sim::run_nway_reduce_scatter(plan, mutated(2, [](auto& r) { r[1].distance = 1; }));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->round, 2);
  // The rounds in the all-gather's order (not reversed): what round 0 sends is not held.
  c = sim::run_nway_reduce_scatter(plan, [&](int j) { return nway_allgather_round(plan, j); });
  ASSERT_TRUE(c);
  EXPECT_EQ(c->round, 0);
  // A port too many (round 0 already uses all three).
  c = sim::run_nway_reduce_scatter(plan, mutated(0, [](auto& r) { r.push_back({4, 1, 1}); }));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, "too-many-ports");
}

}  // namespace
}  // namespace rosched
