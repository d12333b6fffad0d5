#include "sched/bruck/bruck.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace rosched {
namespace {

void check_radix(std::int64_t radix, const char* who) {
  if (radix < 2 || radix > kMaxBruckRadix) {
    throw std::invalid_argument(std::string(who) + "radix = " + std::to_string(radix) +
                                " is outside [2, " + std::to_string(kMaxBruckRadix) + "]");
  }
}

}  // namespace

BruckSchedule::BruckSchedule(std::int64_t p, std::int64_t radix) : p_(p), r_(radix) {
  check_process_count(p, "BruckSchedule: ");
  check_radix(radix, "BruckSchedule: ");
  if ((r_ & (r_ - 1)) == 0) {
    while ((std::int64_t{1} << shift_) < r_) ++shift_;
  }
  pow_[0] = 1;
  while (pow_[k_] <= p - 1) {  // K = number of base-r digits of P - 1
    pow_[k_ + 1] = pow_[k_] * r_;
    ++k_;
  }
  steps_ = k_ == 0 ? 0 : (r_ - 1) * (k_ - 1) + (p - 1) / pow_[k_ - 1];
}

BruckStep BruckSchedule::step(std::int64_t t) const {
  if (t < 0 || t >= steps_) {
    throw std::out_of_range("BruckSchedule::step: t = " + std::to_string(t) + " is outside [0, " +
                            std::to_string(steps_) + ") for p = " + std::to_string(p_) +
                            ", radix = " + std::to_string(r_));
  }
  BruckStep s;
  s.x = static_cast<int>(t / (r_ - 1));  // every digit position below K - 1 has r - 1 steps
  s.z = t % (r_ - 1) + 1;
  s.weight = pow_[s.x];
  s.distance = s.z * s.weight;
  return s;
}

std::vector<std::int64_t> BruckSchedule::moved(const BruckStep& s) const {
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(moved_count(s)));
  for_each_moved(s, [&](std::int64_t i) { out.push_back(i); });
  return out;
}

std::int64_t BruckSchedule::moved_count(const BruckStep& s) const {
  const std::int64_t period = s.weight * r_;
  const std::int64_t tail = std::clamp<std::int64_t>(p_ % period - s.distance, 0, s.weight);
  return p_ / period * s.weight + tail;
}

std::int64_t BruckSchedule::blocks_per_rank() const {
  std::int64_t total = 0;
  for (std::int64_t t = 0; t < steps_; ++t) total += moved_count(step(t));
  return total;
}

std::int64_t bruck_radix_from_string(const std::string& text) {
  std::size_t used = 0;
  long long r = -1;
  try {
    r = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || r < 2 || r > kMaxBruckRadix) {
    throw std::invalid_argument("radix '" + text + "' is not an integer in [2, " +
                                std::to_string(kMaxBruckRadix) + "]");
  }
  return r;
}

std::int64_t bruck_blocks_brute_force(std::int64_t p, std::int64_t radix) {
  std::int64_t total = 0;
  for (std::int64_t i = 1; i < p; ++i) {
    for (std::int64_t v = i; v > 0; v /= radix) total += v % radix != 0;
  }
  return total;
}

}  // namespace rosched
