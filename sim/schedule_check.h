// Validity check of the per-phase schedules of all p ranks (the conditions listed in
// phase_schedule.h), in O(p log p). Pure: the verifier runs it for every p, the tables tool
// for the p it prints, and an executor may run it as a self-check.
#ifndef ROSCHED_SIM_SCHEDULE_CHECK_H_
#define ROSCHED_SIM_SCHEDULE_CHECK_H_

#include <cstdint>
#include <optional>
#include <string>

#include "sched/circulant/full_schedule.h"
#include "sched/circulant/skips.h"

namespace rosched::sim {

enum class ViolationKind {
  kMissingBaseblock,     // the own baseblock is not received exactly once
  kBlockOutOfRange,      // a received previous-phase block outside [-q, -1]
  kDuplicateBlock,       // a previous-phase block received twice (or the own one again)
  kSendMismatch,         // send[k] differs from the receiver's recv[k]
  kSendBeforeReceive,    // send[k] is not held before round k
};

const char* violation_name(ViolationKind kind);

struct Violation {
  ViolationKind kind = ViolationKind::kMissingBaseblock;
  std::int64_t rank = 0;
  int round = 0;
  // The block the condition asks for: the receiver's block (send-mismatch and
  // send-before-receive), the own baseblock (missing-baseblock), -q (block-out-of-range);
  // -1 for a duplicate (any block not yet held).
  std::int64_t expected = 0;
  std::int64_t actual = 0;  // the block the schedule has
  // One line: what is wrong, where, expected versus actual.
  std::string describe(std::int64_t p) const;
};

// Checks every rank of a whole schedule, round by round: in each round first every rank's own
// conditions (it sends a block it holds; it receives its baseblock once or a new block of the
// previous phase), then that send[k] of r equals recv[k] of (r + skips[k]) mod p for receivers
// other than the root. The root receives nothing and holds every block. After the last round
// every rank must have received its baseblock. Returns the first violation (earliest round,
// then smallest rank), or nothing if the schedule is valid.
std::optional<Violation> check_schedule(const FullSchedule& f);

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_SCHEDULE_CHECK_H_
