#include "sched/circulant/baseblock.h"

namespace rosched {
namespace {

// Largest j with skips[j] <= L, for 1 <= L < p, in O(1): skips[j] = ceil(p / 2^(q-j)), so
// skips[j] <= L  <=>  2^(q-j) * L >= p  <=>  q - j >= ceil(log2(ceil(p / L))).
int top_level(const Skips& s, std::int64_t L) {
  const std::int64_t ratio = (s.p() + L - 1) / L;
  const int m = 64 - __builtin_clzll(static_cast<unsigned long long>(ratio - 1));  // ceil_log2
  return s.q() - (ratio == 1 ? 0 : m);
}

// Blocks of ranks 1..L (L >= 1): {0, ..., top_level(L)}.
BlockSet prefix_blocks(const Skips& s, std::int64_t L) { return BlockSet::upto(top_level(s, L)); }

// Blocks of ranks a..b with 1 <= a <= b < p. Walks down the levels of the recursive
// structure once: either [a, b] lies strictly inside (skips[k], skips[k+1]) and is shifted down
// by skips[k], or it contains rank skips[k] (block k), a prefix [skips[k]+1, b] of seq_{k-1},
// and a remaining part [a, skips[k]-1] that is handled at the lower levels.
BlockSet linear_rangeblocks(const Skips& s, std::int64_t a, std::int64_t b) {
  BlockSet result;
  int k = s.q() - 1;
  for (;;) {
    while (s[k] > b) --k;  // terminates: skips[0] = 1 <= b
    if (a > s[k]) {
      a -= s[k];
      b -= s[k];
      continue;
    }
    result.insert(k);
    if (b > s[k]) result |= prefix_blocks(s, b - s[k]);
    if (a == s[k]) return result;
    b = s[k] - 1;
  }
}

}  // namespace

int baseblock(const Skips& s, std::int64_t r) {
  check_rank(s, r, "rank");
  if (r == 0) return s.q();
  // Find the homerange [skips[k], skips[k+1]) of r and move to the equivalent rank below it
  // (written so that the subtraction compiles to a conditional move: no mispredicted branch).
  for (int k = s.q() - 1;; --k) {
    const std::int64_t sk = s[k];
    if (r == sk) return k;
    r -= sk < r ? sk : 0;
  }
}

std::vector<std::int8_t> all_baseblocks(const Skips& s) {
  std::vector<std::int8_t> bb(s.p(), -1);
  bb[0] = static_cast<std::int8_t>(s.q());
  for (int i = 0; i < s.q(); ++i) {
    for (std::int64_t r = 1; r < s[i] && r + s[i] < s[i + 1]; ++r) bb[r + s[i]] = bb[r];
    bb[s[i]] = static_cast<std::int8_t>(i);
  }
  return bb;
}

BlockSet rangeblocks(const Skips& s, std::int64_t a, std::int64_t b) {
  check_rank(s, a, "range start a");
  check_rank(s, b, "range end b");
  if (a > b) return rangeblocks(s, a, s.p() - 1) | rangeblocks(s, 0, b);
  BlockSet result;
  if (a == 0) {
    result.insert(s.q());
    if (b == 0) return result;
    a = 1;
  }
  return result | linear_rangeblocks(s, a, b);
}

}  // namespace rosched
