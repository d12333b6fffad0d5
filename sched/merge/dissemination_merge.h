// Lang 2025, Sec. 3, Algorithm 1 (DISSEMINATION): the Bruck/dissemination all-reduce for merge,
// with "partial" extra data when p is not a power of two, as a MergePlan (merge_plan.h).
//
// q1 = floor(log2 p), l = p - 2^q1. Round k < q1 (distance 2^k): send the accumulated run
// local = [P, P + 2^k) to P - 2^k, receive [P + 2^k, P + 2^(k+1)) from P + 2^k, local := local
// (+) received. Round k is special iff bit k of l is 1; then r_k = l mod 2^k:
//   - r_k = 0 (the lowest set bit of l): partial := the old local, [P, P + 2^k);
//   - r_k > 0: the message also carries partial = [P, P + r_k); partial := old local (+) the
//     received partial = [P, P + 2^k + r_k).
// Invariant: after round k, partial = [P, P + (l mod 2^(k+1))). If l > 0 a last round (distance
// 2^q1) sends partial = [P, P + l) and the result is local (+) the received partial. Rounds:
// q1 + [l > 0] = ceil(log2 p). Extra volume per rank: E = sum of r_k over the special rounds,
// E < (p - 1) / 2 (merge_cost.h).
//
// Corrections to the printed text (found by simulation; see docs/families.md):
//   1. The printed listing (lines 2-8) builds the list L of special rounds (n, r) with n
//      decreasing but walks it from idx = 0 while k increases, so only the largest special
//      round is ever recognised and partial never receives the lower ones: ranks miss blocks
//      whenever l has two or more set bits (257 of p = 1..300; first p = 7, where rank 0 lacks
//      rank 6's block). Here: special iff bit k of l, r_k = l mod 2^k (L walked in reverse).
//      The printed reading is kept as Algorithm::kDisseminationPrinted, a control the verifier
//      must reject.
//   2. L[idx] is read when L is empty (p a power of two) and past its end: guarded.
//   3. The prose example for p = 9 copies "the block received in the first round" into
//      partial; it must be the rank's own (old local) block, as listing line 33 does.
//   4. Line 15 allocates ceil(m p / 2) elements for partial; the peak is l m < m p / 2.
#ifndef ROSCHED_SCHED_MERGE_DISSEMINATION_MERGE_H_
#define ROSCHED_SCHED_MERGE_DISSEMINATION_MERGE_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "sched/merge/merge_plan.h"

namespace rosched::merge {

// floor(log2 p) for p >= 1.
int floor_log2(std::int64_t p);

// The extra blocks r_k of round k < floor(log2 p): l mod 2^k if bit k of l = p - 2^q1 is set,
// else -1 (not special).
std::int64_t dissemination_extra(std::int64_t p, int k);

// The printed list L (Lang 2025, Alg. 1, lines 2-8): (n, r) pairs, n decreasing.
std::vector<std::pair<int, std::int64_t>> printed_special_list(std::int64_t p);

// The corrected Algorithm 1 and the printed one (its list walked from idx = 0).
MergePlan dissemination_merge_plan(std::int64_t p);
MergePlan dissemination_printed_plan(std::int64_t p);

}  // namespace rosched::merge

#endif  // ROSCHED_SCHED_MERGE_DISSEMINATION_MERGE_H_
