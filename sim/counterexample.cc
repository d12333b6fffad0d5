#include "sim/counterexample.h"

namespace rosched::sim {

std::string Counterexample::describe() const {
  std::string line = check + " " + kind + ": p=" + std::to_string(p) + " rank=" +
                     std::to_string(rank) + " round=" + std::to_string(round);
  if (has_values) line += " expected=" + std::to_string(expected) + " actual=" + std::to_string(actual);
  if (!detail.empty()) line += " (" + detail + ")";
  return line;
}

}  // namespace rosched::sim
