#include "sched/nway/paper_tuple.h"

namespace rosched {

bool paper_boundary(std::int64_t x, std::int64_t b, int k) {
  if (x == 1) return true;
  if (x < 2) return false;
  // x = m b^e with 2 <= m <= b and 0 <= e <= k - 2, i.e. m = b gives b^(e+1) for e + 1 <= k - 1.
  int e = 0;
  while (x % b == 0) x /= b, ++e;
  if (x == 1) return e >= 1 && e <= k - 1;  // b^e = b * b^(e-1)
  return x < b && e <= k - 2;
}

std::optional<PaperTuple> paper_tuple(std::int64_t p, std::int64_t n) {
  const std::int64_t b = n + 1;
  int k = 0;
  std::int64_t w = 1, bk = 1;  // w = b^(k-1), bk = b^k
  while (bk < p) w = bk, bk *= b, ++k;
  for (std::int64_t s = 1; s <= n; ++s) {
    const std::int64_t delta = p - s * w;  // Lsnd - Lrcv
    if (delta > w) continue;               // Lsnd <= W, Lrcv >= 0
    if (delta >= 1 && paper_boundary(delta, b, k)) return PaperTuple{s, delta, 0};
    // Smallest Lsnd in A with Lrcv = Lsnd - delta in A (both <= W): walk A upwards.
    std::optional<PaperTuple> best;
    for (std::int64_t e = 1, pow = 1; e <= k && !best; ++e, pow *= b) {
      // Elements m * b^(e-1), m = 1 (only e = 1) or 2..b, increasing.
      for (std::int64_t m = e == 1 ? 1 : 2; m <= b; ++m) {
        const std::int64_t lsnd = m * pow, lrcv = lsnd - delta;
        if (lsnd > w) break;
        if (lrcv < 1 || !paper_boundary(lrcv, b, k)) continue;
        if (s * w == p) continue;  // the sender would be the receiver
        best = PaperTuple{s, lsnd, lrcv};
        break;
      }
    }
    if (best) return best;
  }
  return std::nullopt;
}

}  // namespace rosched
