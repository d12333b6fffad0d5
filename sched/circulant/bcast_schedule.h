// The n-block broadcast as a schedule description: Algorithm 6 of Träff 2022
// (Sec. 2.2). One description that the verifier simulates and the MPI executor runs.
//
// The n - 1 + q rounds are padded in front with x virtual rounds so that x + n - 1 + q is a
// multiple of q; virtual round v = i + x belongs to phase v / q and uses entry k = v mod q of
// the phase schedules. The block of entry k in phase j is sched[k] + j*q - x. Negative blocks
// are not transferred; blocks >= n are clamped to n - 1 (only a rank's baseblock of the last
// phase is ever clamped, so every rank receives every block exactly once). Nothing is sent to
// the root. Any root is handled by renumbering ranks r -> (r - root) mod p.
#ifndef ROSCHED_SCHED_CIRCULANT_BCAST_SCHEDULE_H_
#define ROSCHED_SCHED_CIRCULANT_BCAST_SCHEDULE_H_

#include <cstdint>
#include <optional>

#include "sched/circulant/phase_schedule.h"
#include "sched/circulant/skips.h"
#include "sched/round.h"

namespace rosched {

class BcastSchedule {
 public:
  // Throws std::invalid_argument unless 1 <= p <= 2^31 - 1, 0 <= rank, root < p and n >= 1.
  BcastSchedule(std::int64_t p, std::int64_t n, std::int64_t rank, std::int64_t root,
                Construction c = kDefaultConstruction);
  // The same from an already computed schedule of the virtual rank (rank - root) mod p, e.g. a
  // row of a FullSchedule (the root's row is not used: the root sends block k in round k).
  BcastSchedule(const Skips& s, std::int64_t n, std::int64_t rank, std::int64_t root,
                const RankSchedule& virtual_rank_schedule);

  std::int64_t p() const { return skips_.p(); }
  std::int64_t n() const { return n_; }
  std::int64_t rank() const { return rank_; }
  std::int64_t root() const { return root_; }
  // n - 1 + q (0 for p = 1): the optimal number of rounds.
  std::int64_t rounds() const { return rounds_; }
  // What this rank does in round i, 0 <= i < rounds(); throws std::out_of_range otherwise.
  BcastRound round(std::int64_t i) const;

 private:
  void init(std::int64_t n, std::int64_t rank, std::int64_t root);
  std::optional<Transfer> transfer(std::int64_t peer_virtual, std::int32_t entry,
                                   std::int64_t phase) const;

  Skips skips_;
  std::int64_t n_, rank_, root_, virtual_rank_, rounds_, x_;
  RankSchedule sched_;
};

}  // namespace rosched

#endif  // ROSCHED_SCHED_CIRCULANT_BCAST_SCHEDULE_H_
