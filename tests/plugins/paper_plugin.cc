// A foreign-construction plugin (verify/construction_abi.h) that wraps this project's paper
// construction: the verifier must accept it.
//
// Built a second time with ROSCHED_CORRUPT defined, it is the same construction except for one
// entry: the send block of rank 17 in round 3 for p = 40. The verifier must reject that one,
// naming p = 40, rank 17 and round 3.
#include "sched/circulant/paper_schedule.h"
#include "verify/construction_abi.h"

namespace {

int fill(const rosched::PhaseSchedule& sched, int32_t* out) {
  for (int k = 0; k < sched.q; ++k) out[k] = sched[k];
  return 0;
}

}  // namespace

extern "C" {

int rosched_abi_version(void) { return ROSCHED_CONSTRUCTION_ABI_VERSION; }

#ifdef ROSCHED_CORRUPT
const char* rosched_construction_name(void) { return "corrupt-plugin"; }
#else
const char* rosched_construction_name(void) { return "paper-plugin"; }
#endif

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
#ifdef ROSCHED_CORRUPT
  if (p == 40 && r == 17) out[3] = out[3] == -1 ? -2 : -1;
#endif
  return 0;
}

}  // extern "C"
