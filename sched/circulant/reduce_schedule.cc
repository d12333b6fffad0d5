// The circulant n-block reduction, Träff 2022's Alg. 6 broadcast run backwards: see
// reduce_schedule.h.
#include "sched/circulant/reduce_schedule.h"

#include <stdexcept>
#include <string>

namespace rosched {

ReduceRound ReduceSchedule::round(std::int64_t i) const {
  if (i < 0 || i >= rounds()) {
    throw std::out_of_range("circulant reduction round " + std::to_string(i) +
                            " is outside [0, " + std::to_string(rounds()) + ")");
  }
  return reversed(bcast_.round(rounds() - 1 - i));
}

}  // namespace rosched
