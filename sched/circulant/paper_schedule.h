// Receive and send schedules as Träff 2022 constructs them: Algorithm 4 (RECVSCHED, in
// O(log^2 p)) and Algorithm 5 (SENDSCHED, O(log^3 p)) of Träff 2022 (Sec. 2).
//
// Two deliberate readings of the printed Algorithm 4, both checked by simulation
// (tests/paper_schedule_test.cc and the verifier):
//   * B starts as {baseblock(r)}, not the empty set: the own baseblock of the previous phase
//     is already held, and must not be received again (the printed B = {} can pick it and
//     then has two candidates in the last round). With this, Table 1 (p = 20) and the left
//     schedule of Table 5 (p = 9) are reproduced exactly.
//   * Candidate blocks are limited to 0..q-1 (blocks of a phase); RANGEBLOCKS reports the
//     root as block q, which is never a block to receive.
#ifndef ROSCHED_SCHED_CIRCULANT_PAPER_SCHEDULE_H_
#define ROSCHED_SCHED_CIRCULANT_PAPER_SCHEDULE_H_

#include <cstdint>

#include "sched/circulant/phase_schedule.h"
#include "sched/circulant/skips.h"

namespace rosched {
namespace paper {

// Algorithm 4: the first `rounds` entries (0 <= rounds <= q) of rank r's receive schedule; the
// remaining entries are left 0. Throws std::invalid_argument for r outside [0, p), and
// std::logic_error if the construction finds no block to receive (never observed; it would be
// a counterexample to the paper's Lemma 2).
PhaseSchedule recv_schedule(const Skips& s, std::int64_t r, int rounds);
inline PhaseSchedule recv_schedule(const Skips& s, std::int64_t r) {
  return recv_schedule(s, r, s.q());
}

// Algorithm 5: send[k] = recv_schedule(r + skips[k], k + 1)[k].
PhaseSchedule send_schedule(const Skips& s, std::int64_t r);

}  // namespace paper
}  // namespace rosched

#endif  // ROSCHED_SCHED_CIRCULANT_PAPER_SCHEDULE_H_
