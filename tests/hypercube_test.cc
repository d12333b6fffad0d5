// Bin Jia's hypercube broadcast (sched/hypercube.h, sched/hypercube_schedule.h) against the
// lecture's worked examples, a reference that follows the lecture's recursive role definitions
// round by round, the verifier's checks, and local properties for p up to 2^31 - 1.
#include "sched/hypercube/hypercube.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <optional>
#include <stdexcept>
#include <vector>

#include "sched/hypercube/hypercube_schedule.h"
#include "tests/gen_p.h"
#include "sim/hypercube_run.h"
#include "verify/hypercube_check.h"
#include "sim/round_run.h"

namespace rosched {
namespace {

std::int64_t s_of(std::int64_t i, std::int64_t j, int q) {
  return jia_send_block(i, cube_round(j, q), nextbit(i, q));
}
std::int64_t t_of(std::int64_t i, std::int64_t j, int q) {
  return jia_recv_block(i, cube_round(j, q), nextbit(i, q));
}
// The slides print blocks clamped to M - 1 and "nothing" (negative) as -1.
std::int64_t shown(std::int64_t b, std::int64_t m) { return b < 0 ? -1 : std::min(b, m - 1); }

TEST(Hypercube, NextBitReproducesTheSlideExample) {
  const NextBit nb = nextbit(0b010011, 6);
  const int expected[] = {1, 3, 2, 1, 2, 1};
  for (int k = 0; k < 6; ++k) EXPECT_EQ(nb[k], expected[k]) << "k=" << k;
  for (int k = 0; k < 5; ++k) EXPECT_EQ(nextbit(0, 5)[k], 5);
}

// p = 8, M = 5: the blocks the slides list for processors 2..7 (7 = 5 + 3 - 1 rounds).
TEST(Hypercube, BlocksReproduceTheSlideExampleP8M5) {
  const int q = 3, m = 5;
  struct Entry { std::int64_t i, j, s, t; };
  const Entry slide[] = {{4, 3, 2, 0}, {5, 3, 0, 2}, {4, 4, 2, 1}, {6, 4, 1, 2}, {2, 5, 4, 2},
                         {6, 5, 2, 4}, {2, 6, 4, 3}, {3, 6, 3, 4}, {7, 3, 0, 1}, {7, 4, 1, 2},
                         {7, 5, 2, 3}, {7, 6, 3, 4}, {5, 4, 2, 1}, {5, 5, 2, 3}, {5, 6, 3, 4}};
  for (const Entry& e : slide) {
    EXPECT_EQ(shown(s_of(e.i, e.j, q), m), e.s) << "s(" << e.i << ", " << e.j << ")";
    EXPECT_EQ(shown(t_of(e.i, e.j, q), m), e.t) << "t(" << e.i << ", " << e.j << ")";
  }
  EXPECT_EQ(shown(t_of(7, 0, q), m), -1);
  EXPECT_EQ(shown(t_of(7, 2, q), m), 0);
  EXPECT_EQ(shown(t_of(5, 0, q), m), -1);
  EXPECT_EQ(shown(t_of(5, 2, q), m), 0);
  EXPECT_EQ(HypercubeBcastSchedule(8, m, 0, 0).rounds(), 7);
}

TEST(Hypercube, CooperatingUnitsFollowTheCorrectedDefinition) {
  // p = 11: q = 3, excess processors 8, 9, 10 pair with 1, 2, 3; 4..7 are singletons.
  const std::int64_t co[] = {0, 8, 9, 10, 4, 5, 6, 7, 1, 2, 3};
  for (std::int64_t i = 0; i < 11; ++i) {
    EXPECT_EQ(hypercube_co(11, 3, i), co[i]) << "i=" << i;
    EXPECT_EQ(hypercube_rep(11, 3, i), std::min(i, co[i])) << "i=" << i;
  }
  EXPECT_EQ(hypercube_dim(1), 0);
  EXPECT_EQ(hypercube_dim(11), 3);
  EXPECT_EQ(hypercube_dim(kMaxProcesses), 30);
}

// A reference that follows the lecture literally: roles by the recursion out(j + 1) = out(j) if
// bit(rep, j) = 0 else in(j), in(j) = co(out(j)), walked from round 0 (O(j) per round); the
// partner unit's roles from its own recursion; the pseudo-code's three cases and the extra round.
BcastRound reference_round(std::int64_t p, std::int64_t n, std::int64_t x, std::int64_t j) {
  const int q = hypercube_dim(p);
  const auto co = [&](std::int64_t i) { return hypercube_co(p, q, i); };
  const auto rep = [&](std::int64_t i) { return hypercube_rep(p, q, i); };
  const auto out_of = [&](std::int64_t r, std::int64_t round) {
    std::int64_t out = co(r);
    for (std::int64_t k = 0; k < round; ++k) {
      if ((r >> (k % q)) & 1) out = co(out);  // switch to the in processor
    }
    return out;
  };
  const auto block = [&](std::int64_t b) -> std::optional<std::int64_t> {
    if (b < 0) return std::nullopt;
    return std::min(b, n - 1);
  };
  BcastRound r;
  const auto set = [](std::optional<Transfer>& slot, std::int64_t peer, std::optional<std::int64_t> b) {
    if (b) slot = Transfer{peer, *b};
  };
  const std::int64_t me = rep(x), partner = me ^ (std::int64_t{1} << (j % q));
  const std::int64_t out = out_of(me, j), partner_out = out_of(partner, j);
  if (j == n - 1 + q) {
    if (co(x) == x) return r;
    set(r.send, co(x), block(x == out ? n - 1 : n - 2));
    set(r.recv, co(x), block(x == out ? n - 2 : n - 1));
    return r;
  }
  if (co(x) == x) {
    if (partner != 0) set(r.send, co(partner_out), block(s_of(me, j, q)));
    if (x != 0) set(r.recv, partner_out, block(t_of(me, j, q)));
  } else if (x == out) {
    if (partner != 0) set(r.send, co(partner_out), block(s_of(me, j, q)));
    set(r.recv, co(x), block(j - q - 1));
  } else {
    set(r.send, co(x), block(j - q - 1));
    set(r.recv, partner_out, block(t_of(me, j, q)));
  }
  return r;
}

TEST(Hypercube, ScheduleEqualsTheLiteralReference) {
  for (std::int64_t p = 2; p <= 70; ++p) {
    for (const std::int64_t n : {1, 2, 3, 7}) {
      for (std::int64_t x = 0; x < p; ++x) {
        const HypercubeBcastSchedule s(p, n, x, 0);
        for (std::int64_t j = 0; j < s.rounds(); ++j) {
          const BcastRound got = s.round(j), want = reference_round(p, n, x, j);
          ASSERT_EQ(got.send, want.send) << "p=" << p << " n=" << n << " x=" << x << " j=" << j;
          ASSERT_EQ(got.recv, want.recv) << "p=" << p << " n=" << n << " x=" << x << " j=" << j;
        }
      }
    }
  }
}

TEST(Hypercube, VerifierPassesSmallPEveryRootAndN) {
  for (int q = 0; q <= 8; ++q) {
    const auto c = verify::check_hypercube_cube(q);
    ASSERT_FALSE(c) << c->describe();
  }
  for (std::int64_t p = 1; p <= 80; ++p) {
    const auto u = verify::check_hypercube_units(p);
    ASSERT_FALSE(u) << u->describe();
    for (std::int64_t root = 0; root < p; ++root) {
      for (const std::int64_t n : {1, 2, 3, 4, 9}) {
        const auto c = sim::run_hypercube(p, n, root);
        ASSERT_FALSE(c) << c->describe();
      }
    }
  }
}

// Changing one rank's block or dropping one of its receives is caught, naming that rank or its
// peer in that round.
TEST(Hypercube, RunsCatchCorruptedSchedules) {
  const std::int64_t p = 13, n = 5, root = 3, victim = 9;
  std::vector<HypercubeBcastSchedule> s;
  for (std::int64_t r = 0; r < p; ++r) s.emplace_back(p, n, r, root);
  for (int mutation = 0; mutation < 2; ++mutation) {
    int seen = 0;
    const auto run = sim::run_bcast_rounds(
        "test", "", p, n, root, s[0].rounds(), [&](std::int64_t r, std::int64_t i) {
          BcastRound round = s[r].round(i);
          if (r == victim && round.recv && seen++ == 2) {
            if (mutation == 0) round.recv->block = (round.recv->block + 1) % n;
            else round.recv.reset();
          }
          return round;
        });
    ASSERT_TRUE(run.counterexample) << "mutation " << mutation;
    const auto& c = *run.counterexample;
    const auto sent = s[c.rank].round(c.round).send;
    EXPECT_TRUE(c.rank == victim || c.expected == victim || (sent && sent->peer == victim))
        << c.describe();
  }
}

TEST(Hypercube, BadInputThrows) {
  EXPECT_THROW(hypercube_dim(0), std::invalid_argument);
  EXPECT_THROW(hypercube_dim(std::int64_t{1} << 31), std::invalid_argument);
  EXPECT_THROW(HypercubeRank(5, 5), std::invalid_argument);
  EXPECT_THROW(HypercubeRank(5, -1), std::invalid_argument);
  EXPECT_THROW(HypercubeBcastSchedule(5, 0, 1, 0), std::invalid_argument);
  EXPECT_THROW(HypercubeBcastSchedule(5, 3, 1, 5), std::invalid_argument);
  EXPECT_THROW(HypercubeBcastSchedule(0, 3, 0, 0), std::invalid_argument);
  const HypercubeBcastSchedule s(5, 3, 1, 0);
  EXPECT_EQ(s.rounds(), 3 - 1 + 3);
  EXPECT_THROW(s.round(s.rounds()), std::out_of_range);
  EXPECT_THROW(s.round(-1), std::out_of_range);
  EXPECT_EQ(HypercubeBcastSchedule(1, 4, 0, 0).rounds(), 0);
}

// Random p up to 2^31 - 1, a random rank and round: what it sends meets the receive of its peer
// (same block, from it) and what it receives is what its peer sends; the lecture's
// propositions hold for its unit's representative; its roles are its unit's.
RC_GTEST_PROP(HypercubeProperty, LocalConditionsHoldForLargeP, ()) {
  const std::int64_t p = *rosched_test::gen_p(kMaxProcesses);
  RC_PRE(p >= 2);
  const std::int64_t n = *rc::gen::inRange<std::int64_t>(1, 200);
  const std::int64_t root = *rc::gen::inRange<std::int64_t>(0, p);
  const std::int64_t rank = *rc::gen::inRange<std::int64_t>(0, p);
  const HypercubeBcastSchedule me(p, n, rank, root);
  const std::int64_t j = *rc::gen::inRange<std::int64_t>(0, me.rounds());
  const BcastRound r = me.round(j);
  if (r.send) {
    const auto theirs = HypercubeBcastSchedule(p, n, r.send->peer, root).round(j).recv;
    RC_ASSERT(theirs.has_value());
    RC_ASSERT(theirs->peer == rank);
    RC_ASSERT(theirs->block == r.send->block);
  }
  if (r.recv) {
    RC_ASSERT(rank != root);
    const auto theirs = HypercubeBcastSchedule(p, n, r.recv->peer, root).round(j).send;
    RC_ASSERT(theirs.has_value());
    RC_ASSERT(theirs->peer == rank);
    RC_ASSERT(theirs->block == r.recv->block);
  }
  const HypercubeRank& v = me.virtual_rank();
  const int q = v.q();
  const CubeRound cr = v.round(j);
  const std::int64_t partner = v.partner(cr);
  RC_ASSERT(nextbit(partner, q)[cr.k] == v.nextbit()[cr.k]);
  RC_ASSERT(jia_recv_block(partner, cr, nextbit(partner, q)) == v.send_block(cr));
  if (v.rep() != 0) {
    const std::int64_t next = v.send_block(v.round(j + 1));
    RC_ASSERT(next == (jia_bit(v.rep(), cr) ? v.recv_block(cr) : v.send_block(cr)));
  }
  const HypercubeRank other(p, partner);
  RC_ASSERT(other.out(cr) == v.partner_out(cr));
  RC_ASSERT(other.in(cr) == v.partner_in(cr));
  RC_ASSERT(v.in(cr) == hypercube_co(p, q, v.out(cr)));
}

}  // namespace
}  // namespace rosched
