// Lang 2025, Sec. 4, Algorithm 2; see circulant_merge.h for the corrections.
#include "sched/merge/circulant_merge.h"

#include <vector>

#include "sched/round.h"

namespace rosched::merge {

std::vector<std::int64_t> merge_skips(std::int64_t p) {
  check_process_count(p, "merge schedule: ");
  const int q = ceil_log2(p);
  std::vector<std::int64_t> s(q + 1);
  s[q] = p;
  for (int k = q - 1; k >= 0; --k) s[k] = (s[k + 1] + 1) / 2;
  return s;
}

MergePlan circulant_merge_plan(std::int64_t p) {
  const std::vector<std::int64_t> s = merge_skips(p);
  const int q = static_cast<int>(s.size()) - 1;
  detail::PlanBuilder b(Algorithm::kCirculant, p);
  b.start(Slot::kAcc, {1, 0});  // W is empty
  for (int k = 0; k < q; ++k) {
    const bool with_v = s[k + 1] % 2 == 0;
    const std::int64_t d = s[k] - (with_v ? 0 : 1);
    if (with_v) {
      b.round(d, Slot::kOwn, k == 0 ? Slot::kNone : Slot::kAcc);
    } else {
      b.round(d, Slot::kAcc, Slot::kNone);
    }
    // W (+) what arrives, in rank order: W = [P + 1, P + s_k) is empty in round 0.
    std::vector<Slot> parts;
    if (k > 0) parts.push_back(Slot::kAcc);
    parts.push_back(Slot::kRecvMain);
    if (with_v && k > 0) parts.push_back(Slot::kRecvPartial);
    if (k == q - 1) {
      parts.insert(parts.begin(), Slot::kOwn);
      b.final_op(parts);
    } else {
      b.op(Slot::kAcc, parts);
    }
  }
  if (q == 0) b.final_op({Slot::kOwn});
  return b.take();
}

}  // namespace rosched::merge
