// Lang 2025, Sec. 4, Algorithm 2 (CIRCULANT): merge-allreduce over circulant skips, as a
// MergePlan (merge_plan.h). Every block is received exactly once: m (p - 1) per rank.
//
// q = ceil(log2 p), s_q = p, s_k = ceil(s_(k+1) / 2) (so s_0 = 1, s_1 = 2). A rank keeps its own
// block V = [P, P + 1) and W, the blocks P + 1 .. P + s_k - 1 (empty before round 0). In round k,
// e = s_(k+1) mod 2 and d = s_k - e: send to P - d, receive from P + d.
//   - e = 1: send W; W := W (+) received W' = [P + 1, P + 2 s_k - 1) = [P + 1, P + s_(k+1)).
//   - e = 0: send V (main part) and W (partial part; none in round 0, where W is empty);
//     W := W (+) V' (+) W' = [P + 1, P + 2 s_k) (one 3-way merge at the receiver).
// The distance d equals the number of blocks sent. Result: V (+) W. The last round does no
// merge of its own: the result is V (+) W (+) what arrives, one pass over all data.
//
// Corrections and changes to the printed text:
//   1. An "else" between lines 20 and 21 of the listing was lost: round 0 sends V only, later
//      rounds with s_(k+1) even send W (+) V. In Sec. 4.1 "V is merged into V" should read W.
//   2. The listing merges W (+) V before sending (a pass over W in every such round) and again
//      at the end; here V and W travel as two parts of one message and the receiver merges
//      three runs in one pass (the change the seed notes suggest), so the merge work is about
//      2 m p instead of up to 4 m p.
//   3. The paper's alternative rule agrees: V is sent in round k iff bit q - 1 - k of p - 1 is 1
//      iff s_(k+1) is even (asserted by the tests).
#ifndef ROSCHED_SCHED_MERGE_CIRCULANT_MERGE_H_
#define ROSCHED_SCHED_MERGE_CIRCULANT_MERGE_H_

#include <cstdint>
#include <vector>

#include "sched/merge/merge_plan.h"

namespace rosched::merge {

// s_0 .. s_q of Algorithm 2 (q = ceil(log2 p); {1} for p = 1).
std::vector<std::int64_t> merge_skips(std::int64_t p);

MergePlan circulant_merge_plan(std::int64_t p);

}  // namespace rosched::merge

#endif  // ROSCHED_SCHED_MERGE_CIRCULANT_MERGE_H_
