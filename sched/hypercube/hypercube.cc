// Bin Jia's hypercube broadcast with NEXTBIT and cooperating pairs: Träff's lecture notes, "The
// power of the hypercube: Optimal Broadcast" through the Main Theorem. See hypercube.h.
#include "sched/hypercube/hypercube.h"

#include <stdexcept>
#include <string>

namespace rosched {

int hypercube_dim(std::int64_t p) {
  check_process_count(p, "hypercube: ");
  return 63 - __builtin_clzll(static_cast<unsigned long long>(p));
}

NextBit nextbit(std::int64_t i, int q) {
  NextBit nb;
  nb.q = q;
  if (i == 0) {
    for (int k = 0; k < q; ++k) nb.d[k] = static_cast<std::uint8_t>(q);
    return nb;
  }
  // Walk down from bit q - 1: `next` is the position of the nearest 1-bit above the current
  // one, starting from the lowest 1-bit shifted up by q (the wrap-around).
  int next = __builtin_ctzll(static_cast<unsigned long long>(i)) + q;
  for (int k = q - 1; k >= 0; --k) {
    nb.d[k] = static_cast<std::uint8_t>(next - k);
    if ((i >> k) & 1) next = k;
  }
  return nb;
}

SwitchCount switch_count(std::int64_t i, int q) {
  SwitchCount sw;
  sw.q = q;
  int ones = 0;
  for (int k = 0; k < q; ++k) {
    ones += static_cast<int>((i >> k) & 1);
    sw.c[k] = static_cast<std::uint8_t>(ones);
  }
  return sw;
}

HypercubeRank::HypercubeRank(std::int64_t p, std::int64_t x) : q_(hypercube_dim(p)) {
  if (x < 0 || x >= p) {
    throw std::invalid_argument("hypercube: rank " + std::to_string(x) + " is outside [0, " +
                                std::to_string(p) + ")");
  }
  if (q_ > 0) magic_ = cube_round_magic(q_);
  p_ = static_cast<std::int32_t>(p);
  x_ = static_cast<std::int32_t>(x);
  co_ = static_cast<std::int32_t>(hypercube_co(p, q_, x));
  rep_ = static_cast<std::int32_t>(hypercube_rep(p, q_, x));
  co_of_rep_ = static_cast<std::int32_t>(hypercube_co(p, q_, rep_));
  nb_ = rosched::nextbit(rep_, q_);
  sw_ = switch_count(rep_, q_);
}

}  // namespace rosched
