// The binomial-tree reduction (Träff's lecture notes, "Binomial tree gather" and "Binomial tree
// reduction"): one block, ceil(log2 p) rounds, which no reduction of an indivisible vector can
// beat (each round at most doubles the contributions a rank can hold combined). The schedule
// for the vectors too short to pipeline; the two-tree reduction (sched/two_tree/) pipelines
// long ones in about 2 log2 p + n rounds.
//
// Over virtual ranks v = (rank - root) mod p, in round k = 0, 1, ..., ceil(log2 p) - 1: a rank
// whose lowest set bit is bit k sends its partial result to v - 2^k and is done; a rank whose
// bits 0..k are all 0 receives the partial result of v + 2^k if v + 2^k < p, and combines it
// after its own. Before round k, v holds the contributions of v .. min(v + 2^k, p) - 1, so the
// root ends with v = 0 .. p - 1 in that order: x_0 op x_1 op ... op x_{p-1} for root 0 (any
// operation), the same rotated to start at the root for another root (commutative operations
// only). O(1) per round and rank.
//
// (The lecture's code combines a received partial result as MPI_Reduce_local(tmpbuf, result),
// i.e. received op own, which reverses the order for a non-commutative operation; received
// results come from higher virtual ranks, so here they go after the rank's own.)
#ifndef ROSCHED_SCHED_BINOMIAL_BINOMIAL_REDUCE_H_
#define ROSCHED_SCHED_BINOMIAL_BINOMIAL_REDUCE_H_

#include <cstdint>

#include "sched/round.h"

namespace rosched {

class BinomialReduceSchedule {
 public:
  // Throws std::invalid_argument unless 1 <= p <= 2^31 - 1 and 0 <= rank, root < p.
  BinomialReduceSchedule(std::int64_t p, std::int64_t rank, std::int64_t root);

  std::int64_t p() const { return p_; }
  std::int64_t n() const { return 1; }  // one block, the whole vector
  std::int64_t rank() const { return rank_; }
  std::int64_t root() const { return root_; }
  // ceil(log2 p), the same for every rank; every transfer happens in a round below it.
  std::int64_t rounds() const { return rounds_; }
  // What this rank does in round k, 0 <= k < rounds(); throws std::out_of_range otherwise.
  ReduceRound round(std::int64_t k) const;

  // The virtual rank's parent (v with its lowest set bit cleared) and the round it sends in
  // (the index of that bit); for the root (v = 0) both are -1.
  std::int64_t parent() const;
  std::int64_t send_round() const;

 private:
  std::int64_t p_, rank_, root_, v_;
  std::int64_t rounds_;
};

}  // namespace rosched

#endif  // ROSCHED_SCHED_BINOMIAL_BINOMIAL_REDUCE_H_
