// Validity check of the per-phase schedules of all p ranks (the conditions listed in
// phase_schedule.h), in O(p log p). Pure: the verifier runs it for every p, the tables tool
// for the p it prints, and an executor may run it as a self-check.
#ifndef ROSCHED_SCHED_SCHEDULE_CHECK_H_
#define ROSCHED_SCHED_SCHEDULE_CHECK_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sched/phase_schedule.h"
#include "sched/skips.h"

namespace rosched {

enum class ViolationKind {
  kMissingBaseblock,     // the own baseblock is not received exactly once
  kBlockOutOfRange,      // a received previous-phase block outside [-q, -1]
  kDuplicateBlock,       // a previous-phase block received twice (or the own one again)
  kSendMismatch,         // send[k] differs from the receiver's recv[k]
  kSendBeforeReceive,    // send[k] is not held before round k
};

const char* violation_name(ViolationKind kind);

struct Violation {
  ViolationKind kind;
  std::int64_t rank = 0;
  int round = 0;
  // The block the condition asks for: the receiver's block (send-mismatch), the own baseblock
  // (missing-baseblock), -q (block-out-of-range); -1 where no single block is asked for.
  std::int64_t expected = 0;
  std::int64_t actual = 0;    // the block the schedule has
  // One line: what is wrong, where, expected versus actual.
  std::string describe(std::int64_t p) const;
};

// Checks the conditions of rank r that need only its own schedule (receive set, sends held).
// The root (r = 0) receives nothing and holds every block: nothing to check locally.
std::optional<Violation> check_rank_local(const Skips& s, std::int64_t r,
                                          const RankSchedule& sched);

// Checks every rank of a whole schedule (all.size() == p), including
// send[k] of r == recv[k] of (r + skips[k]) mod p for receivers other than the root.
// Returns the first violation, or nothing if valid: local conditions are checked for all ranks
// first (smallest rank, then round), then the matching of sends and receives.
std::optional<Violation> check_schedule(const Skips& s, const std::vector<RankSchedule>& all);

// The whole schedule of p ranks under a construction (O(p) rank constructions).
std::vector<RankSchedule> full_schedule(const Skips& s, Construction c);

}  // namespace rosched

#endif  // ROSCHED_SCHED_SCHEDULE_CHECK_H_
