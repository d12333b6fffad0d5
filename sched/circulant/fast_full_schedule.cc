#include "sched/circulant/fast_full_schedule.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "sched/circulant/baseblock.h"
#include "sched/circulant/fast_rule.h"
#include "sched/circulant/fast_schedule.h"
#include "sched/vectorise.h"

namespace rosched {
namespace fast {
namespace {

constexpr int kChunk = 1024;

// The rule's state (fast_rule.h) for up to kChunk consecutive ranks, as arrays. Unsigned 32-bit:
// every value is below 2^31, and rest + skips[k] below 2^32.
struct Chunk {
  std::uint32_t rest[kChunk];
  std::uint32_t end[kChunk];
  std::int32_t block[kChunk];
  std::uint32_t open[kChunk];   // rounds the rule leaves undecided, as bits
  std::int8_t out[kChunk];      // this level's send entries
};

// Level k >= 1 of the rule for ranks 0 .. n-1 of the chunk. The rule is branch-free, so the
// compiler vectorises this loop.
ROSCHED_VECTORISED void level(Chunk& c, int n, std::uint32_t sk, std::uint32_t below, int k,
                              int q) {
  for (int i = 0; i < n; ++i) {
    rule::State<std::uint32_t> x{c.rest[i], c.end[i], c.block[i]};
    std::uint32_t decided;
    rule::send(sk, below, k == 1, k - q, x, decided);
    rule::take(sk, k - q, x);
    c.rest[i] = x.rest;
    c.end[i] = x.end;
    c.block[i] = x.block;
    c.open[i] |= (decided ^ 1U) << k;
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
    c.block[i] = own[a + i];
    c.open[i] = 0;
  }
  for (int k = q - 1; k >= 1; --k) {
    level(c, n, static_cast<std::uint32_t>(s[k]), static_cast<std::uint32_t>(s[k - 1]), k, q);
    store(s, f, k, a, n, c.out);
  }
  for (int i = 0; i < n; ++i) c.out[i] = static_cast<std::int8_t>(own[a + i] - q);  // round 0
  store(s, f, 0, a, n, c.out);
  for (int i = a == 0 ? 1 : 0; i < n; ++i) {  // the root's entries are set by the caller
    for (std::uint32_t m = c.open[i]; m; m &= m - 1) {
      const int k = __builtin_ctz(m);
      open[s.to(a + i, k)] |= std::uint32_t{1} << k;
    }
  }
}

// Completes the open entries `rounds` (bits) of receiver t (fast_schedule.h,
// detail::complete_recvs), then copies them to their senders' entries.
void complete_receiver(const Skips& s, std::int64_t t, int own, std::uint32_t rounds,
                       FullSchedule& f) {
  PhaseSchedule recv;
  recv.q = s.q();
  for (int k = 0; k < s.q(); ++k) recv[k] = f.recv(t, k);
  detail::complete_recvs(s, t, own, rounds, recv);
  for (std::uint32_t m = rounds; m; m &= m - 1) {
    const int k = __builtin_ctz(m);
    f.recv(t, k) = static_cast<std::int8_t>(recv[k]);
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
  for (std::int64_t t = 1; t < p; ++t) {
    if (open[t]) complete_receiver(s, t, own[t], open[t], f);
  }
  // The root never receives, so its receive schedule and the sends to it are "don't care"
  // entries: set them to the paper's dummy (Algorithm 4 run for r = 0), as rank_schedule does,
  // so that the all-ranks tables are the paper's (Träff 2022, Table 1).
  const PhaseSchedule dummy = recv_schedule(s, 0);
  for (int k = 0; k < q; ++k) {
    f.recv(0, k) = static_cast<std::int8_t>(dummy[k]);
    f.send(s.from(0, k), k) = static_cast<std::int8_t>(dummy[k]);
  }
}

}  // namespace fast
}  // namespace rosched
