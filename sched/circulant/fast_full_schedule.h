// The receive and send schedules of all p ranks under the construction `fast`, in O(p log p)
// time, level by level over blocks of consecutive ranks (what an irregular all-gather needs,
// and what the verifier checks).
//
// Idea (this project's; the per-rank pieces are those of fast_schedule.h, after Träff,
// arXiv 2312.11236): every rank's send schedule follows from the local rule along its
// decomposition by the skips (fast_rule.h), and send[k] of r is recv[k] of
// r + skips[k], so one pass of the rule over all ranks fills both tables. The rule walks the
// levels k = q-1 .. 1 with three small integers of state per rank (the rest of the
// decomposition, the end of the enclosing subtree, the block passed on), and the same
// arithmetic for every rank. So it runs here level-major: for a block of 1,024 consecutive
// ranks, whose state stays in the L1 cache, each level is one branch-free loop over the ranks
// (which the compiler vectorises), and its results are two contiguous stores: the ranks' send
// entries of round k, and the same bytes as the receive entries of ranks r + skips[k].
// The few entries the rule leaves open (at most 4 per rank, 0.8 on average, see
// fast_schedule.h) are completed afterwards per receiver, as in fast_schedule.h: the homerange
// round holds the receiver's baseblock, a single open entry is the one block still missing
// from its receive set, and otherwise the receiver's own receive walk decides.
#ifndef ROSCHED_SCHED_CIRCULANT_FAST_FULL_SCHEDULE_H_
#define ROSCHED_SCHED_CIRCULANT_FAST_FULL_SCHEDULE_H_

#include "sched/circulant/full_schedule.h"
#include "sched/circulant/skips.h"

namespace rosched {
namespace fast {

// Fills f (reset to s; its storage is reused) with every rank's schedules. Each entry is
// written; the result equals full_schedule_per_rank(s, Construction::fast).
void build_full_schedule(const Skips& s, FullSchedule& f);

}  // namespace fast
}  // namespace rosched

#endif  // ROSCHED_SCHED_CIRCULANT_FAST_FULL_SCHEDULE_H_
