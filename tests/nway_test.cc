// The n-way dissemination allreduce (End et al. 2015; sched/nway/, sim/nway_run.h): the paper's
// last-round tuple against a brute-force search, the facts of the seed note (which (P, n) have
// no tuple, where the paper sends more), every rule against a reference that moves explicit
// contribution counts, mutation tests naming the rank and round, local runs for P up to 2^31 - 1.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "sched/nway/nway_schedule.h"
#include "sim/nway_run.h"
#include "tests/gen_p.h"

namespace rosched {
namespace {

constexpr NwayRule kRules[] = {NwayRule::kPaper, NwayRule::kDigits, NwayRule::kCirculant};

int ceil_log(std::int64_t p, std::int64_t b) {
  int k = 0;
  for (std::int64_t x = 1; x < p; x *= b) ++k;
  return k;
}

// Eq. (8) by enumeration of A and of all tuples, ordered as paper_tuple() promises.
std::optional<PaperTuple> brute_tuple(std::int64_t p, std::int64_t n) {
  const std::int64_t b = n + 1;
  const int k = ceil_log(p, b);
  std::int64_t w = 1;
  for (int l = 1; l < k; ++l) w *= b;
  std::set<std::int64_t> a = {1};
  for (std::int64_t l = 1, d = 1; l <= k - 1; ++l, d *= b) {
    for (std::int64_t j = 1; j <= n; ++j) a.insert((j + 1) * d);
  }
  std::set<std::int64_t> rcv = a;
  rcv.insert(0);
  std::optional<std::tuple<std::int64_t, bool, std::int64_t>> best_key;
  std::optional<PaperTuple> best;
  for (std::int64_t s = 1; s <= n; ++s) {
    for (std::int64_t ls : a) {
      for (std::int64_t lr : rcv) {
        if (s * w + ls - lr != p || s * w == p) continue;
        const auto key = std::make_tuple(s, lr != 0, ls);
        if (!best_key || key < *best_key) best_key = key, best = PaperTuple{s, ls, lr};
      }
    }
  }
  return best;
}

TEST(NwayPaper, TupleEqualsBruteForce) {
  for (std::int64_t n = 1; n <= 8; ++n) {
    for (std::int64_t p = 2; p <= 700; ++p) {
      ASSERT_EQ(paper_tuple(p, n), brute_tuple(p, n)) << "p=" << p << " n=" << n;
    }
  }
}

// The seed note's census for P <= 500, n <= 8 (P = 1 needs no last round).
TEST(NwayPaper, NoTupleForTheNotedPairs) {
  const int expected[] = {0, 375, 256, 201, 108, 100, 63, 0, 0};
  int total = 0;
  for (std::int64_t n = 1; n <= 8; ++n) {
    int none = 0;
    for (std::int64_t p = 2; p <= 500; ++p) none += !paper_tuple(p, n);
    EXPECT_EQ(none, expected[n]) << "n=" << n;
    total += none;
  }
  EXPECT_EQ(total, 1103);
  EXPECT_FALSE(paper_tuple(13, 1));
  for (std::int64_t p = 2; p < 13; ++p) EXPECT_TRUE(paper_tuple(p, 1)) << p;
  // n >= 2: every P <= b^3 works; the first failure is b^3 + b^2 + b + 1.
  for (std::int64_t n = 2; n <= 6; ++n) {
    const std::int64_t b = n + 1, first = b * b * b + b * b + b + 1;
    for (std::int64_t p = 2; p < first; ++p) EXPECT_TRUE(paper_tuple(p, n)) << p << " " << n;
    EXPECT_FALSE(paper_tuple(first, n)) << "n=" << n;
  }
  try {
    NwayPlan(13, 1, NwayRule::kPaper);
    FAIL() << "no error for P = 13, n = 1";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("P = 13, n = 1"), std::string::npos) << e.what();
  }
}

TEST(NwayPaper, SendsMoreThanTheCorrectedRulesIn267Pairs) {
  int more = 0;
  for (std::int64_t n = 1; n <= 8; ++n) {
    for (std::int64_t p = 2; p <= 500; ++p) {
      if (!paper_tuple(p, n)) continue;
      const NwayPlan plan(p, n, NwayRule::kPaper);
      more += sim::nway_expected_messages(plan) > nway_min_messages(p, n);
    }
  }
  EXPECT_EQ(more, 267);
  EXPECT_EQ(sim::nway_expected_messages(NwayPlan(37, 2, NwayRule::kPaper)), 8);
  EXPECT_EQ(nway_min_messages(37, 2), 7);
  EXPECT_EQ(paper_tuple(37, 2), (PaperTuple{2, 1, 18}));
}

// Reference: explicit counts of every contribution in every accumulator of every rank, moved
// as the round description says (sends from the start of the round, copy, folds).
std::string reference_run(const NwayPlan& plan) {
  const std::int64_t p = plan.p();
  using Counts = std::vector<int>;
  std::vector<std::vector<Counts>> acc(p, std::vector<Counts>(kNwayAccs, Counts(p, 0)));
  for (std::int64_t r = 0; r < p; ++r) acc[r][0][r] = acc[r][1][r] = 1;
  auto sum = [&](std::int64_t r, std::uint8_t mask) {
    Counts c(p, 0);
    for (int a = 0; a < kNwayAccs; ++a) {
      if (mask >> a & 1) {
        for (std::int64_t x = 0; x < p; ++x) c[x] += acc[r][a][x];
      }
    }
    return c;
  };
  for (int i = 0; i < plan.rounds(); ++i) {
    std::map<std::tuple<std::int64_t, std::int64_t, int>, std::vector<Counts>> wire;
    for (std::int64_t r = 0; r < p; ++r) {
      for (const NwayMessage& m : NwaySchedule(plan, r).round(i).sends) {
        auto& w = wire[{r, m.peer, m.port}];
        for (int v = 0; v < m.vectors; ++v) w.push_back(sum(r, m.v[v].accs));
      }
    }
    for (std::int64_t r = 0; r < p; ++r) {
      const NwayRound rd = NwaySchedule(plan, r).round(i);
      std::vector<Counts> start = acc[r];
      if (rd.copy_to) {
        Counts c(p, 0);
        for (int a = 0; a < kNwayAccs; ++a) {
          if (rd.copy_from >> a & 1) {
            for (std::int64_t x = 0; x < p; ++x) c[x] += start[a][x];
          }
        }
        for (int a = 0; a < kNwayAccs; ++a) {
          if (rd.copy_to >> a & 1) acc[r][a] = c;
        }
      }
      for (const NwayMessage& m : rd.recvs) {
        auto it = wire.find({m.peer, r, m.port});
        if (it == wire.end() || static_cast<int>(it->second.size()) != m.vectors) {
          return "no matching send at rank " + std::to_string(r);
        }
        for (int v = 0; v < m.vectors; ++v) {
          for (int a = 0; a < kNwayAccs; ++a) {
            if (m.v[v].accs >> a & 1) {
              for (std::int64_t x = 0; x < p; ++x) acc[r][a][x] += it->second[v][x];
            }
          }
        }
        wire.erase(it);
      }
    }
    if (!wire.empty()) return "unreceived message in round " + std::to_string(i);
  }
  for (std::int64_t r = 0; r < p; ++r) {
    const Counts c = sum(r, NwaySchedule(plan, r).result());
    for (std::int64_t x = 0; x < p; ++x) {
      if (c[x] != 1) {
        return "rank " + std::to_string(r) + " has contribution " + std::to_string(x) + " " +
               std::to_string(c[x]) + " times";
      }
    }
  }
  return "";
}

TEST(Nway, EveryRuleEqualsTheCountingReference) {
  for (std::int64_t n = 1; n <= 8; ++n) {
    for (std::int64_t p = 1; p <= 45; ++p) {
      for (NwayRule rule : kRules) {
        if (rule == NwayRule::kPaper && p > 1 && !paper_tuple(p, n)) continue;
        const NwayPlan plan(p, n, rule);
        EXPECT_EQ(reference_run(plan), "") << "p=" << p << " n=" << n << " " << nway_rule_name(rule);
      }
    }
  }
}

TEST(Nway, RunOfEveryRankForSmallP) {
  for (std::int64_t n = 1; n <= 9; ++n) {
    for (std::int64_t p = 1; p <= 150; ++p) {
      for (NwayRule rule : kRules) {
        if (rule == NwayRule::kPaper && p > 1 && !paper_tuple(p, n)) continue;
        const NwayPlan plan(p, n, rule);
        EXPECT_EQ(plan.rounds(), ceil_log(p, n + 1));
        const auto c = sim::run_nway(plan);
        ASSERT_FALSE(c) << c->describe();
      }
    }
  }
}

// The plain algorithm for P = b^k, and the schedule's shape on an example.
TEST(Nway, ExampleP10N2) {
  // b = 3, k = 3, W = 9; digits of 10 = 101 (base 3); skips 1, 2, 4, 10.
  const NwaySchedule d(10, 2, NwayRule::kDigits, 0);
  ASSERT_EQ(d.rounds(), 3);
  const NwayRound last = d.round(2);  // c_2 = 1: only sender 1, with R = 1 contribution
  ASSERT_EQ(last.sends.size(), 1u);
  EXPECT_EQ(last.sends[0].peer, 9);
  EXPECT_EQ(last.sends[0].v[0].range, (NwayRange{0, 1}));
  EXPECT_EQ(last.recvs[0].peer, 1);
  EXPECT_EQ(last.recvs[0].v[0].range, (NwayRange{9, 1}));
  const NwaySchedule c(10, 2, NwayRule::kCirculant, 3);
  // s = 4 -> 10: d = 2, no full chunk; E = [1, 4) of the ranks at distance 3 and 6.
  const NwayRound c2 = c.round(2);
  ASSERT_EQ(c2.recvs.size(), 2u);
  EXPECT_EQ(c2.recvs[0].distance, 3);
  EXPECT_EQ(c2.recvs[0].peer, 0);
  EXPECT_EQ(c2.recvs[0].v[0].range, (NwayRange{4, 3}));
  EXPECT_EQ(c2.recvs[1].distance, 6);
  EXPECT_EQ(c2.recvs[1].v[0].range, (NwayRange{7, 3}));
  EXPECT_EQ(c2.sends[1].peer, 9);
  for (NwayRule rule : kRules) {
    const NwaySchedule full(27, 2, rule, 5);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(full.round(i).sends.size(), 2u);
      EXPECT_EQ(full.round(i).recvs[1].distance, 2 * full.plan().power(i));
    }
  }
}

TEST(Nway, BadInput) {
  EXPECT_THROW(NwayPlan(0, 1, NwayRule::kDigits), std::invalid_argument);
  EXPECT_THROW(NwayPlan(-3, 1, NwayRule::kDigits), std::invalid_argument);
  EXPECT_THROW(NwayPlan(std::int64_t{1} << 31, 1, NwayRule::kDigits), std::invalid_argument);
  EXPECT_THROW(NwayPlan(10, 0, NwayRule::kCirculant), std::invalid_argument);
  EXPECT_THROW(NwayPlan(10, 65, NwayRule::kCirculant), std::invalid_argument);
  EXPECT_NO_THROW(NwayPlan(10, 64, NwayRule::kCirculant));
  EXPECT_THROW(NwaySchedule(10, 2, NwayRule::kDigits, 10), std::invalid_argument);
  EXPECT_THROW(NwaySchedule(10, 2, NwayRule::kDigits, -1), std::invalid_argument);
  EXPECT_THROW(NwaySchedule(10, 2, NwayRule::kDigits, 0).round(3), std::out_of_range);
  EXPECT_THROW(NwaySchedule(10, 2, NwayRule::kDigits, 0).round(-1), std::out_of_range);
  EXPECT_THROW(parse_nway_rule("Paper"), std::invalid_argument);
  EXPECT_EQ(parse_nway_rule("circulant"), NwayRule::kCirculant);
  try {
    NwayPlan(10, 0, NwayRule::kDigits);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("n = 0"), std::string::npos) << e.what();
  }
}

// A mutation of the rounds of some ranks, applied on top of the real schedule.
sim::NwayRoundOf mutated(const NwayPlan& plan,
                         std::function<void(std::int64_t rank, int round, NwayRound&)> change) {
  return [plan, change](std::int64_t r, int i) {
    NwayRound rd = NwaySchedule(plan, r).round(i);
    change(r, i, rd);
    return rd;
  };
}

void expect_caught(const NwayPlan& plan, const sim::NwayRoundOf& round_of, std::int64_t rank,
                   int round, const std::string& kind) {
  const auto c = sim::run_nway(plan, round_of);
  ASSERT_TRUE(c) << "not caught";
  EXPECT_EQ(c->p, plan.p());
  EXPECT_EQ(c->rank, rank) << c->describe();
  EXPECT_EQ(c->round, round) << c->describe();
  EXPECT_EQ(c->kind, kind) << c->describe();
  const auto l = sim::run_nway_local(plan, round_of, {rank});
  ASSERT_TRUE(l) << "not caught by the local run";
  EXPECT_EQ(l->round, round) << l->describe();
}

TEST(NwayMutation, WrongBoundaryOfTheSecondResult) {
  // P = 13, n = 1 (no paper tuple): digits 1101; the last round sends R = 5 contributions.
  const NwayPlan plan(13, 1, NwayRule::kDigits);
  // Rank 5 sends all of F (8) where R (5) is named.
  expect_caught(plan, mutated(plan, [](std::int64_t r, int i, NwayRound& rd) {
    if (r == 5 && i == 3) rd.sends[0].v[0].accs = kMain;
  }), 5, 3, "send-range-length");
  // The same, consistently named by sender and receiver (5 + 8 = 0 mod 13): the receiver
  // would count 3 contributions twice.
  expect_caught(plan, mutated(plan, [](std::int64_t r, int i, NwayRound& rd) {
    if (r == 5 && i == 3) rd.sends[0].v[0] = {kMain, {0, 8}};
    if (r == 0 && i == 3) rd.recvs[0].v[0].range = {8, 8};
  }), 0, 3, "fold-overlap-or-gap");
}

TEST(NwayMutation, PaperTakeOutIgnored) {
  // P = 37, n = 2: s = 2, Lsnd = 1, Lrcv = 18; rank 4 folds the last round into F, not the
  // take-out accumulator: offsets 0..17 would count twice.
  const NwayPlan plan(37, 2, NwayRule::kPaper);
  expect_caught(plan, mutated(plan, [](std::int64_t r, int i, NwayRound& rd) {
    if (r == 4 && i == 3) {
      for (NwayMessage& m : rd.recvs) m.v[0].accs = kMain;
    }
  }), 4, 3, "fold-overlap-or-gap");
}

TEST(NwayMutation, ShiftedPartnerAndDroppedReceive) {
  const NwayPlan plan(100, 3, NwayRule::kCirculant);
  expect_caught(plan, mutated(plan, [](std::int64_t r, int i, NwayRound& rd) {
    if (r == 17 && i == 2) rd.recvs[1].peer = (rd.recvs[1].peer + 1) % 100;
  }), 17, 2, "recv-without-send");
  const auto c = sim::run_nway(plan, mutated(plan, [](std::int64_t r, int i, NwayRound& rd) {
    if (r == 17 && i == 1) rd.recvs.pop_back();
  }));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, "send-without-recv");
  EXPECT_EQ(c->round, 1);
  EXPECT_EQ(c->expected, 17) << c->describe();  // the receiver that lost it
}

// Local properties for P up to 2^31 - 1: a random rank's run, its neighbours' accumulators
// taken as its own shifted.
RC_GTEST_PROP(NwayProperty, LocalRunOfARandomRank, ()) {
  const std::int64_t p = *rosched_test::gen_p(kMaxProcesses);
  const std::int64_t n = *rc::gen::inRange<std::int64_t>(1, 65);
  const NwayRule rule = *rc::gen::element(NwayRule::kPaper, NwayRule::kDigits, NwayRule::kCirculant);
  const std::int64_t rank = *rc::gen::inRange<std::int64_t>(0, p);
  if (rule == NwayRule::kPaper && p > 1 && !paper_tuple(p, n)) {
    RC_ASSERT_THROWS_AS(NwayPlan(p, n, rule), std::invalid_argument);
    return;
  }
  const NwayPlan plan(p, n, rule);
  RC_ASSERT(plan.rounds() == ceil_log(p, n + 1));
  const auto c = sim::run_nway_local(plan, sim::nway_round_of(plan), {rank});
  RC_ASSERT(!c);
}

RC_GTEST_PROP(NwayProperty, EveryRankForRandomSmallP, ()) {
  const std::int64_t p = *rosched_test::gen_p(1000);
  const std::int64_t n = *rc::gen::inRange<std::int64_t>(1, 17);
  const NwayRule rule = *rc::gen::element(NwayRule::kDigits, NwayRule::kCirculant);
  const NwayPlan plan(p, n, rule);
  const auto c = sim::run_nway(plan);
  RC_ASSERT(!c);
}

}  // namespace
}  // namespace rosched
