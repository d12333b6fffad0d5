// The pipelined broadcast over a complete k-ary tree (Träff's lecture notes "Advanced MPI
// implementations: Collectives", sections "The power of fixed-degree trees" and "Pipelined
// binary tree": fixed-degree trees admit pipelining; BFS naming, the parent of rank r is
// (r - 1) / k and its children k r + 1 .. k r + k), for any degree k >= 2 and any p, as a
// schedule description of the same shape as the circulant BcastSchedule: per round at most one
// block sent and at most one received, so the verifier simulates and the MPI executor runs the
// same object.
//
// Rounds, one-ported as the lecture counts them: an interior rank sends each block to its k
// children in k consecutive rounds (child c in the c-th), so it receives a new block every k
// rounds (the lecture's s = k). A rank v that is child c of parent u starts sending in round
// start(v) = start(u) + c + 1 (start(root) = 0): it sends block b to its child c' in round
// start(v) + b k + c', and receives block b in round start(v) - 1 + b k, the round its parent
// sends it. Rounds in all: (n - 1) k + max over ranks of start(v), at most k (n - 1 + depth).
//
// Where the rounds run with k or more of them in flight, an interior rank's k sends of a block
// move at once: on a network whose shared part (a backbone) gives every flow less than a rank's
// link, k sends at once cost no more than one, and the broadcast takes about n - 1 + depth block
// times with depth = ceil(log_k (p (k - 1) + 1)) - 1, against n - 1 + ceil(log2 p) rounds of the
// round-optimal schedules, while a block's latency is paid once per level, not once per round.
// Any root by renumbering ranks r -> (r - root) mod p.
#ifndef ROSCHED_SCHED_KARY_KARY_TREE_SCHEDULE_H_
#define ROSCHED_SCHED_KARY_KARY_TREE_SCHEDULE_H_

#include <cstdint>

#include "sched/round.h"

namespace rosched {

// The largest degree supported (so that (n - 1) k stays far inside 64 bits).
inline constexpr std::int64_t kMaxTreeDegree = 1 << 16;

// max over virtual ranks v < p of start(v) in the k-ary tree (see above): O(log_k p) digits,
// O(log_k^2 p) work. Throws std::invalid_argument unless 1 <= p <= 2^31 - 1 and
// 2 <= k <= kMaxTreeDegree.
std::int64_t kary_max_start(std::int64_t p, std::int64_t k);

// Levels below the root of the complete k-ary tree of p ranks (0 for p = 1).
int kary_depth(std::int64_t p, std::int64_t k);

class KaryTreeBcastSchedule {
 public:
  // Throws std::invalid_argument unless 1 <= p <= 2^31 - 1, 0 <= rank, root < p, n >= 1 and
  // 2 <= k <= kMaxTreeDegree.
  KaryTreeBcastSchedule(std::int64_t p, std::int64_t n, std::int64_t rank, std::int64_t root,
                        std::int64_t k);

  std::int64_t p() const { return p_; }
  std::int64_t n() const { return n_; }
  std::int64_t k() const { return k_; }
  std::int64_t rank() const { return rank_; }
  std::int64_t root() const { return root_; }
  // (rank - root) mod p: the rank's place in the tree (BFS order).
  std::int64_t virtual_rank() const { return v_; }
  // The real rank of this rank's parent in the tree, -1 for the root.
  std::int64_t parent() const { return parent_ < 0 ? -1 : real_rank(parent_, root_, p_); }
  // The round this rank sends its first block in (0 for the root).
  std::int64_t start() const { return start_; }
  // Children of this rank in the tree (0..k).
  std::int64_t children() const { return children_; }
  // (n - 1) k + kary_max_start(p, k) (0 for p = 1): the same for every rank of (p, n, k).
  std::int64_t rounds() const { return rounds_; }
  // What this rank does in round i, 0 <= i < rounds(); throws std::out_of_range otherwise.
  // O(1).
  BcastRound round(std::int64_t i) const {
    if (i < 0 || i >= rounds_) throw_bad_round(i);
    BcastRound r;
    if (v_ != 0) {
      const std::int64_t d = i - (start_ - 1);
      if (d >= 0 && d % k_ == 0 && d / k_ < n_) {
        r.recv = Transfer{real_rank(parent_, root_, p_), d / k_};
      }
    }
    const std::int64_t d = i - start_;
    if (children_ > 0 && d >= 0) {
      const std::int64_t b = d / k_, c = d % k_;
      if (b < n_ && c < children_) r.send = Transfer{real_rank(first_child_ + c, root_, p_), b};
    }
    return r;
  }

 private:
  [[noreturn]] void throw_bad_round(std::int64_t i) const;

  std::int64_t p_, n_, k_, rank_, root_, v_;
  std::int64_t parent_ = -1, first_child_ = 0, children_ = 0, start_ = 0, rounds_ = 0;
};

}  // namespace rosched

#endif  // ROSCHED_SCHED_KARY_KARY_TREE_SCHEDULE_H_
