#include "sched/merge/merge_cost.h"

#include <stdexcept>

#include "sched/merge/dissemination_merge.h"
#include "sched/round.h"

namespace rosched::merge {

std::int64_t dissemination_extra_total(std::int64_t p) {
  check_process_count(p, "merge cost: ");
  const std::int64_t l = p - (std::int64_t{1} << floor_log2(p));
  const std::int64_t lowest = l & -l;
  std::int64_t e = 0;
  for (int n = 0; n < 62; ++n) {
    const std::int64_t bit = std::int64_t{1} << n;
    if ((l & bit) && bit != lowest) e += l & (bit - 1);
  }
  return e;
}

std::int64_t volume_blocks(Algorithm a, std::int64_t p) {
  check_process_count(p, "merge cost: ");
  switch (a) {
    case Algorithm::kAllgather:
    case Algorithm::kCirculant: return p - 1;
    case Algorithm::kDissemination: return p - 1 + dissemination_extra_total(p);
    case Algorithm::kDisseminationPrinted: break;
  }
  throw std::invalid_argument("the printed Algorithm 1 has no closed form for its volume");
}

}  // namespace rosched::merge
