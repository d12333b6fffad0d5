// Bin Jia's hypercube broadcast of n blocks for any p (Träff's lecture notes, "The power of the
// hypercube: Optimal Broadcast" through the Main Theorem; sched/hypercube.h) as a schedule
// description of the same shape as the circulant BcastSchedule: per round at most one block sent
// and at most one received, so the verifier simulates and the MPI executor runs the same object.
//
// Rounds: n - 1 + ceil(log2 p): the n - 1 + floor(log2 p) hypercube rounds, plus, when p is not
// a power of two, the exchange of blocks n - 1 and n - 2 inside every pair of cooperating
// processors. Any root by renumbering ranks r -> (r - root) mod p.
#ifndef ROSCHED_SCHED_HYPERCUBE_HYPERCUBE_SCHEDULE_H_
#define ROSCHED_SCHED_HYPERCUBE_HYPERCUBE_SCHEDULE_H_

#include <cstdint>

#include "sched/round.h"
#include "sched/hypercube/hypercube.h"

namespace rosched {

class HypercubeBcastSchedule {
 public:
  // Throws std::invalid_argument unless 1 <= p <= 2^31 - 1, 0 <= rank, root < p and n >= 1.
  HypercubeBcastSchedule(std::int64_t p, std::int64_t n, std::int64_t rank, std::int64_t root);
  // The same from this rank's already built virtual rank (rank - root) mod p, e.g. to reuse it
  // for several n. Throws std::invalid_argument unless n >= 1 and 0 <= root < p.
  HypercubeBcastSchedule(const HypercubeRank& virtual_rank, std::int64_t n, std::int64_t root);

  std::int64_t p() const { return me_.p(); }
  std::int64_t n() const { return n_; }
  std::int64_t rank() const { return rank_; }
  std::int64_t root() const { return root_; }
  const HypercubeRank& virtual_rank() const { return me_; }
  // n - 1 + ceil(log2 p) (0 for p = 1): the same for every rank of (p, n).
  std::int64_t rounds() const { return rounds_; }
  // What this rank does in round i, 0 <= i < rounds(); throws std::out_of_range otherwise.
  // O(1); inline, since the verifier calls it for every rank and round of every p.
  BcastRound round(std::int64_t i) const {
    check_round(i, rounds_, "hypercube");
    return round_at(me_.round(i));
  }
  // The same for the round already split: cr = virtual_rank().round(i), 0 <= i < rounds() (not
  // checked). round(i) is exactly round_at(virtual_rank().round(i)); a caller that walks every
  // rank through the same round splits it once.
  [[gnu::always_inline]] inline BcastRound round_at(const CubeRound& cr) const;

 private:
  void check_n_and_count_rounds();
  // A transfer of block b with virtual peer v, or nothing if b < 0; b >= n is clamped to n - 1.
  std::optional<Transfer> transfer(std::int64_t v, std::int64_t b) const {
    if (b < 0) return std::nullopt;
    return Transfer{real_rank(v, root_, p()), b < n_ ? b : n_ - 1};
  }

  HypercubeRank me_;
  std::int64_t n_, rank_, root_, rounds_ = 0;
};

BcastRound HypercubeBcastSchedule::round_at(const CubeRound& cr) const {
  BcastRound r;
  const std::int64_t x = me_.x(), j = cr.j;
  const int q = me_.q();
  const HypercubeRank::Roles roles = me_.roles(cr);
  if (j >= n_ - 1 + q) {  // the extra round: pairs swap blocks n - 1 (out has it) and n - 2
    if (me_.single()) return r;
    const bool out = x == roles.out;
    r.send = transfer(me_.co(), out ? n_ - 1 : n_ - 2);
    r.recv = transfer(me_.co(), out ? n_ - 2 : n_ - 1);
    return r;
  }
  const bool out = me_.single() || x == roles.out, in = me_.single() || !out;
  if (out) {  // a singleton is both out and in
    if (me_.partner(cr) != 0) r.send = transfer(roles.partner_in, me_.send_block(cr));
    if (!me_.single()) r.recv = transfer(me_.co(), j - q - 1);
  }
  if (in) {
    if (x != 0) r.recv = transfer(roles.partner_out, me_.recv_block(cr));
    if (!me_.single()) r.send = transfer(me_.co(), j - q - 1);
  }
  return r;
}

}  // namespace rosched

#endif  // ROSCHED_SCHED_HYPERCUBE_HYPERCUBE_SCHEDULE_H_
