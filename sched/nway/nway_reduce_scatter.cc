#include "sched/nway/nway_reduce_scatter.h"

#include <stdexcept>
#include <string>

namespace rosched {

std::vector<NwayAllgatherMessage> nway_reduce_scatter_round(const NwayPlan& plan, int j) {
  if (j < 0 || j >= plan.rounds()) {
    throw std::out_of_range("n-port reduce-scatter: round " + std::to_string(j) +
                            " is outside [0, " + std::to_string(plan.rounds()) + ")");
  }
  return nway_allgather_round(plan, plan.rounds() - 1 - j);
}

}  // namespace rosched
