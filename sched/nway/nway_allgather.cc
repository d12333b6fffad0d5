#include "sched/nway/nway_allgather.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace rosched {

NwayPlan nway_allgather_plan(std::int64_t p, std::int64_t n) {
  return NwayPlan(p, n, NwayRule::kCirculant);
}

std::vector<NwayAllgatherMessage> nway_allgather_round(const NwayPlan& plan, int i) {
  if (i < 0 || i >= plan.rounds()) {
    throw std::out_of_range("n-way all-gather: round " + std::to_string(i) + " is outside [0, " +
                            std::to_string(plan.rounds()) + ")");
  }
  const std::int64_t held = plan.skip(i), next = plan.skip(i + 1);
  std::vector<NwayAllgatherMessage> out;
  for (std::int64_t j = 1; j * held < next; ++j) {
    out.push_back({static_cast<int>(j), j * held, std::min(held, next - j * held)});
  }
  return out;
}

}  // namespace rosched
