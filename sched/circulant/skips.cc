#include "sched/circulant/skips.h"

#include <stdexcept>
#include <string>

namespace rosched {

Skips::Skips(std::int64_t p) {
  check_process_count(p, "number of processes ");
  q_ = ceil_log2(p);
  // Algorithm 1: successive halving, rounding up, from skips[q] = p down to skips[0] = 1.
  std::int64_t s = p;
  for (int k = q_; k >= 0; --k) {
    skips_[k] = s;
    s = s / 2 + s % 2;
  }
}

std::int64_t Skips::at(int k) const {
  if (k < 0 || k > q_) {
    throw std::out_of_range("skip index k = " + std::to_string(k) + " is outside [0, q = " +
                            std::to_string(q_) + "]");
  }
  return skips_[k];
}

void throw_bad_rank(const Skips& s, std::int64_t r, const char* what) {
  throw std::invalid_argument(std::string(what) + " = " + std::to_string(r) +
                              " is outside [0, p) for p = " + std::to_string(s.p()));
}

void throw_bad_round(const Skips& s, int k) {
  throw std::out_of_range("round k = " + std::to_string(k) + " is outside [0, q = " +
                          std::to_string(s.q()) + ")");
}

}  // namespace rosched
