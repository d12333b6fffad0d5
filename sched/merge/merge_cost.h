// Closed forms for the merge-allreduce schedules (Lang 2025, Secs. 2.1, 3.1, 4.1, as corrected
// by simulation; docs/families.md): blocks sent per rank. The verifier compares every rank's
// simulated volume with these.
#ifndef ROSCHED_SCHED_MERGE_MERGE_COST_H_
#define ROSCHED_SCHED_MERGE_MERGE_COST_H_

#include <cstdint>

#include "sched/merge/merge_plan.h"

namespace rosched::merge {

// E of Algorithm 1: with l = p - 2^floor(log2 p), the sum over the set bits n of l except the
// lowest of (l mod 2^n). E = 0 iff l has at most one set bit; E < (p - 1) / 2 always (the
// paper's "at most 1.5 times" holds, strictly).
std::int64_t dissemination_extra_total(std::int64_t p);

// Blocks every rank sends: p - 1 for Algorithms 0 and 2 (every block arrives once),
// p - 1 + E for Algorithm 1. Throws std::invalid_argument for the printed Algorithm 1 (no
// closed form: it is wrong) and bad p.
std::int64_t volume_blocks(Algorithm a, std::int64_t p);

}  // namespace rosched::merge

#endif  // ROSCHED_SCHED_MERGE_MERGE_COST_H_
