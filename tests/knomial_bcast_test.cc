// The k-nomial tree broadcast (sched/knomial/knomial_bcast.h) against its definition by
// division, a brute-force level-by-level spread of the message from the root, the
// round-by-round run of the verifier (sim/knomial_run.h), and rank-local properties up to
// p = 2^31 - 1.
#include "sched/knomial/knomial_bcast.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "sim/knomial_run.h"
#include "sim/round_run.h"
#include "tests/gen_p.h"

namespace rosched {
namespace {

struct Move {
  std::int64_t round, peer;  // peer: a virtual rank
  bool send;
  bool operator==(const Move& o) const {
    return round == o.round && peer == o.peer && send == o.send;
  }
};

// Levels L: the least L with (ports + 1)^L >= p, counted by multiplying.
std::int64_t levels_of(std::int64_t p, std::int64_t ports) {
  std::int64_t levels = 0;
  for (std::int64_t s = 1; s < p; s *= ports + 1) ++levels;
  return levels;
}

// Virtual rank v's transfers by the definition: at level j (stride s = r^j, from L - 1 down to
// 0) v sends to v + i s, i = ports .. 1 (< p), in round (L - 1 - j) ports + ports - i if r s
// divides v, and receives from v - (v mod r s) in round (L - 1 - j) ports + ports - d, d the
// digit (v / s) mod r, if s divides v but r s does not.
std::vector<Move> reference_moves(std::int64_t p, std::int64_t ports, std::int64_t v) {
  std::vector<Move> out;
  const std::int64_t r = ports + 1, levels = levels_of(p, ports);
  std::vector<std::int64_t> stride(static_cast<std::size_t>(levels) + 1, 1);
  for (std::int64_t j = 1; j <= levels; ++j) stride[j] = stride[j - 1] * r;
  for (std::int64_t j = levels - 1; j >= 0; --j) {
    const std::int64_t s = stride[j], first = (levels - 1 - j) * ports;
    if (v % (s * r) == 0) {
      for (std::int64_t i = ports; i >= 1; --i) {
        if (v + i * s < p) out.push_back({first + ports - i, v + i * s, true});
      }
    } else if (v % s == 0) {
      const std::int64_t d = (v / s) % r;
      out.push_back({first + ports - d, v - d * s, false});
    }
  }
  return out;
}

std::vector<Move> schedule_moves(const KnomialBcastSchedule& s) {
  std::vector<Move> out;
  for (std::int64_t t = 0; t < s.rounds(); ++t) {
    const BcastRound r = s.round(t);
    EXPECT_FALSE(r.send && r.recv);
    if (r.recv) out.push_back({t, virtual_rank(r.recv->peer, s.root(), s.p()), false});
    if (r.send) out.push_back({t, virtual_rank(r.send->peer, s.root(), s.p()), true});
  }
  return out;
}

TEST(KnomialBcast, MatchesTheDefinition) {
  for (std::int64_t p = 1; p <= 300; ++p) {
    for (const std::int64_t ports : {1, 2, 3, 4, 7, 64}) {
      for (const std::int64_t root : {INT64_C(0), p / 2, p - 1}) {
        for (std::int64_t r = 0; r < p; ++r) {
          const KnomialBcastSchedule s(p, ports, r, root);
          ASSERT_EQ(s.n(), 1);
          ASSERT_EQ(s.rounds(), ports * levels_of(p, ports));
          ASSERT_EQ(schedule_moves(s), reference_moves(p, ports, virtual_rank(r, root, p)))
              << "p=" << p << " ports=" << ports << " root=" << root << " rank=" << r;
        }
      }
    }
  }
}

// Brute force: which ranks hold the message after each round. A rank sends only what it holds,
// every receive is met by its peer's send in the same round, every rank but the root receives
// exactly once, and after L levels all hold it; with one port, ceil(log2 p) rounds and after
// round t at most 2^(t+1) holders. The verifier's run passes the same cases.
TEST(KnomialBcast, EveryRankReceivesOnceFromAHolder) {
  for (std::int64_t p = 1; p <= 100; ++p) {
    for (const std::int64_t ports : {1, 2, 3, 5}) {
      for (std::int64_t root = 0; root < p; ++root) {
        std::vector<KnomialBcastSchedule> ranks;
        for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(p, ports, r, root);
        std::vector<bool> holds(p, false);
        std::vector<int> receives(p, 0);
        holds[root] = true;
        for (std::int64_t t = 0; t < ranks[0].rounds(); ++t) {
          std::vector<bool> next = holds;
          for (std::int64_t r = 0; r < p; ++r) {
            const BcastRound got = ranks[r].round(t);
            if (got.send) {
              ASSERT_TRUE(holds[r]) << p << " " << root << " " << r << " " << t;
              const BcastRound peer = ranks[got.send->peer].round(t);
              ASSERT_TRUE(peer.recv && peer.recv->peer == r);
            }
            if (got.recv) {
              ASSERT_EQ(got.recv->block, 0);
              const BcastRound peer = ranks[got.recv->peer].round(t);
              ASSERT_TRUE(peer.send && peer.send->peer == r);
              ++receives[r];
              next[r] = true;
            }
          }
          holds.swap(next);
          if (ports == 1) {
            std::int64_t count = 0;
            for (std::int64_t r = 0; r < p; ++r) count += holds[r] ? 1 : 0;
            ASSERT_LE(count, INT64_C(2) << t);
          }
        }
        for (std::int64_t r = 0; r < p; ++r) {
          ASSERT_TRUE(holds[r]);
          ASSERT_EQ(receives[r], r == root ? 0 : 1);
        }
        if (ports == 1) ASSERT_EQ(ranks[0].rounds(), ceil_log2(p));
        // The verifier's run agrees.
        const auto run = sim::run_knomial_bcast(p, ports, root);
        ASSERT_FALSE(run.counterexample) << run.counterexample->describe();
      }
    }
  }
}

// The run catches a broadcast that sends before it holds the message, or to the wrong rank.
TEST(KnomialBcast, VerifierRunCatchesMutations) {
  for (const std::int64_t ports : {1, 3}) {
    const std::int64_t p = 13, root = 5;
    std::vector<KnomialBcastSchedule> ranks;
    for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(p, ports, r, root);
    const std::int64_t rounds = ranks[0].rounds();
    // Every round of rank root + 1 one round earlier: it sends before it has received.
    const auto early = [&](std::int64_t r, std::int64_t t) {
      const std::int64_t shifted = r == (root + 1) % p && t + 1 < rounds ? t + 1 : t;
      return ranks[r].round(shifted);
    };
    EXPECT_TRUE(sim::run_bcast_rounds("m", "", p, 1, root, rounds, early).counterexample);
    const auto wrong_peer = [&](std::int64_t r, std::int64_t t) {
      BcastRound round = ranks[r].round(t);
      if (round.send && t == 0) round.send->peer = (round.send->peer + 1) % p;
      return round;
    };
    EXPECT_TRUE(sim::run_bcast_rounds("m", "", p, 1, root, rounds, wrong_peer).counterexample);
  }
}

TEST(KnomialBcast, RejectsBadArguments) {
  EXPECT_THROW(KnomialBcastSchedule(0, 1, 0, 0), std::invalid_argument);
  EXPECT_THROW(KnomialBcastSchedule(INT64_C(1) << 31, 1, 0, 0), std::invalid_argument);
  EXPECT_THROW(KnomialBcastSchedule(4, 0, 0, 0), std::invalid_argument);
  EXPECT_THROW(KnomialBcastSchedule(4, kMaxKnomialPorts + 1, 0, 0), std::invalid_argument);
  EXPECT_THROW(KnomialBcastSchedule(4, 1, 4, 0), std::invalid_argument);
  EXPECT_THROW(KnomialBcastSchedule(4, 1, 0, -1), std::invalid_argument);
  const KnomialBcastSchedule s(5, 1, 1, 0);
  EXPECT_THROW(s.round(-1), std::out_of_range);
  EXPECT_THROW(s.round(3), std::out_of_range);
  EXPECT_EQ(KnomialBcastSchedule(1, 3, 0, 0).rounds(), 0);
  EXPECT_EQ(KnomialBcastSchedule(1152, 5, 0, 0).rounds(), 5 * 4);    // 6^4 = 1296 >= 1152
  EXPECT_EQ(KnomialBcastSchedule(1152, 10, 0, 0).rounds(), 10 * 3);  // 11^3 = 1331
}

// For any p and ports: a non-root receives once, from the parent of its reduction, before its
// first send, and the peer's round holds the matching send; every transfer is the definition's.
RC_GTEST_PROP(KnomialBcast, RankLocalPropertiesUpTo2To31, ()) {
  const std::int64_t p = *rosched_test::gen_p((INT64_C(1) << 31) - 1);
  const std::int64_t ports = *rc::gen::element<std::int64_t>(1, 1, 2, 3, 7, 15, 64);
  const std::int64_t rank = *rc::gen::inRange<std::int64_t>(0, p);
  const std::int64_t root = *rc::gen::inRange<std::int64_t>(0, p);
  const KnomialBcastSchedule s(p, ports, rank, root);
  const std::vector<Move> want = reference_moves(p, ports, virtual_rank(rank, root, p));
  std::size_t next = 0;
  int receives = 0;
  for (std::int64_t t = 0; t < s.rounds(); ++t) {
    const BcastRound r = s.round(t);
    RC_ASSERT(!(r.send && r.recv));
    if (!r.send && !r.recv) continue;
    RC_ASSERT(next < want.size());
    RC_ASSERT(want[next].round == t);
    RC_ASSERT(want[next].send == r.send.has_value());
    const Transfer x = r.send ? *r.send : *r.recv;
    RC_ASSERT(virtual_rank(x.peer, root, p) == want[next].peer);
    const BcastRound other = KnomialBcastSchedule(p, ports, x.peer, root).round(t);
    if (r.send) {
      RC_ASSERT(rank == root || receives == 1);
      RC_ASSERT(other.recv && other.recv->peer == rank);
    } else {
      ++receives;
      RC_ASSERT(x.peer == s.forward().parent());
      RC_ASSERT(other.send && other.send->peer == rank);
    }
    ++next;
  }
  RC_ASSERT(next == want.size());
  RC_ASSERT(receives == (rank == root ? 0 : 1));
}

}  // namespace
}  // namespace rosched
