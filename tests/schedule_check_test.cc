// The schedule checker catches hand-broken schedules, with the right diagnosis.
#include "sim/schedule_check.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include "sched/circulant/baseblock.h"

namespace rosched {
namespace {

using sim::check_schedule;
using sim::Violation;
using sim::ViolationKind;

class BrokenSchedule : public ::testing::Test {
 protected:
  const Skips s{20};
  FullSchedule all = full_schedule(s, Construction::paper);

  Violation expect_violation() {
    const auto v = check_schedule(all);
    EXPECT_TRUE(v.has_value());
    return v.value_or(Violation{});
  }
};

TEST_F(BrokenSchedule, ValidAsBuilt) { EXPECT_FALSE(check_schedule(all).has_value()); }

TEST_F(BrokenSchedule, WrongReceivedBlock) {
  // Table 1: rank 7 receives -5 -2 -3 1 -1. Swapping rounds 0 and 2 keeps its own conditions
  // valid; only its senders disagree, first rank 6 (7 - skips[0]) in round 0.
  all.recv(7, 0) = -3;
  all.recv(7, 2) = -5;
  const Violation v = expect_violation();
  EXPECT_EQ(v.kind, ViolationKind::kSendMismatch);
  EXPECT_EQ(v.rank, 6);
  EXPECT_EQ(v.round, 0);
  EXPECT_EQ(v.expected, -3);
  EXPECT_EQ(v.actual, -5);
}

TEST_F(BrokenSchedule, DuplicateBlock) {
  all.recv(3, 1) = all.recv(3, 0);
  const Violation v = expect_violation();
  EXPECT_EQ(v.kind, ViolationKind::kDuplicateBlock);
  EXPECT_EQ(v.rank, 3);
  EXPECT_EQ(v.round, 1);
}

TEST_F(BrokenSchedule, MissingBaseblock) {
  all.recv(10, 4) = 0;  // rank 10 receives block 0 of this phase instead of its baseblock 4
  const Violation v = expect_violation();
  EXPECT_EQ(v.kind, ViolationKind::kMissingBaseblock);
  EXPECT_EQ(v.rank, 10);
  EXPECT_EQ(v.expected, 4);
}

TEST_F(BrokenSchedule, OwnPreviousBaseblockReceivedAgain) {
  all.recv(4, 1) = -5;  // baseblock(4) = 0, block 0 - 5 of the previous phase is already held
  const Violation v = expect_violation();
  EXPECT_EQ(v.kind, ViolationKind::kDuplicateBlock);
  EXPECT_EQ(v.rank, 4);
}

TEST_F(BrokenSchedule, SendBeforeReceive) {
  all.send(2, 0) = 1;  // rank 2 receives its baseblock 1 only in round 1
  const Violation v = expect_violation();
  EXPECT_EQ(v.kind, ViolationKind::kSendBeforeReceive);
  EXPECT_EQ(v.rank, 2);
  EXPECT_EQ(v.round, 0);
  EXPECT_EQ(v.expected, -4);  // what rank 3 expects from rank 2 in round 0
  EXPECT_EQ(v.actual, 1);
}

TEST_F(BrokenSchedule, BlockOutOfRange) {
  all.recv(5, 0) = -6;
  const Violation v = expect_violation();
  EXPECT_EQ(v.kind, ViolationKind::kBlockOutOfRange);
  EXPECT_EQ(v.rank, 5);
}

TEST_F(BrokenSchedule, SendToRootIsNotChecked) {
  all.send(15, 3) = 4;  // 15 + skips[3] = 20 = root: nothing is sent, the entry is a dummy
  EXPECT_FALSE(check_schedule(all).has_value());
}

TEST_F(BrokenSchedule, RootSendsWrongBlock) {
  all.send(0, 2) = 1;  // the root must send block 2 to rank 3 in round 2
  const Violation v = expect_violation();
  EXPECT_EQ(v.kind, ViolationKind::kSendMismatch);
  EXPECT_EQ(v.rank, 0);
  EXPECT_EQ(v.round, 2);
  EXPECT_EQ(v.expected, 2);
}

TEST(FullSchedule, SendsDerivedFromReceivesEqualAlgorithm5) {
  for (std::int64_t p : {1, 2, 3, 9, 20, 31, 32, 33, 100}) {
    const Skips s(p);
    const FullSchedule a = full_schedule_per_rank(s, Construction::paper);
    const FullSchedule b = full_schedule_from_receives(s, Construction::paper);
    for (std::int64_t r = 0; r < p; ++r) {
      for (int k = 0; k < s.q(); ++k) {
        ASSERT_EQ(a.recv(r, k), b.recv(r, k));
        // Algorithm 5 computes the dummy entry for senders to the root too.
        ASSERT_EQ(a.send(r, k), b.send(r, k)) << "p=" << p << " r=" << r << " k=" << k;
      }
    }
  }
}

// check_schedule() as its header specifies it, literally: round by round, rank by rank, with
// each rank's blocks in a set. Slow; the reference for the fast pass check_schedule() runs first.
std::optional<Violation> reference_check(const FullSchedule& f) {
  const Skips& s = f.skips();
  const std::int64_t p = s.p();
  const int q = s.q();
  const std::vector<std::int8_t> own = all_baseblocks(s);
  std::vector<std::set<int>> held(p);  // previous-phase blocks held
  std::vector<bool> got_own(p, false);
  for (std::int64_t r = 1; r < p; ++r) held[r].insert(own[r] - q);
  for (int k = 0; k < q; ++k) {
    for (std::int64_t r = 1; r < p; ++r) {
      const int send = f.send(r, k), recv = f.recv(r, k);
      const std::int64_t t = s.to(r, k);
      if (t != 0) {  // not sending to the root
        const bool has = send < 0 ? held[r].count(send) > 0 : send == own[r] && got_own[r];
        if (!has) return Violation{ViolationKind::kSendBeforeReceive, r, k, f.recv(t, k), send};
      }
      if (recv >= 0) {
        if (recv != own[r] || got_own[r]) {
          return Violation{ViolationKind::kMissingBaseblock, r, k, own[r], recv};
        }
        got_own[r] = true;
      } else if (recv < -q) {
        return Violation{ViolationKind::kBlockOutOfRange, r, k, -q, recv};
      } else if (!held[r].insert(recv).second) {
        return Violation{ViolationKind::kDuplicateBlock, r, k, -1, recv};
      }
    }
    for (std::int64_t r = 0; r < p; ++r) {
      const std::int64_t t = s.to(r, k);
      if (t != 0 && f.send(r, k) != f.recv(t, k)) {
        return Violation{ViolationKind::kSendMismatch, r, k, f.recv(t, k), f.send(r, k)};
      }
    }
  }
  for (std::int64_t r = 1; r < p; ++r) {
    if (!got_own[r]) return Violation{ViolationKind::kMissingBaseblock, r, q - 1, own[r], -1};
  }
  return std::nullopt;
}

std::string describe(const std::optional<Violation>& v, std::int64_t p) {
  return v ? v->describe(p) : "valid";
}

// Random corruptions of one to three entries (some consistent: receiver and sender changed
// alike), for p with several tiles of the fast pass and with ranks sending to the root in the
// middle of a tile: check_schedule() reports what the literal reference does.
TEST(CheckSchedule, AgreesWithLiteralReferenceOnCorruptedSchedules) {
  std::mt19937_64 rng(2024);
  for (std::int64_t p : {2, 3, 5, 20, 33, 1024, 1025, 1100, 2049, 3000}) {
    const Skips s(p);
    const int q = s.q();
    const FullSchedule good = full_schedule(s, Construction::fast);
    ASSERT_EQ(describe(check_schedule(good), p), "valid");
    for (int trial = 0; trial < 150; ++trial) {
      FullSchedule bad = good;
      for (int m = 1 + static_cast<int>(rng() % 3); m > 0; --m) {
        const std::int64_t r = static_cast<std::int64_t>(rng() % p);
        const int k = static_cast<int>(rng() % q);
        const int v = rng() % 8 == 0 ? static_cast<int>(rng() % 256) - 128
                                     : static_cast<int>(rng() % (2 * q + 4)) - q - 2;
        switch (rng() % 3) {
          case 0: bad.send(r, k) = static_cast<std::int8_t>(v); break;
          case 1: bad.recv(r, k) = static_cast<std::int8_t>(v); break;
          default:
            bad.recv(r, k) = static_cast<std::int8_t>(v);
            bad.send(s.from(r, k), k) = static_cast<std::int8_t>(v);
        }
      }
      ASSERT_EQ(describe(check_schedule(bad), p), describe(reference_check(bad), p))
          << "p=" << p << " trial " << trial;
    }
  }
}

TEST_F(BrokenSchedule, DescribeNamesEverything) {
  const Violation v{ViolationKind::kSendMismatch, 6, 0, -4, -5};
  EXPECT_EQ(v.describe(20), "send-mismatch: p=20 rank=6 round=0 expected=-4 actual=-5");
}

}  // namespace
}  // namespace rosched
