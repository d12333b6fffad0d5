// The n-way dissemination allreduce of End, Yahyapour, Simmendinger, Alrutz (INFOCOMP 2015),
// Sec. III (the rounds) and Sec. IV (the last round), as a schedule description
// (sched/nway/nway_round.h) for any commutative operation, with three last-round rules
// (sched/nway/nway_plan.h). b = n + 1, k = ceil(log_b P) rounds, D = b^i in round i (0-based).
//
// paper (Sec. III-IV): rounds i < k - 1: rank p sends its partial result F (offsets [0, D)) to
//   p + jD, j = 1..n, and folds the F of p - jD (offsets [jD, (j+1)D)) into F. Last round
//   (D = W): senders j = 1..s-1 send F, sender s its prefix of length Lsnd (kSecond: the boxes
//   inside [1, Lsnd), sent together with the own x), and the receiver folds all into F, or, with a
//   take-out Lrcv > 0, into kThird: the boxes at offsets >= Lrcv, gathered during the rounds (the
//   paper's second accumulator, needed without an inverse). Corrections: sched/nway/paper_tuple.h.
// digits: the paper's partners. With c_i = digit i of P in base b and r_i = P mod b^i, kSecond
//   R holds offsets [0, r_i). Round i: R := F o G_1 o ... o G_(c_i - 1) o R', R' the R of
//   p - c_i D, sent as a second vector of that one message (R unchanged if c_i = 0). Last round:
//   senders j < c_(k-1) send F, sender c_(k-1) only R (nothing if r_(k-1) = 0); the result is R.
// circulant: skips s_i = ceil(P / b^(k-i)), d_i = b s_i - s_(i+1) in [0, n]. kSecond E holds
//   offsets [1, s_i) (the own x excluded). Round i: chunks j = 1..n-d_i come as E o x (offsets
//   [0, s_i) of the sender) from distance j s_i; the other d_i chunks as E alone from distance
//   (chunk start - 1), none if s_i = 1. E <- E o chunks; the result is E o x.
// P = b^k: every rule is the plain algorithm. Every rank sends n(k-1) + ceil(P/W) - 1 messages
// with digits and circulant, n(k-1) + s with paper.
//
// Cost: the plan is built once per (P, n, rule); a rank's schedule is O(1) from it and each
// round O(n).
#ifndef ROSCHED_SCHED_NWAY_NWAY_SCHEDULE_H_
#define ROSCHED_SCHED_NWAY_NWAY_SCHEDULE_H_

#include <cstdint>

#include "sched/nway/nway_plan.h"
#include "sched/nway/nway_round.h"

namespace rosched {

// Round i (0 <= i < plan.rounds(), unchecked) as every rank sees it: peers are left as
// distances (peer == distance).
NwayRound nway_relative_round(const NwayPlan& plan, int i);

// The accumulators whose combination is the result after the last round.
std::uint8_t nway_result(const NwayPlan& plan);

// One rank's schedule.
class NwaySchedule {
 public:
  // Throws std::invalid_argument unless 0 <= rank < plan.p().
  NwaySchedule(const NwayPlan& plan, std::int64_t rank);
  // The same, building the plan (throws as NwayPlan does).
  NwaySchedule(std::int64_t p, std::int64_t n, NwayRule rule, std::int64_t rank);

  const NwayPlan& plan() const { return plan_; }
  std::int64_t rank() const { return rank_; }
  int rounds() const { return plan_.rounds(); }
  // What this rank does in round i, with real peers; throws std::out_of_range unless
  // 0 <= i < rounds(). O(n).
  NwayRound round(int i) const;
  std::uint8_t result() const { return nway_result(plan_); }

 private:
  NwayPlan plan_;
  std::int64_t rank_;
};

}  // namespace rosched

#endif  // ROSCHED_SCHED_NWAY_NWAY_SCHEDULE_H_
