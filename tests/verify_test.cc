// The verifier's checks on hand-broken schedules: every corruption is caught, with a diagnosis
// that names the right kind, rank and round.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <string>

#include "sched/circulant/baseblock.h"
#include "sim/schedule_check.h"
#include "sim/circulant_run.h"
#include "verify/progress.h"
#include "verify/schedule_source.h"
#include "verify/structure_check.h"
#include "verify/families.h"

namespace rosched::verify {
namespace {

using sim::check_schedule;
using sim::ViolationKind;
using sim::run_bcast;

// Every consistent corruption of one transfer: rank t receives v in round k and its sender
// sends v. Both the schedule check and the broadcast run must reject each one.
TEST(Verifier, EveryConsistentCorruptionIsCaught) {
  for (std::int64_t p : {4, 9, 20}) {
    const Skips s(p);
    const FullSchedule good = full_schedule(s, Construction::paper);
    const int q = s.q();
    std::set<std::string> run_kinds;
    std::set<ViolationKind> check_kinds;
    for (std::int64_t t = 1; t < p; ++t) {
      for (int k = 0; k < q; ++k) {
        const std::int64_t sender = s.from(t, k);
        for (int v = -q - 1; v < q; ++v) {
          if (v == good.recv(t, k)) continue;
          FullSchedule bad = good;
          bad.recv(t, k) = static_cast<std::int8_t>(v);
          bad.send(sender, k) = static_cast<std::int8_t>(v);
          const std::string where = "p=" + std::to_string(p) + " t=" + std::to_string(t) +
                                    " k=" + std::to_string(k) + " v=" + std::to_string(v);
          const auto violation = check_schedule(bad);
          ASSERT_TRUE(violation.has_value()) << where;
          EXPECT_TRUE(violation->rank == t || violation->rank == sender) << where;
          // The corruption shows in round k, or later (a block missing from what t holds).
          EXPECT_GE(violation->round, k) << where << ": " << violation->describe(p);
          check_kinds.insert(violation->kind);
          if (v < -q) continue;  // out of range: no broadcast can even be described
          const auto run = run_bcast(bad, 3 * q + 2, 0);
          ASSERT_TRUE(run.has_value()) << where;
          EXPECT_EQ(run->check, "broadcast-run");
          EXPECT_TRUE(run->rank == t || run->rank == sender || run->kind == "missing-block")
              << where << ": " << run->describe();
          run_kinds.insert(run->kind);
        }
      }
    }
    EXPECT_EQ(check_kinds, (std::set<ViolationKind>{ViolationKind::kMissingBaseblock,
                                                    ViolationKind::kBlockOutOfRange,
                                                    ViolationKind::kDuplicateBlock,
                                                    ViolationKind::kSendBeforeReceive}))
        << "p=" << p;
    EXPECT_TRUE(run_kinds.count("send-before-receive")) << "p=" << p;
    EXPECT_TRUE(run_kinds.count("duplicate-block") || run_kinds.count("missing-block"))
        << "p=" << p;
  }
}

TEST(Verifier, OneSidedCorruptionIsAMismatch) {
  const Skips s(20);
  FullSchedule f = full_schedule(s, Construction::paper);
  f.send(6, 0) = -3;  // rank 7 expects -5 from rank 6 in round 0
  const auto run = run_bcast(f, 11, 0);
  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(run->kind, "send-mismatch");
  EXPECT_EQ(run->rank, 6);
  EXPECT_EQ(run->round % s.q(), 0);
  EXPECT_EQ(run->expected - run->actual, -2);  // blocks of -5 and -3 in the same phase
}

TEST(Verifier, ValidSchedulesRunToCompletionForEveryRoot) {
  for (std::int64_t p : {1, 2, 3, 7, 16, 17, 33}) {
    const FullSchedule f = full_schedule(Skips(p), Construction::paper);
    for (std::int64_t root = 0; root < p; ++root) {
      for (std::int64_t n : {1, 2, 5, 13}) EXPECT_FALSE(run_bcast(f, n, root).has_value());
    }
  }
}

TEST(Verifier, StructureChecksPassForSmallP) {
  for (std::int64_t p = 1; p <= 300; ++p) {
    const Skips s(p);
    const auto bb = all_baseblocks(s);
    EXPECT_FALSE(check_baseblocks(s, bb).has_value());
    EXPECT_FALSE(check_rangeblocks(s, bb).has_value());
    EXPECT_FALSE(check_rangeblocks_sampled(s, bb, 7).has_value());
    EXPECT_FALSE(check_allgather(s).has_value());
    EXPECT_FALSE(check_census(s).has_value());
    EXPECT_FALSE(check_reduce_scatter(s).has_value());
  }
}

// check_rangeblocks_sampled() against the definition, range by range, on corrupted baseblocks:
// the same first counterexample (lengths in order, then starts).
TEST(Verifier, SampledRangeblocksAgreeWithDirectScan) {
  std::uint64_t seed = 7;
  const auto next = [&] { return seed = seed * 6364136223846793005ULL + 1442695040888963407ULL; };
  for (std::int64_t p : {1, 2, 3, 20, 64, 65, 200, 1000}) {
    const Skips s(p);
    const auto good = all_baseblocks(s);
    for (int trial = 0; trial < 30; ++trial) {
      auto bb = good;
      if (trial > 0) {
        const std::int64_t r = static_cast<std::int64_t>((next() >> 33) % p);
        bb[r] = static_cast<std::int8_t>((next() >> 33) % (s.q() + 1));
      }
      for (std::int64_t samples : {1, 3, 7, 64, 5000}) {
        std::optional<Counterexample> want;
        const std::int64_t n = std::min(samples, p);
        for (std::int64_t len : rangeblock_lengths(s)) {
          for (std::int64_t i = 0; i < n && !want; ++i) {
            const std::int64_t a = i * p / n, b = (a + len - 1) % p;
            std::uint64_t set = 0;
            for (std::int64_t j = 0; j < len; ++j) set |= std::uint64_t{1} << bb[(a + j) % p];
            const std::uint64_t got = rangeblocks(s, a, b).bits();
            if (got != set) {
              want = Counterexample{"rangeblocks", "wrong-block-set", p, a, len,
                                    static_cast<std::int64_t>(set),
                                    static_cast<std::int64_t>(got),
                                    "rank is the range start, round the range length; sets as "
                                    "bit masks"};
            }
          }
          if (want) break;
        }
        const auto have = check_rangeblocks_sampled(s, bb, samples);
        ASSERT_EQ(have.has_value(), want.has_value()) << "p=" << p << " samples=" << samples;
        if (want) {
          EXPECT_EQ(have->describe(), want->describe());
        }
      }
    }
  }
}

TEST(Verifier, WrongBaseblocksAreCaught) {
  const Skips s(20);
  auto bb = all_baseblocks(s);
  bb[13] = 1;  // really 2
  const auto c = check_baseblocks(s, bb);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->rank, 13);
  EXPECT_EQ(c->expected, 1);
  EXPECT_EQ(c->actual, 2);
  EXPECT_TRUE(check_rangeblocks(s, bb).has_value());
}

// A family configured with these check groups and run_to.
std::unique_ptr<Family> configured(const std::string& name, std::int64_t run_to,
                                   std::set<std::string> checks, const std::string& construction = "fast") {
  std::unique_ptr<Family> f = make_family(name);
  FamilyOptions o;
  o.run_to = run_to;
  o.checks = f->effective_checks(checks);
  o.construction = construction;
  f->configure(o);
  return f;
}

TEST(Verifier, VerifyPAndItsParameters) {
  const auto source = builtin_source(Construction::paper);
  EXPECT_EQ(source->command_line(), "--construction paper");
  const auto paper = configured("circulant", 5000, {"schedule", "structure", "runs"}, "paper");
  EXPECT_EQ(paper->label(), "construction=paper");
  EXPECT_EQ(paper->reproduce_options(), "--construction paper");
  for (std::int64_t p : {1, 2, 31, 32, 33, 600}) {
    EXPECT_FALSE(paper->verify_p(p).counterexample.has_value()) << p;
  }
  const auto sampled = configured("circulant", 0, {"schedule", "structure", "runs"}, "paper");
  EXPECT_FALSE(sampled->verify_p(5000).counterexample.has_value());
  EXPECT_EQ(block_counts(1), (std::vector<std::int64_t>{1, 2, 5}));  // q - 1 = 0 left out
  EXPECT_EQ(block_counts(5), (std::vector<std::int64_t>{1, 2, 4, 5, 6, 17}));
  EXPECT_EQ(roots(1), (std::vector<std::int64_t>{0}));
  EXPECT_EQ(roots(10), (std::vector<std::int64_t>{0, 5, 9}));
}

TEST(Verifier, ProgressPrintsPlainLines) {
  std::FILE* out = std::tmpfile();
  Progress progress(4, 4.0, out, /*terminal=*/false, /*plain_interval=*/0.0);
  for (int i = 0; i < 4; ++i) progress.add(1.0);
  progress.finish();
  std::rewind(out);
  char line[256] = {};
  ASSERT_NE(std::fgets(line, sizeof line, out), nullptr);
  EXPECT_EQ(std::string(line).rfind("1/4 p done (25.0% of the work)", 0), 0u) << line;
  std::fclose(out);
}

// Every family of the registry through the one interface verify's main uses: distinct names,
// check groups and timers within bounds, every small p verified with every group, and a
// family found by name.
TEST(Families, OneInterfaceForAll) {
  std::set<std::string> names;
  for (const auto& listed : all_families()) {
    const std::string name = listed->name();
    EXPECT_TRUE(names.insert(name).second) << name;
    EXPECT_FALSE(listed->help().empty()) << name;
    const std::vector<std::string> groups = listed->check_groups();
    ASSERT_FALSE(groups.empty()) << name;
    const std::set<std::string> all(groups.begin(), groups.end());
    const auto f = configured(name, 40, all);
    EXPECT_LE(f->timers().size(), static_cast<std::size_t>(kTimers)) << name;
    EXPECT_EQ(f->effective_checks(all), all) << name;
    for (std::int64_t p = 1; p <= 40; ++p) {
      const PResult r = f->verify_p(p);
      EXPECT_FALSE(r.counterexample.has_value()) << name << " p=" << p << ' ' << r.counterexample->describe();
    }
    ASSERT_NE(make_family(name), nullptr);
    EXPECT_EQ(make_family(name)->name(), name);
  }
  EXPECT_EQ(names, (std::set<std::string>{"circulant", "twotree", "hypercube", "merge", "nway",
                                          "bruck", "knomial", "kary"}));
  EXPECT_EQ(make_family("ring"), nullptr);
  // A family whose runs need its structure check says so.
  EXPECT_EQ(make_family("twotree")->effective_checks({"runs"}),
            (std::set<std::string>{"structure", "runs"}));
}

// The two-tree family's statistic is the range of broadcast rounds minus the lecture's formula.
TEST(Families, TwoTreeStatistic) {
  const auto f = configured("twotree", 100, {"structure", "runs"});
  const PResult r = f->verify_p(11);
  ASSERT_TRUE(r.statistic.has_value());
  EXPECT_LE(r.statistic->min, r.statistic->max);
  EXPECT_EQ(f->statistic_summary(-1, 3, true), "; broadcast rounds minus the lecture's formula: -1..3");
}

}  // namespace
}  // namespace rosched::verify
