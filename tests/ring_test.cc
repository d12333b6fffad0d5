// The ring reduce-scatter and all-gather (sched/ring/) against brute-force simulations: every
// rank's set of contributions per segment (reduce-scatter) or of segments (all-gather), step by
// step, all ranks at once.
#include "sched/ring/ring_allgather.h"
#include "sched/ring/ring_reduce_scatter.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace rosched {
namespace {

// Whether rank r's receive in step s meets its sender's send (same pair, same segment); else
// *why says where.
bool meets(const std::vector<RingStep>& step, std::int64_t r, std::int64_t s, std::string* why) {
  const RingStep& me = step[r];
  const RingStep& sender = step[me.from];
  if (sender.to == r && sender.send_segment == me.recv_segment) return true;
  *why = "step " + std::to_string(s) + ": rank " + std::to_string(r) + " receives segment " +
         std::to_string(me.recv_segment) + " from " + std::to_string(me.from) +
         ", which sends segment " + std::to_string(sender.send_segment) + " to " +
         std::to_string(sender.to);
  return false;
}

// The properties both rings share, for random p up to 2^31 - 1: to r + 1, from r - 1, and the
// segment sent in step s >= 1 is the one received in step s - 1.
void check_step_chain(RingStep (*step_of)(std::int64_t, std::int64_t, std::int64_t)) {
  const std::int64_t p = *rc::gen::inRange<std::int64_t>(3, INT64_C(1) << 31);
  const std::int64_t rank = *rc::gen::inRange<std::int64_t>(0, p);
  const std::int64_t s = *rc::gen::inRange<std::int64_t>(1, p - 1);
  const RingStep now = step_of(p, rank, s);
  RC_ASSERT(now.send_segment == step_of(p, rank, s - 1).recv_segment);
  RC_ASSERT(now.to == (rank + 1) % p);
  RC_ASSERT(now.from == (rank + p - 1) % p);
}

// Runs the ring among p ranks; true if every rank r ends with segment r combined from every
// rank's contribution exactly once, every send meets the receive of the same segment, and a
// segment is sent only after what it carries was received. On failure, *why says where.
bool simulate(std::int64_t p, std::string* why) {
  // have[r][k][j]: rank r's partial result of segment k includes rank j's contribution.
  std::vector<std::vector<std::vector<int>>> have(
      p, std::vector<std::vector<int>>(p, std::vector<int>(p, 0)));
  for (std::int64_t r = 0; r < p; ++r)
    for (std::int64_t k = 0; k < p; ++k) have[r][k][r] = 1;
  for (std::int64_t s = 0; s + 1 < p; ++s) {
    std::vector<std::vector<int>> sent(p);  // what each rank sends this step (before receiving)
    std::vector<RingStep> step(p);
    for (std::int64_t r = 0; r < p; ++r) {
      step[r] = ring_reduce_scatter_step(p, r, s);
      sent[r] = have[r][step[r].send_segment];
    }
    for (std::int64_t r = 0; r < p; ++r) {
      if (!meets(step, r, s, why)) return false;
      const RingStep& me = step[r];
      std::vector<int>& mine = have[r][me.recv_segment];
      for (std::int64_t j = 0; j < p; ++j) {
        if (mine[j] && sent[me.from][j]) {
          *why = "step " + std::to_string(s) + ": rank " + std::to_string(r) +
                 " combines rank " + std::to_string(j) + "'s contribution twice";
          return false;
        }
        mine[j] += sent[me.from][j];
      }
    }
  }
  for (std::int64_t r = 0; r < p; ++r)
    for (std::int64_t j = 0; j < p; ++j)
      if (have[r][r][j] != 1) {
        *why = "rank " + std::to_string(r) + " lacks rank " + std::to_string(j) +
               "'s contribution to its segment";
        return false;
      }
  return true;
}

TEST(RingReduceScatter, EveryRankEndsWithItsSegmentFromEveryRankOnce) {
  for (std::int64_t p = 2; p <= 40; ++p) {
    std::string why;
    EXPECT_TRUE(simulate(p, &why)) << "p = " << p << ": " << why;
  }
}

RC_GTEST_PROP(RingReduceScatter, SentSegmentIsLastReceived, ()) {
  check_step_chain(ring_reduce_scatter_step);
  // The last step delivers the rank's own segment.
  const std::int64_t p = *rc::gen::inRange<std::int64_t>(2, INT64_C(1) << 31);
  const std::int64_t rank = *rc::gen::inRange<std::int64_t>(0, p);
  RC_ASSERT(ring_reduce_scatter_step(p, rank, p - 2).recv_segment == rank);
}

RC_GTEST_PROP(RingReduceScatter, SegmentsMatchTheQuotient, ()) {
  const std::int64_t p = *rc::gen::inRange<std::int64_t>(1, 5000);
  const std::int64_t count = *rc::gen::inRange<std::int64_t>(0, INT64_C(1) << 31);
  const std::int64_t k = *rc::gen::inRange<std::int64_t>(0, p + 1);
  // Reference: the quotient in 128-bit arithmetic.
  const auto exact = static_cast<std::int64_t>(static_cast<__int128>(k) * count / p);
  RC_ASSERT(ring_segment_begin(count, p, k) == exact);
  if (k < p) {
    const std::int64_t size = ring_segment_begin(count, p, k + 1) - exact;
    RC_ASSERT(size == count / p || size == count / p + 1);
  }
}

// Runs the ring all-gather among p ranks; true if every send meets the receive of the same
// segment, a rank sends only a segment it holds and receives only one it lacks, and every rank
// ends with all p segments. On failure, *why says where.
bool simulate_allgather(std::int64_t p, std::string* why) {
  std::vector<std::vector<int>> held(p, std::vector<int>(p, 0));  // held[r][k]
  for (std::int64_t r = 0; r < p; ++r) held[r][r] = 1;
  for (std::int64_t s = 0; s + 1 < p; ++s) {
    std::vector<RingStep> step(p);
    for (std::int64_t r = 0; r < p; ++r) {
      step[r] = ring_allgather_step(p, r, s);
      if (!held[r][step[r].send_segment]) {
        *why = "step " + std::to_string(s) + ": rank " + std::to_string(r) + " sends segment " +
               std::to_string(step[r].send_segment) + ", which it lacks";
        return false;
      }
    }
    for (std::int64_t r = 0; r < p; ++r) {
      if (!meets(step, r, s, why)) return false;
      const RingStep& me = step[r];
      if (held[r][me.recv_segment]++) {
        *why = "step " + std::to_string(s) + ": rank " + std::to_string(r) + " receives segment " +
               std::to_string(me.recv_segment) + " a second time";
        return false;
      }
    }
  }
  for (std::int64_t r = 0; r < p; ++r)
    for (std::int64_t k = 0; k < p; ++k)
      if (held[r][k] != 1) {
        *why = "rank " + std::to_string(r) + " ends without segment " + std::to_string(k);
        return false;
      }
  return true;
}

TEST(RingAllgather, EveryRankEndsWithEverySegmentOnce) {
  for (std::int64_t p = 2; p <= 64; ++p) {
    std::string why;
    EXPECT_TRUE(simulate_allgather(p, &why)) << "p = " << p << ": " << why;
  }
}

RC_GTEST_PROP(RingAllgather, SendsWhatCameInTheStepBefore, ()) {
  check_step_chain(ring_allgather_step);
  const std::int64_t p = *rc::gen::inRange<std::int64_t>(2, INT64_C(1) << 31);
  const std::int64_t rank = *rc::gen::inRange<std::int64_t>(0, p);
  RC_ASSERT(ring_allgather_step(p, rank, 0).send_segment == rank);  // its own first
}

TEST(RingAllgather, BadArgumentsAreErrors) {
  EXPECT_THROW(ring_allgather_step(1, 0, 0), std::invalid_argument);
  EXPECT_THROW(ring_allgather_step(4, 4, 0), std::invalid_argument);
  EXPECT_THROW(ring_allgather_step(4, -1, 0), std::invalid_argument);
  EXPECT_THROW(ring_allgather_step(4, 0, 3), std::invalid_argument);
  EXPECT_THROW(ring_allgather_step(4, 0, -1), std::invalid_argument);
}

TEST(RingReduceScatter, BadArgumentsAreErrors) {
  EXPECT_THROW(ring_reduce_scatter_step(1, 0, 0), std::invalid_argument);
  EXPECT_THROW(ring_reduce_scatter_step(4, 4, 0), std::invalid_argument);
  EXPECT_THROW(ring_reduce_scatter_step(4, -1, 0), std::invalid_argument);
  EXPECT_THROW(ring_reduce_scatter_step(4, 0, 3), std::invalid_argument);
  EXPECT_THROW(ring_reduce_scatter_step(4, 0, -1), std::invalid_argument);
  EXPECT_THROW(ring_segment_begin(10, 0, 0), std::invalid_argument);
  EXPECT_THROW(ring_segment_begin(10, 4, 5), std::invalid_argument);
  EXPECT_THROW(ring_segment_begin(-1, 4, 0), std::invalid_argument);
}

}  // namespace
}  // namespace rosched
