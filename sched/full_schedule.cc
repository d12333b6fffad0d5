#include "sched/full_schedule.h"

#include <stdexcept>

#include "sched/baseblock.h"
#include "sched/fast_schedule.h"

namespace rosched {

FullSchedule::FullSchedule(const Skips& s)
    : skips_(s),
      recv_(static_cast<std::size_t>(s.p()) * s.q(), 0),
      send_(static_cast<std::size_t>(s.p()) * s.q(), 0) {}

RankSchedule FullSchedule::rank(std::int64_t r) const {
  RankSchedule out;
  out.recv.q = out.send.q = q();
  for (int k = 0; k < q(); ++k) {
    out.recv[k] = recv(r, k);
    out.send[k] = send(r, k);
  }
  return out;
}

void FullSchedule::set_rank(std::int64_t r, const RankSchedule& sched) {
  for (int k = 0; k < q(); ++k) {
    recv(r, k) = static_cast<std::int8_t>(sched.recv[k]);
    send(r, k) = static_cast<std::int8_t>(sched.send[k]);
  }
}

void FullSchedule::derive_sends() {
  const std::int64_t n = p();
  for (int k = 0; k < q(); ++k) {
    const std::int8_t* in = recv_round(k);
    std::int8_t* out = &send_[index(0, k)];
    const std::int64_t shift = skips_[k] % n;
    // out[r] = in[(r + shift) mod p], as two contiguous copies.
    for (std::int64_t r = 0; r < n - shift; ++r) out[r] = in[r + shift];
    for (std::int64_t r = n - shift; r < n; ++r) out[r] = in[r + shift - n];
  }
}

namespace {

// The all-ranks fast construction (see full_schedule.h).
FullSchedule fast_full_schedule(const Skips& s) {
  FullSchedule f(s);
  const std::int64_t p = s.p();
  const int q = s.q();
  if (q == 0) return f;
  const std::vector<std::int8_t> own = all_baseblocks(s);
  std::vector<std::uint32_t> open(p, 0);  // per receiver: rounds whose entry is not known yet
  for (int k = 0; k < q; ++k) {           // the root sends block k to rank skips[k]
    f.send(0, k) = static_cast<std::int8_t>(k);
    f.recv(s[k], k) = static_cast<std::int8_t>(k);
  }
  PhaseSchedule sched;
  for (std::int64_t r = 1; r < p; ++r) {
    const std::uint64_t undecided = fast::detail::local_sends(s, r, own[r], sched);
    for (int k = 0; k < q; ++k) {
      f.send(r, k) = static_cast<std::int8_t>(sched[k]);
      f.recv(s.to(r, k), k) = static_cast<std::int8_t>(sched[k]);
    }
    for (std::uint64_t m = undecided; m; m &= m - 1) {
      const int k = __builtin_ctzll(m);
      open[s.to(r, k)] |= std::uint32_t{1} << k;
    }
  }
  for (std::int64_t t = 1; t < p; ++t) {
    std::uint32_t rounds = open[t];
    if (!rounds) continue;
    int home = 0;  // the homerange round: skips[home] <= t < skips[home + 1]
    while (s[home + 1] <= t) ++home;
    if ((rounds >> home) & 1U) {
      f.recv(t, home) = own[t];
      rounds &= ~(std::uint32_t{1} << home);
    }
    if (rounds && (rounds & (rounds - 1)) == 0) {  // one entry left: the block still missing
      const int left = __builtin_ctz(rounds);
      std::uint64_t seen = std::uint64_t{1} << own[t];  // previous-phase block b as bit b
      for (int k = 0; k < q; ++k) {
        if (k != left && f.recv(t, k) < 0) seen |= std::uint64_t{1} << (f.recv(t, k) + q);
      }
      const std::uint64_t missing = ((std::uint64_t{1} << q) - 1) & ~seen;
      f.recv(t, left) = static_cast<std::int8_t>(__builtin_ctzll(missing) - q);
    } else if (rounds) {  // several left: t's own receive walk, up to the last open round
      const PhaseSchedule walk =
          fast::detail::recv_walk(s, t, own[t], 32 - __builtin_clz(rounds));
      for (std::uint32_t m = rounds; m; m &= m - 1) {
        const int k = __builtin_ctz(m);
        f.recv(t, k) = static_cast<std::int8_t>(walk[k]);
      }
    }
    for (std::uint32_t m = open[t]; m; m &= m - 1) {  // the senders of the completed entries
      const int k = __builtin_ctz(m);
      f.send(s.from(t, k), k) = f.recv(t, k);
    }
  }
  return f;
}

}  // namespace

FullSchedule full_schedule(const Skips& s, Construction c) {
  switch (c) {
    case Construction::fast:
      return fast_full_schedule(s);
    case Construction::paper:
      return full_schedule_from_receives(s, c);
  }
  throw std::invalid_argument("unknown construction");
}

FullSchedule full_schedule_per_rank(const Skips& s, Construction c) {
  FullSchedule f(s);
  for (std::int64_t r = 0; r < s.p(); ++r) f.set_rank(r, rank_schedule(s, r, c));
  return f;
}

FullSchedule full_schedule_from_receives(const Skips& s, Construction c) {
  FullSchedule f(s);
  for (std::int64_t r = 0; r < s.p(); ++r) {
    const PhaseSchedule recv = recv_schedule(s, r, c);
    for (int k = 0; k < s.q(); ++k) f.recv(r, k) = static_cast<std::int8_t>(recv[k]);
  }
  f.derive_sends();
  return f;
}

}  // namespace rosched
