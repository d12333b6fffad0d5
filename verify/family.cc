#include "verify/family.h"

#include <algorithm>
#include <chrono>

namespace rosched::verify {
namespace {

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void add_once(std::vector<std::int64_t>& v, std::int64_t x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

}  // namespace

Laps::Laps() : start_ns_(now_ns()) {}

void Laps::operator()(double& seconds) {
  const std::int64_t now = now_ns();
  seconds += static_cast<double>(now - start_ns_) * 1e-9;
  start_ns_ = now;
}

std::vector<std::int64_t> block_counts(int q) {
  std::vector<std::int64_t> out;
  for (std::int64_t n : {1, 2, q - 1, q, q + 1, 3 * q + 2}) {
    if (n >= 1) add_once(out, n);
  }
  return out;
}

std::vector<std::int64_t> roots(std::int64_t p) {
  std::vector<std::int64_t> out;
  for (std::int64_t r : {std::int64_t{0}, p / 2, p - 1}) add_once(out, r);
  return out;
}

}  // namespace rosched::verify
