// The k-nomial tree reduction (sched/knomial/) against a brute-force reduction of explicit
// contribution lists driven by a level-by-level k-nomial gather (for one port the lecture's
// binomial gather loop, Träff's lecture notes, "Binomial tree gather"), the round-by-round run
// of the verifier (sim/knomial_run.h), and rank-local properties up to p = 2^31 - 1.
#include "sched/knomial/knomial_reduce.h"

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

// The transfers of virtual rank v at level j with `ports` ports, from the definition by
// division: v receives at level j from v + i r^j (i = 1..ports, < p) if r^(j+1) divides v, and
// sends to v - (v mod r^(j+1)) if r^j divides v but r^(j+1) does not. As (round, peer) pairs.
struct Move {
  std::int64_t round, peer;
  bool send;
};
std::vector<Move> reference_moves(std::int64_t p, std::int64_t ports, std::int64_t v) {
  std::vector<Move> out;
  const std::int64_t r = ports + 1;
  std::int64_t s = 1;
  for (std::int64_t j = 0; s < p; ++j, s *= r) {
    if (v % s != 0) break;
    if (v % (s * r) != 0) {
      const std::int64_t d = (v / s) % r;
      out.push_back({j * ports + d - 1, v - d * s, true});
      break;
    }
    for (std::int64_t i = 1; i <= ports; ++i) {
      if (v + i * s < p) out.push_back({j * ports + i - 1, v + i * s, false});
    }
  }
  return out;
}

// For one port, the lecture's loop: d = 1; while v & d != d and d < p: receive from v + d if
// v + d < p; d <<= 1. Then (v != 0) send to v - d. Round k is the iteration with d = 2^k.
std::vector<Move> lecture_moves(std::int64_t p, std::int64_t v) {
  std::vector<Move> out;
  std::int64_t d = 1, round = 0;
  while ((v & d) != d && d < p) {
    if (v + d < p) out.push_back({round, v + d, false});
    d <<= 1;
    ++round;
  }
  if (v != 0) out.push_back({round, v - d, true});
  return out;
}

std::vector<Move> schedule_moves(const KnomialReduceSchedule& s) {
  std::vector<Move> out;
  for (std::int64_t t = 0; t < s.rounds(); ++t) {
    const ReduceRound r = s.round(t);
    EXPECT_FALSE(r.send && r.recv);
    EXPECT_FALSE(r.recv_before_own);
    if (r.recv) out.push_back({t, virtual_rank(r.recv->peer, s.root(), s.p()), false});
    if (r.send) out.push_back({t, virtual_rank(r.send->peer, s.root(), s.p()), true});
  }
  return out;
}

bool same(const std::vector<Move>& a, const std::vector<Move>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].round != b[i].round || a[i].peer != b[i].peer || a[i].send != b[i].send) return false;
  }
  return true;
}

TEST(KnomialReduce, MatchesTheDefinitionAndTheLectureLoop) {
  for (std::int64_t p = 1; p <= 300; ++p) {
    for (const std::int64_t ports : {1, 2, 3, 4, 7, 64}) {
      for (const std::int64_t root : {INT64_C(0), p / 2, p - 1}) {
        for (std::int64_t r = 0; r < p; ++r) {
          const KnomialReduceSchedule s(p, ports, r, root);
          const std::int64_t v = virtual_rank(r, root, p);
          const std::vector<Move> got = schedule_moves(s);
          ASSERT_TRUE(same(got, reference_moves(p, ports, v)))
              << "p=" << p << " ports=" << ports << " root=" << root << " rank=" << r;
          if (ports == 1) {
            ASSERT_TRUE(same(got, lecture_moves(p, v))) << p << " " << r;
          }
        }
      }
    }
  }
}

// Brute force: explicit lists of the contributions each rank has combined, in order.
TEST(KnomialReduce, CombinesEveryContributionOnceInOrder) {
  for (std::int64_t p = 1; p <= 100; ++p) {
    for (const std::int64_t ports : {1, 2, 3, 5}) {
      for (std::int64_t root = 0; root < p; ++root) {
        std::vector<KnomialReduceSchedule> ranks;
        for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(p, ports, r, root);
        std::vector<std::vector<std::int64_t>> held(p);
        std::vector<int> sends(p, 0);
        for (std::int64_t r = 0; r < p; ++r) held[r] = {virtual_rank(r, root, p)};
        for (std::int64_t t = 0; t < ranks[0].rounds(); ++t) {
          std::vector<std::vector<std::int64_t>> next = held;
          for (std::int64_t r = 0; r < p; ++r) {
            const ReduceRound got = ranks[r].round(t);
            if (got.send) {
              ++sends[r];
              const ReduceRound parent = ranks[got.send->peer].round(t);
              ASSERT_TRUE(parent.recv && parent.recv->peer == r) << p << " " << root << " " << r;
            }
            if (got.recv) {
              ASSERT_EQ(sends[r], 0) << "receives after sending";
              const std::vector<std::int64_t>& theirs = held[got.recv->peer];
              next[r].insert(next[r].end(), theirs.begin(), theirs.end());
            }
          }
          held.swap(next);
        }
        std::vector<std::int64_t> all(p);
        for (std::int64_t v = 0; v < p; ++v) all[v] = v;
        ASSERT_EQ(held[root], all) << "p = " << p << ", ports = " << ports << ", root = " << root;
        for (std::int64_t r = 0; r < p; ++r) ASSERT_EQ(sends[r], r == root ? 0 : 1);
      }
    }
  }
}

TEST(KnomialReduce, VerifierRunPassesForEveryRoot) {
  for (std::int64_t p = 1; p <= 150; ++p) {
    for (const std::int64_t ports : {1, 2, 3, 8}) {
      for (std::int64_t root = 0; root < p; ++root) {
        const auto result = sim::run_knomial_reduce(p, ports, root);
        ASSERT_FALSE(result.counterexample) << result.counterexample->describe();
      }
    }
  }
}

// The run catches a reduction that combines on the wrong side or from the wrong rank.
TEST(KnomialReduce, VerifierRunCatchesMutations) {
  for (const std::int64_t ports : {1, 3}) {
    const std::int64_t p = 13, root = 5;
    std::vector<KnomialReduceSchedule> ranks;
    for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(p, ports, r, root);
    const auto order = [&](std::int64_t r) { return virtual_rank(r, root, p); };
    const std::int64_t rounds = ranks[0].rounds();
    const auto wrong_side = [&](std::int64_t r, std::int64_t t) {
      ReduceRound round = ranks[r].round(t);
      round.recv_before_own = round.recv.has_value() && r == root;
      return round;
    };
    EXPECT_TRUE(
        sim::run_reduce_rounds("m", "", p, 1, root, rounds, wrong_side, order).counterexample);
    const auto wrong_peer = [&](std::int64_t r, std::int64_t t) {
      ReduceRound round = ranks[r].round(t);
      if (round.send && t == ports) round.send->peer = (round.send->peer + 1) % p;
      return round;
    };
    EXPECT_TRUE(
        sim::run_reduce_rounds("m", "", p, 1, root, rounds, wrong_peer, order).counterexample);
  }
}

// ceil_log (sched/round.h), which the depth checks count with: powers, their neighbours, and
// base 2 against ceil_log2.
TEST(KnomialReduce, CeilLog) {
  for (std::int64_t base = 2; base <= 65; ++base) {
    EXPECT_EQ(ceil_log(1, base), 0);
    std::int64_t power = 1;
    for (int k = 1; power * base <= (INT64_C(1) << 31); ++k) {
      power *= base;
      EXPECT_EQ(ceil_log(power, base), k) << base;
      EXPECT_EQ(ceil_log(power + 1, base), k + 1) << base;
      EXPECT_EQ(ceil_log(power - 1, base), power - 1 == 1 ? 0 : k) << base;
    }
  }
  for (std::int64_t x = 1; x <= 5000; ++x) EXPECT_EQ(ceil_log(x, 2), ceil_log2(x)) << x;
}

TEST(KnomialReduce, RejectsBadArguments) {
  EXPECT_THROW(KnomialReduceSchedule(0, 1, 0, 0), std::invalid_argument);
  EXPECT_THROW(KnomialReduceSchedule(INT64_C(1) << 31, 1, 0, 0), std::invalid_argument);
  EXPECT_THROW(KnomialReduceSchedule(4, 0, 0, 0), std::invalid_argument);
  EXPECT_THROW(KnomialReduceSchedule(4, kMaxKnomialPorts + 1, 0, 0), std::invalid_argument);
  EXPECT_THROW(KnomialReduceSchedule(4, 1, 4, 0), std::invalid_argument);
  EXPECT_THROW(KnomialReduceSchedule(4, 1, 0, -1), std::invalid_argument);
  EXPECT_THROW(KnomialReduceSchedule(4, 1, -1, 0), std::invalid_argument);
  EXPECT_THROW(KnomialReduceSchedule(4, 1, 0, 4), std::invalid_argument);
  const KnomialReduceSchedule s(5, 1, 1, 0);
  EXPECT_THROW(s.round(-1), std::out_of_range);
  EXPECT_THROW(s.round(3), std::out_of_range);
  EXPECT_EQ(KnomialReduceSchedule(1, 3, 0, 0).rounds(), 0);
  EXPECT_EQ(KnomialReduceSchedule(1152, 1, 0, 0).levels(), 11);
  EXPECT_EQ(KnomialReduceSchedule(1152, 3, 0, 0).levels(), 6);  // 4^5 = 1024 < 1152
  EXPECT_EQ(KnomialReduceSchedule(1152, 64, 0, 0).levels(), 2);
}

// For any p and ports: ceil(log_{ports+1} p) levels; a non-root sends once, to its parent, in
// its send round, and the parent receives it then; every receive is met by the peer's send;
// the receives are the children v + i (ports+1)^j below v's send level, and no others.
RC_GTEST_PROP(KnomialReduce, RankLocalPropertiesUpTo2To31, ()) {
  const std::int64_t p = *rosched_test::gen_p((INT64_C(1) << 31) - 1);
  const std::int64_t ports = *rc::gen::element<std::int64_t>(1, 1, 2, 3, 7, 15, 64);
  const std::int64_t rank = *rc::gen::inRange<std::int64_t>(0, p);
  const std::int64_t root = *rc::gen::inRange<std::int64_t>(0, p);
  const KnomialReduceSchedule s(p, ports, rank, root);
  RC_ASSERT(s.levels() == ceil_log(p, ports + 1));
  const std::int64_t v = virtual_rank(rank, root, p);
  const std::vector<Move> want = reference_moves(p, ports, v);
  std::size_t next = 0;
  for (std::int64_t t = 0; t < s.rounds(); ++t) {
    const ReduceRound r = s.round(t);
    RC_ASSERT(!(r.send && r.recv));
    if (!r.send && !r.recv) continue;
    RC_ASSERT(next < want.size());
    RC_ASSERT(want[next].round == t);
    RC_ASSERT(want[next].send == r.send.has_value());
    const Transfer x = r.send ? *r.send : *r.recv;
    RC_ASSERT(virtual_rank(x.peer, root, p) == want[next].peer);
    const ReduceRound other = KnomialReduceSchedule(p, ports, x.peer, root).round(t);
    if (r.send) {
      RC_ASSERT(t == s.send_round() && x.peer == s.parent());
      RC_ASSERT(other.recv && other.recv->peer == rank);
    } else {
      RC_ASSERT(other.send && other.send->peer == rank);
    }
    ++next;
  }
  RC_ASSERT(next == want.size());
  RC_ASSERT((s.send_round() < 0) == (v == 0));
}

}  // namespace
}  // namespace rosched
