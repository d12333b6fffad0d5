// What the verifier reports when a check fails: enough to find and reproduce the failure.
#ifndef ROSCHED_SIM_COUNTEREXAMPLE_H_
#define ROSCHED_SIM_COUNTEREXAMPLE_H_

#include <cstdint>
#include <string>

namespace rosched::sim {

struct Counterexample {
  std::string check;  // broadcast-schedule, broadcast-run, baseblock, rangeblocks, allgather, census
  std::string kind;   // what is wrong, e.g. send-mismatch
  std::int64_t p = 0;
  std::int64_t rank = 0;   // for rangeblocks: the range start
  std::int64_t round = 0;  // for rangeblocks: the range length
  std::int64_t expected = 0;
  std::int64_t actual = 0;
  std::string detail;  // extra context (n and root of a broadcast run, ...)
  // Whether expected and actual mean anything (not for, e.g., a construction that failed).
  bool has_values = true;

  // One line with every field.
  std::string describe() const;
};

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_COUNTEREXAMPLE_H_
