#include "tests/gen_p.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <unordered_set>

namespace rosched_test {
namespace {

std::mutex mu;
std::unordered_set<std::int64_t>& covered() {
  static auto* set = new std::unordered_set<std::int64_t>();
  return *set;
}

// Prints the coverage line once all tests of the binary have run.
class CoverageReport : public ::testing::Environment {
 public:
  void TearDown() override {
    if (distinct_p_covered() > 0) {
      std::printf("[ coverage ] property tests covered %zu distinct p\n", distinct_p_covered());
    }
  }
};
const auto* const kReport = ::testing::AddGlobalTestEnvironment(new CoverageReport);

}  // namespace

std::int64_t next_prime(std::int64_t x) {
  for (std::int64_t c = std::max<std::int64_t>(x, 2);; ++c) {
    bool prime = true;
    for (std::int64_t d = 2; d * d <= c; ++d) {
      if (c % d == 0) {
        prime = false;
        break;
      }
    }
    if (prime) return c;
  }
}

void note_p(std::int64_t p) {
  std::lock_guard<std::mutex> lock(mu);
  covered().insert(p);
}

std::size_t distinct_p_covered() {
  std::lock_guard<std::mutex> lock(mu);
  return covered().size();
}

rc::Gen<std::int64_t> gen_p(std::int64_t max_p) {
  int max_e = 0;
  while (max_e < 31 && (std::int64_t{1} << (max_e + 1)) <= max_p) ++max_e;
  const auto clamp = [max_p](std::int64_t p) { return std::clamp<std::int64_t>(p, 1, max_p); };
  const auto tiny = rc::gen::element<std::int64_t>(1, 2, 3);
  const auto near_pow2 = rc::gen::map(
      rc::gen::pair(rc::gen::inRange(0, max_e + 1), rc::gen::inRange(-1, 2)),
      [clamp](const std::pair<int, int>& e) { return clamp((std::int64_t{1} << e.first) + e.second); });
  const auto prime = rc::gen::map(rc::gen::inRange<std::int64_t>(1, max_p + 1), [max_p](std::int64_t x) {
    const std::int64_t c = next_prime(x);
    return c <= max_p ? c : x;
  });
  const auto uniform = rc::gen::inRange<std::int64_t>(1, max_p + 1);
  // Log-uniform: as many small and medium p as large ones.
  const auto log_uniform = rc::gen::mapcat(rc::gen::inRange(0, max_e + 1), [max_p](int e) {
    const std::int64_t lo = std::int64_t{1} << e;
    const std::int64_t hi = std::min<std::int64_t>(max_p, (lo << 1) - 1);
    return rc::gen::inRange<std::int64_t>(lo, hi + 1);
  });
  return rc::gen::map(
      rc::gen::weightedOneOf<std::int64_t>(
          {{1, tiny}, {3, near_pow2}, {2, prime}, {1, uniform}, {3, log_uniform}}),
      [](std::int64_t p) {
        note_p(p);
        return p;
      });
}

}  // namespace rosched_test
