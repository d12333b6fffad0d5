#include "sched/fast_full_schedule.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "sched/baseblock.h"
#include "sched/fast_schedule.h"

namespace rosched {
namespace fast {
namespace {

constexpr int kChunk = 1024;

// The local rule's state for up to kChunk consecutive ranks (see fast::detail::local_sends, of
// which level() is the same arithmetic, one level for many ranks). Unsigned 32-bit: every
// value is below 2^31, and rest + skips[k] below 2^32.
struct Chunk {
  std::uint32_t rest[kChunk];   // the rank minus the skips of its decomposition taken so far
  std::uint32_t end[kChunk];    // the end of the enclosing subtree, relative to rest
  std::int32_t block[kChunk];   // the block passed on
  std::int32_t own[kChunk];     // the baseblock
  std::uint32_t open[kChunk];   // rounds the rule leaves undecided, as bits
  std::int8_t out[kChunk];      // this level's send entries
};

// Level k >= 1 of the local rule for ranks 0 .. n-1 of the chunk. Branch-free, so that the
// compiler vectorises it; compiled twice, for AVX2 and for the baseline, and picked at load
// time by the CPU it runs on.
__attribute__((target_clones("avx2", "default"))) void level(Chunk& c, int n, std::uint32_t sk, std::uint32_t below, int k, int q) {
  const std::uint32_t previous_k = static_cast<std::uint32_t>(k - q);  // previous-phase block k
  const std::uint32_t last = k == 1;
  for (int i = 0; i < n; ++i) {
    const std::uint32_t rest = c.rest[i], end = c.end[i];
    // All ones if skips[k] is part of the decomposition. Masks, not branches, throughout.
    const std::uint32_t in = 0U - static_cast<std::uint32_t>(rest >= sk);
    const std::uint32_t end_in = end - sk;
    const std::uint32_t local_out = static_cast<std::uint32_t>(rest + sk < end) |
                                    static_cast<std::uint32_t>(end < below) |
                                    (last & static_cast<std::uint32_t>(c.own[i] > 0));
    const std::uint32_t local_in = static_cast<std::uint32_t>(rest > sk) |
                                   static_cast<std::uint32_t>(rest <= end_in) | last |
                                   static_cast<std::uint32_t>(end_in < below);
    const std::uint32_t local = (in & local_in) | (~in & local_out);
    c.block[i] = static_cast<std::int32_t>((in & previous_k) |
                                           (~in & static_cast<std::uint32_t>(c.block[i])));
    c.end[i] = (in & end_in) | (~in & (end < sk ? end : sk));
    c.rest[i] = rest - (in & sk);
    c.open[i] |= (local ^ 1U) << k;
  }
  for (int i = 0; i < n; ++i) c.out[i] = static_cast<std::int8_t>(c.block[i]);
}

// The entries `out` are send[k] of ranks a .. a+n-1 and recv[k] of ranks a+skips[k] ... (mod p).
void store(const Skips& s, FullSchedule& f, int k, std::int64_t a, int n, const std::int8_t* out) {
  std::memcpy(&f.send(a, k), out, static_cast<std::size_t>(n));
  const std::int64_t t = s.to(a, k);
  const std::int64_t first = std::min<std::int64_t>(n, s.p() - t);
  std::memcpy(&f.recv(t, k), out, static_cast<std::size_t>(first));
  if (first < n) std::memcpy(&f.recv(0, k), out + first, static_cast<std::size_t>(n - first));
}

// The local rule for ranks a .. a+n-1; the rounds it leaves open are marked in open[receiver].
void run_chunk(const Skips& s, const std::int8_t* own, std::int64_t a, int n, FullSchedule& f,
               Chunk& c, std::uint32_t* open) {
  const int q = s.q();
  for (int i = 0; i < n; ++i) {
    c.rest[i] = static_cast<std::uint32_t>(a + i);
    c.end[i] = static_cast<std::uint32_t>(s.p());
    c.own[i] = c.block[i] = own[a + i];
    c.open[i] = 0;
  }
  for (int k = q - 1; k >= 1; --k) {
    level(c, n, static_cast<std::uint32_t>(s[k]), static_cast<std::uint32_t>(s[k - 1]), k, q);
    store(s, f, k, a, n, c.out);
  }
  for (int i = 0; i < n; ++i) c.out[i] = static_cast<std::int8_t>(c.own[i] - q);  // round 0
  store(s, f, 0, a, n, c.out);
  for (int i = a == 0 ? 1 : 0; i < n; ++i) {  // the root's entries are set by the caller
    for (std::uint32_t m = c.open[i]; m; m &= m - 1) {
      const int k = __builtin_ctz(m);
      open[s.to(a + i, k)] |= std::uint32_t{1} << k;
    }
  }
}

// Completes the open entries `rounds` (bits) of receiver t from its receive set or, if that
// does not decide them, from t's receive walk; then copies them to their senders' entries.
void complete_receiver(const Skips& s, std::int64_t t, int own, std::uint32_t rounds,
                       FullSchedule& f) {
  const int q = s.q();
  const std::uint32_t all = rounds;
  int home = 0;  // the homerange round: skips[home] <= t < skips[home + 1]
  while (s[home + 1] <= t) ++home;
  if ((rounds >> home) & 1U) {
    f.recv(t, home) = static_cast<std::int8_t>(own);
    rounds &= ~(std::uint32_t{1} << home);
  }
  if (rounds && (rounds & (rounds - 1)) == 0) {  // one entry left: the block still missing
    const int left = __builtin_ctz(rounds);
    std::uint64_t seen = std::uint64_t{1} << own;  // previous-phase block b as bit b
    for (int k = 0; k < q; ++k) {
      if (k != left && f.recv(t, k) < 0) seen |= std::uint64_t{1} << (f.recv(t, k) + q);
    }
    const std::uint64_t missing = ((std::uint64_t{1} << q) - 1) & ~seen;
    f.recv(t, left) = static_cast<std::int8_t>(__builtin_ctzll(missing) - q);
  } else if (rounds) {  // several left: t's own receive walk, up to the last open round
    const PhaseSchedule walk = detail::recv_walk(s, t, own, 32 - __builtin_clz(rounds));
    for (std::uint32_t m = rounds; m; m &= m - 1) {
      const int k = __builtin_ctz(m);
      f.recv(t, k) = static_cast<std::int8_t>(walk[k]);
    }
  }
  for (std::uint32_t m = all; m; m &= m - 1) {
    const int k = __builtin_ctz(m);
    f.send(s.from(t, k), k) = f.recv(t, k);
  }
}

}  // namespace

void build_full_schedule(const Skips& s, FullSchedule& f) {
  f.reset(s);
  const std::int64_t p = s.p();
  const int q = s.q();
  if (q == 0) return;
  const std::vector<std::int8_t> own = all_baseblocks(s);
  std::vector<std::uint32_t> open(p, 0);  // per receiver: the rounds left open, as bits
  Chunk c;
  for (std::int64_t a = 0; a < p; a += kChunk) {
    run_chunk(s, own.data(), a, static_cast<int>(std::min<std::int64_t>(kChunk, p - a)), f, c,
              open.data());
  }
  for (int k = 0; k < q; ++k) {  // the root sends block k to rank skips[k]
    f.send(0, k) = static_cast<std::int8_t>(k);
    f.recv(s[k], k) = static_cast<std::int8_t>(k);
  }
  for (std::int64_t t = 1; t < p; ++t) {  // (the root's receives are a dummy)
    if (open[t]) complete_receiver(s, t, own[t], open[t], f);
  }
}

}  // namespace fast
}  // namespace rosched
