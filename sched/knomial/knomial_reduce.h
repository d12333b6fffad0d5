// The k-nomial tree reduction of one block (Träff's lecture notes, "Binomial tree gather",
// "Binomial tree reduction" and "Final remark: binomial and k-nomial trees"): with n ports, a
// rank receives from up to n children at once, and the tree of radix n + 1 takes
// L = ceil(log_{n+1} p) rounds, which no reduction of an indivisible vector over n ports can
// beat (each round at most multiplies by n + 1 the contributions a rank holds combined). One
// port is the binomial tree, ceil(log2 p) rounds. The schedule for vectors too short to
// pipeline; the two-tree reduction (sched/two_tree/) pipelines long ones in about 2 log2 p + n
// rounds.
//
// Over virtual ranks v = (rank - root) mod p, radix r = n + 1, at level j = 0, 1, ..., L - 1
// with stride s = r^j: a rank whose base-r digits below j are 0 and whose digit j is d >= 1
// sends its partial result to v - d s and is done; a rank whose digits 0..j are all 0
// receives the partial results of v + i s for i = 1..n (those < p) and combines each after its
// own, in that order. Before level j, v holds the contributions of v .. min(v + s, p) - 1, so
// the root ends with v = 0 .. p - 1 in that order: x_0 op x_1 op ... op x_{p-1} for root 0 (any
// operation), the same rotated to start at the root for another root (commutative operations
// only).
//
// The description has one transfer per rank and round (sched/round.h), so level j is the n
// description rounds j n .. j n + n - 1, the i-th child's in round j n + i - 1: rounds() =
// n L. An executor keeps at least n rounds in flight, so a level's n receives proceed at once.
// O(1) per round and rank, O(log p) to set up.
//
// (The lecture's code combines a received partial result as MPI_Reduce_local(tmpbuf, result),
// i.e. received op own, which reverses the order for a non-commutative operation; received
// results come from higher virtual ranks, so here they go after the rank's own.)
#ifndef ROSCHED_SCHED_KNOMIAL_KNOMIAL_REDUCE_H_
#define ROSCHED_SCHED_KNOMIAL_KNOMIAL_REDUCE_H_

#include <array>
#include <cstdint>

#include "sched/round.h"

namespace rosched {

// The most ports a k-nomial schedule takes (radix 65), as the n-way all-reduce.
inline constexpr std::int64_t kMaxKnomialPorts = 64;

class KnomialReduceSchedule {
 public:
  // Throws std::invalid_argument unless 1 <= p <= 2^31 - 1, 1 <= ports <= kMaxKnomialPorts and
  // 0 <= rank, root < p.
  KnomialReduceSchedule(std::int64_t p, std::int64_t ports, std::int64_t rank, std::int64_t root);

  std::int64_t p() const { return p_; }
  std::int64_t ports() const { return ports_; }
  std::int64_t n() const { return 1; }  // one block, the whole vector
  std::int64_t rank() const { return rank_; }
  std::int64_t root() const { return root_; }
  // L = ceil(log_{ports+1} p), the tree's depth: the rounds with ports links each.
  std::int64_t levels() const { return levels_; }
  // ports * levels(), the same for every rank; every transfer happens in a round below it.
  std::int64_t rounds() const { return ports_ * levels_; }
  // What this rank does in round t, 0 <= t < rounds(); throws std::out_of_range otherwise.
  ReduceRound round(std::int64_t t) const;

  // The parent (real rank) and the round this rank sends in; -1 for the root.
  std::int64_t parent() const { return parent_; }
  std::int64_t send_round() const { return send_round_; }

 private:
  std::int64_t p_, ports_, rank_, root_, v_, levels_;
  std::int64_t parent_ = -1, send_round_ = -1;
  std::int64_t send_level_;  // the level v sends at (levels_ for the root)
  std::array<std::int64_t, kMaxQ + 1> stride_{};  // stride_[j] = (ports + 1)^j, j <= levels_
};

}  // namespace rosched

#endif  // ROSCHED_SCHED_KNOMIAL_KNOMIAL_REDUCE_H_
