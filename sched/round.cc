#include "sched/round.h"

#include <stdexcept>
#include <string>

namespace rosched {

int ceil_log2(std::int64_t x) {
  int q = 0;
  while ((std::int64_t{1} << q) < x) ++q;
  return q;
}

int ceil_log(std::int64_t x, std::int64_t base) {
  int k = 0;
  for (std::int64_t reach = 1; reach < x; reach *= base) ++k;
  return k;
}

void check_process_count(std::int64_t p, const char* who) {
  if (p < 1 || p > kMaxProcesses) {
    throw std::invalid_argument(std::string(who) + "p = " + std::to_string(p) +
                                " is outside [1, 2^31 - 1]");
  }
}

void throw_round_outside(std::int64_t i, std::int64_t rounds, const char* what) {
  throw std::out_of_range(std::string(what) + " round " + std::to_string(i) + " is outside [0, " +
                          std::to_string(rounds) + ")");
}

}  // namespace rosched
