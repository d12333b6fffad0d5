// Lang 2025, Sec. 2 (Algorithm 0); see allgather_merge.h.
#include "sched/merge/allgather_merge.h"

#include <algorithm>

#include "sched/round.h"

namespace rosched::merge {

MergePlan allgather_merge_plan(std::int64_t p) {
  check_process_count(p, "merge schedule: ");
  const int q = ceil_log2(p);
  detail::PlanBuilder b(Algorithm::kAllgather, p);
  Slot gathered = Slot::kOwn;
  for (int k = 0; k < q; ++k) {
    const std::int64_t d = std::int64_t{1} << k;
    b.round(d, gathered, Slot::kNone, std::min(d, p - d));
    b.op(Slot::kAcc, {gathered, Slot::kRecvMain}, /*concat=*/true);
    gathered = Slot::kAcc;
  }
  b.final_op({gathered}, /*tree=*/true);
  return b.take();
}

}  // namespace rosched::merge
