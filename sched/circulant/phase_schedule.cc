#include "sched/circulant/phase_schedule.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "sched/circulant/fast_schedule.h"
#include "sched/circulant/paper_schedule.h"

namespace rosched {

Construction parse_construction(const char* name) {
  if (std::strcmp(name, "fast") == 0) return Construction::fast;
  if (std::strcmp(name, "paper") == 0) return Construction::paper;
  throw std::invalid_argument(std::string("unknown construction '") + name +
                              "' (known: fast, paper)");
}

const char* construction_name(Construction c) {
  switch (c) {
    case Construction::fast:
      return "fast";
    case Construction::paper:
      return "paper";
  }
  return "?";
}

RankSchedule rank_schedule(const Skips& s, std::int64_t r, Construction c) {
  switch (c) {
    case Construction::fast:
      return fast::rank_schedule(s, r);
    case Construction::paper:
      return {paper::recv_schedule(s, r), paper::send_schedule(s, r)};
  }
  throw std::invalid_argument("unknown construction");
}

PhaseSchedule recv_schedule(const Skips& s, std::int64_t r, Construction c) {
  switch (c) {
    case Construction::fast:
      return fast::recv_schedule(s, r);
    case Construction::paper:
      return paper::recv_schedule(s, r);
  }
  throw std::invalid_argument("unknown construction");
}

}  // namespace rosched
