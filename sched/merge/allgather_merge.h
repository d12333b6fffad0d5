// Lang 2025, Sec. 2 (Algorithm 0, the baseline): all-gather every block, then merge the p blocks
// bottom-up in rank order, as a MergePlan (merge_plan.h).
//
// The gathering is the Bruck/dissemination all-gather (Bruck et al. 1997; the paper calls
// MPI_Allgather): q = ceil(log2 p) rounds; in round k (distance 2^k) a rank sends the first
// min(2^k, p - 2^k) blocks it has gathered, [P, P + min(2^k, p - 2^k)), to P - 2^k and appends
// what it receives from P + 2^k: every block arrives exactly once, m (p - 1) per rank.
// The blocks stay separate (concatenated, not merged). The final operation is the merge tree:
// level j = 0 .. q - 1 merges runs 2i and 2i + 1 of width 2^j (in rank order 0 .. p - 1; an odd
// run at the end is carried over), so every level writes all n elements: n ceil(log2 p) merge
// work, against O(n) per rank for Algorithms 1 and 2.
#ifndef ROSCHED_SCHED_MERGE_ALLGATHER_MERGE_H_
#define ROSCHED_SCHED_MERGE_ALLGATHER_MERGE_H_

#include <cstdint>

#include "sched/merge/merge_plan.h"

namespace rosched::merge {

MergePlan allgather_merge_plan(std::int64_t p);

}  // namespace rosched::merge

#endif  // ROSCHED_SCHED_MERGE_ALLGATHER_MERGE_H_
