// A foreign-construction plugin that is the paper construction except for one entry: the send
// block of rank 17 in round 3 for p = 40. The verifier must reject it, naming p = 40, rank 17
// and round 3.
#include "sched/paper_schedule.h"
#include "verify/construction_abi.h"

namespace {

constexpr int64_t kBadP = 40, kBadRank = 17;
constexpr int kBadRound = 3;

int fill(const rosched::PhaseSchedule& sched, int32_t* out) {
  for (int k = 0; k < sched.q; ++k) out[k] = sched[k];
  return 0;
}

}  // namespace

extern "C" {

int rosched_abi_version(void) { return ROSCHED_CONSTRUCTION_ABI_VERSION; }

const char* rosched_construction_name(void) { return "corrupt-plugin"; }

int rosched_recv_schedule(int64_t p, int64_t r, int32_t* out) {
  try {
    return fill(rosched::paper::recv_schedule(rosched::Skips(p), r), out);
  } catch (...) {
    return 1;
  }
}

int rosched_send_schedule(int64_t p, int64_t r, int32_t* out) {
  try {
    fill(rosched::paper::send_schedule(rosched::Skips(p), r), out);
  } catch (...) {
    return 1;
  }
  if (p == kBadP && r == kBadRank) out[kBadRound] = out[kBadRound] == -1 ? -2 : -1;
  return 0;
}

}  // extern "C"
