// A foreign-construction plugin (verify/construction_abi.h) that wraps this project's paper
// construction: the verifier must accept it.
//
// Built with ROSCHED_MISBEHAVE=M it is the same construction misbehaving in one way at p = 40,
// rank 17 (the verifier must name both), or at load:
//   1 segfault            2 exit(0)                 3 no name (nullptr)
//   4 writes 40 entries   5 returns block 99        6 returns -100
//   7 returns error code 3
//   8 a wrong but in-range send block in round 3 (the corrupt plugin: a schedule violation)
#include <cstdlib>

#include "sched/circulant/paper_schedule.h"
#include "verify/construction_abi.h"

#ifndef ROSCHED_MISBEHAVE
#define ROSCHED_MISBEHAVE 0
#endif

namespace {

int fill(const rosched::PhaseSchedule& sched, int32_t* out) {
  for (int k = 0; k < sched.q; ++k) out[k] = sched[k];
  return 0;
}

// The misbehaviour at the victim's send schedule (out already filled); returns the result.
int misbehave(int32_t* out) {
  switch (ROSCHED_MISBEHAVE) {
    case 1: {
      volatile int* nowhere = nullptr;
      return *nowhere;
    }
    case 2:
      std::exit(0);
    case 4:
      for (int k = 0; k < 40; ++k) out[k] = -1;
      return 0;
    case 5:
      out[2] = 99;
      return 0;
    case 6:
      out[2] = -100;
      return 0;
    case 7:
      return 3;
    case 8:
      out[3] = out[3] == -1 ? -2 : -1;
      return 0;
    default:
      return 0;
  }
}

}  // namespace

extern "C" {

int rosched_abi_version(void) { return ROSCHED_CONSTRUCTION_ABI_VERSION; }

const char* rosched_construction_name(void) {
  switch (ROSCHED_MISBEHAVE) {
    case 0:
      return "paper-plugin";
    case 3:
      return nullptr;
    case 8:
      return "corrupt-plugin";
    default:
      return "misbehaving-plugin";
  }
}

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
  return p == 40 && r == 17 ? misbehave(out) : 0;
}

}  // extern "C"
