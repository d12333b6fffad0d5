// Lang 2025, Sec. 3, Algorithm 1; see dissemination_merge.h for the corrections.
#include "sched/merge/dissemination_merge.h"

#include "sched/round.h"

namespace rosched::merge {
namespace {

// Algorithm 1 with the special rounds given by extra(k) (-1: not special).
template <typename Extra>
MergePlan dissemination_plan(Algorithm a, std::int64_t p, Extra&& extra) {
  check_process_count(p, "merge schedule: ");
  const int q1 = floor_log2(p);
  const std::int64_t l = p - (std::int64_t{1} << q1);
  detail::PlanBuilder b(a, p);
  Slot local = Slot::kOwn;  // the rank's own block until round 0 has merged
  for (int k = 0; k < q1; ++k) {
    const std::int64_t r = extra(k);
    b.round(std::int64_t{1} << k, local, r > 0 ? Slot::kPartial : Slot::kNone);
    if (r == 0) b.op(Slot::kPartial, {local});
    if (r > 0) b.op(Slot::kPartial, {local, Slot::kRecvPartial});
    if (l == 0 && k == q1 - 1) {  // p a power of two: the last merge writes the result
      b.final_op({local, Slot::kRecvMain});
    } else {
      b.op(Slot::kAcc, {local, Slot::kRecvMain});
    }
    local = Slot::kAcc;
  }
  if (l > 0) {
    b.round(std::int64_t{1} << q1, Slot::kPartial, Slot::kNone);
    b.final_op({local, Slot::kRecvMain});
  } else if (q1 == 0) {
    b.final_op({Slot::kOwn});  // p = 1
  }
  return b.take();
}

}  // namespace

int floor_log2(std::int64_t p) {
  int q = 0;
  while ((p >> (q + 1)) > 0) ++q;
  return q;
}

std::int64_t dissemination_extra(std::int64_t p, int k) {
  const std::int64_t l = p - (std::int64_t{1} << floor_log2(p));
  if (!((l >> k) & 1)) return -1;
  return l & ((std::int64_t{1} << k) - 1);
}

std::vector<std::pair<int, std::int64_t>> printed_special_list(std::int64_t p) {
  std::vector<std::pair<int, std::int64_t>> list;
  for (std::int64_t rest = p - (std::int64_t{1} << floor_log2(p)); rest > 0;) {
    const int n = floor_log2(rest);
    rest -= std::int64_t{1} << n;
    list.emplace_back(n, rest);
  }
  return list;
}

MergePlan dissemination_merge_plan(std::int64_t p) {
  return dissemination_plan(Algorithm::kDissemination, p,
                            [p](int k) { return dissemination_extra(p, k); });
}

MergePlan dissemination_printed_plan(std::int64_t p) {
  check_process_count(p, "merge schedule: ");
  const auto list = printed_special_list(p);
  std::size_t idx = 0;
  // Lines 18-24: r = -1 unless k equals L[idx].n (guarded: idx < |L|), then idx advances.
  return dissemination_plan(Algorithm::kDisseminationPrinted, p, [&](int k) -> std::int64_t {
    if (idx < list.size() && list[idx].first == k) return list[idx++].second;
    return -1;
  });
}

}  // namespace rosched::merge
