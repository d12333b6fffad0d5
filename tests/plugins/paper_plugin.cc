// A foreign-construction plugin (verify/construction_abi.h) that wraps this project's paper
// construction: the verifier must accept it.
#include "sched/paper_schedule.h"
#include "verify/construction_abi.h"

namespace {

int fill(const rosched::PhaseSchedule& sched, int32_t* out) {
  for (int k = 0; k < sched.q; ++k) out[k] = sched[k];
  return 0;
}

}  // namespace

extern "C" {

int rosched_abi_version(void) { return ROSCHED_CONSTRUCTION_ABI_VERSION; }

const char* rosched_construction_name(void) { return "paper-plugin"; }

int rosched_recv_schedule(int64_t p, int64_t r, int32_t* out) {
  try {
    return fill(rosched::paper::recv_schedule(rosched::Skips(p), r), out);
  } catch (...) {
    return 1;
  }
}

int rosched_send_schedule(int64_t p, int64_t r, int32_t* out) {
  try {
    return fill(rosched::paper::send_schedule(rosched::Skips(p), r), out);
  } catch (...) {
    return 1;
  }
}

}  // extern "C"
