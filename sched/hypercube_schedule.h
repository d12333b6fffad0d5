// Bin Jia's hypercube broadcast of n blocks for any p (seeds/004, "The power of the hypercube:
// Optimal Broadcast" through the Main Theorem; sched/hypercube.h) as a schedule description of
// the same shape as the circulant BcastSchedule: per round at most one block sent and at most
// one received, so the verifier simulates and the MPI executor runs the same object.
//
// Rounds: n - 1 + ceil(log2 p): the n - 1 + floor(log2 p) hypercube rounds, plus, when p is not
// a power of two, the exchange of blocks n - 1 and n - 2 inside every pair of cooperating
// processors. Any root by renumbering ranks r -> (r - root) mod p.
#ifndef ROSCHED_SCHED_HYPERCUBE_SCHEDULE_H_
#define ROSCHED_SCHED_HYPERCUBE_SCHEDULE_H_

#include <cstdint>

#include "sched/bcast_schedule.h"
#include "sched/hypercube.h"

namespace rosched {

class HypercubeBcastSchedule {
 public:
  // Throws std::invalid_argument unless 1 <= p <= 2^31 - 1, 0 <= rank, root < p and n >= 1.
  HypercubeBcastSchedule(std::int64_t p, std::int64_t n, std::int64_t rank, std::int64_t root);

  std::int64_t p() const { return me_.p(); }
  std::int64_t n() const { return n_; }
  std::int64_t rank() const { return rank_; }
  std::int64_t root() const { return root_; }
  const HypercubeRank& virtual_rank() const { return me_; }
  // n - 1 + ceil(log2 p) (0 for p = 1): the same for every rank of (p, n).
  std::int64_t rounds() const { return rounds_; }
  // What this rank does in round i, 0 <= i < rounds(); throws std::out_of_range otherwise.
  BcastRound round(std::int64_t i) const;

 private:
  // A transfer of block b with virtual peer v, or nothing if b < 0; b >= n is clamped to n - 1.
  std::optional<Transfer> transfer(std::int64_t v, std::int64_t b) const;

  HypercubeRank me_;
  std::int64_t n_, rank_, root_, rounds_;
};

}  // namespace rosched

#endif  // ROSCHED_SCHED_HYPERCUBE_SCHEDULE_H_
