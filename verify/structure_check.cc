#include "verify/structure_check.h"

#include <algorithm>

#include "sched/allgather_schedule.h"
#include "sched/baseblock.h"
#include "sched/census_schedule.h"

namespace rosched::verify {

namespace {

Counterexample wrong_set(const Skips& s, std::int64_t a, std::int64_t len, std::uint64_t expected,
                         std::uint64_t actual) {
  return Counterexample{"rangeblocks", "wrong-block-set", s.p(), a, len,
                        static_cast<std::int64_t>(expected), static_cast<std::int64_t>(actual),
                        "rank is the range start, round the range length; sets as bit masks"};
}

}  // namespace

std::optional<Counterexample> check_baseblocks(const Skips& s,
                                               const std::vector<std::int8_t>& bb) {
  return check_baseblocks_sampled(s, bb, s.p());
}

std::optional<Counterexample> check_baseblocks_sampled(const Skips& s,
                                                       const std::vector<std::int8_t>& bb,
                                                       std::int64_t samples) {
  const std::int64_t n = std::min(samples, s.p());
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t r = n == s.p() ? i : i * s.p() / n;
    const int got = baseblock(s, r);
    if (got != bb[r]) return Counterexample{"baseblock", "wrong-baseblock", s.p(), r, 0, bb[r], got, ""};
  }
  return std::nullopt;
}

std::vector<std::int64_t> rangeblock_lengths(const Skips& s) {
  std::vector<std::int64_t> lengths{s.p()};
  std::int64_t sum = 0;
  for (int k = 0; k < s.q(); ++k) {
    lengths.push_back(s[k + 1] - s[k]);
    sum += s[k];
    if (sum <= s.p()) lengths.push_back(sum);
  }
  return lengths;
}

std::optional<Counterexample> check_rangeblocks(const Skips& s,
                                                const std::vector<std::int8_t>& bb) {
  const std::int64_t p = s.p();
  for (std::int64_t len : rangeblock_lengths(s)) {
    int count[kMaxQ + 1] = {};
    std::uint64_t set = 0;
    const auto add = [&](std::int64_t r, int d) {
      count[bb[r]] += d;
      if (count[bb[r]]) set |= std::uint64_t{1} << bb[r];
      else set &= ~(std::uint64_t{1} << bb[r]);
    };
    for (std::int64_t r = 0; r < len; ++r) add(r, 1);
    for (std::int64_t a = 0; a < p; ++a) {  // the window is [a, a + len - 1] mod p
      const std::uint64_t got = rangeblocks(s, a, (a + len - 1) % p).bits();
      if (got != set) return wrong_set(s, a, len, set, got);
      add(a, -1);
      add((a + len) % p, 1);
    }
  }
  return std::nullopt;
}

std::optional<Counterexample> check_rangeblocks_sampled(const Skips& s,
                                                        const std::vector<std::int8_t>& bb,
                                                        std::int64_t samples) {
  const std::int64_t p = s.p();
  // The ranks of each block, ascending: block b's are where[first[b] .. first[b + 1]).
  std::vector<std::int64_t> first(s.q() + 2, 0), where(p);
  for (std::int64_t r = 0; r < p; ++r) ++first[bb[r] + 1];
  for (int b = 0; b <= s.q(); ++b) first[b + 1] += first[b];
  std::vector<std::int64_t> next(first.begin(), first.end() - 1);
  for (std::int64_t r = 0; r < p; ++r) where[next[bb[r]]++] = r;
  // Is some rank of block b in [lo, hi] (no wrap)?
  const auto any_in = [&](int b, std::int64_t lo, std::int64_t hi) {
    const auto end = where.begin() + first[b + 1];
    const auto it = std::lower_bound(where.begin() + first[b], end, lo);
    return it != end && *it <= hi;
  };
  const std::int64_t n = std::min(samples, p);
  for (std::int64_t len : rangeblock_lengths(s)) {
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t a = i * p / n, b = (a + len - 1) % p;
      std::uint64_t set = 0;
      for (int blk = 0; blk <= s.q(); ++blk) {
        const bool in = a <= b ? any_in(blk, a, b) : any_in(blk, a, p - 1) || any_in(blk, 0, b);
        if (in) set |= std::uint64_t{1} << blk;
      }
      const std::uint64_t got = rangeblocks(s, a, b).bits();
      if (got != set) return wrong_set(s, a, len, set, got);
    }
  }
  return std::nullopt;
}

namespace {

// a == b (mod p) for a, b in (-2p, 2p), without a division.
bool congruent(std::int64_t a, std::int64_t b, std::int64_t p) {
  const std::int64_t d = a - b;
  return d == 0 || d == p || d == -p || d == 2 * p || d == -2 * p;
}

}  // namespace

std::optional<Counterexample> check_allgather(const Skips& s) {
  const std::int64_t p = s.p();
  // Rank r holds the contributions of ranks r .. r + held[r] - 1 (mod p) in buffer order.
  std::vector<std::int64_t> held(p, 1), next(p);
  const auto fail = [&](const char* kind, std::int64_t r, int k, std::int64_t e, std::int64_t a) {
    return Counterexample{"allgather", kind, p, r, k, e, a, ""};
  };
  for (int k = 0; k < s.q(); ++k) {
    for (std::int64_t r = 0; r < p; ++r) {  // r receives from me.from
      const AllgatherRound me = allgather_round(s, r, k);
      const AllgatherRound sender = allgather_round(s, me.from, k);
      if (sender.to != r) return fail("receive-without-send", r, k, me.from, sender.to);
      if (sender.send_offset < 0 || sender.send_offset + sender.send_count > held[me.from]) {
        return fail("send-before-receive", me.from, k, held[me.from],
                    sender.send_offset + sender.send_count);
      }
      if (me.recv_count != sender.send_count) {
        return fail("count-mismatch", r, k, sender.send_count, me.recv_count);
      }
      // r stores contribution r + recv_offset + j; the sender sends from + send_offset + j.
      if (!congruent(r + me.recv_offset, me.from + sender.send_offset, p)) {
        return fail("wrong-contributions", r, k, s.mod(me.from + sender.send_offset),
                    s.mod(r + me.recv_offset));
      }
      // What arrives continues what r holds: no gap, no overlap.
      if (me.recv_offset != held[r]) return fail("gap-or-overlap", r, k, held[r], me.recv_offset);
      next[r] = held[r] + me.recv_count;
    }
    held.swap(next);
  }
  for (std::int64_t r = 0; r < p; ++r) {
    if (held[r] != p) return fail("missing-contributions", r, s.q(), p, held[r]);
  }
  return std::nullopt;
}

std::optional<Counterexample> check_census(const Skips& s) {
  const std::int64_t p = s.p();
  // The partial result of rank r combines the contributions of ranks r+1 .. r+len[r] (mod p).
  std::vector<std::int64_t> len(p, 0), next(p);
  const auto fail = [&](const char* kind, std::int64_t r, int k, std::int64_t e, std::int64_t a) {
    return Counterexample{"census", kind, p, r, k, e, a, ""};
  };
  for (int k = 0; k < s.q(); ++k) {
    for (std::int64_t r = 0; r < p; ++r) {
      const CensusRound me = census_round(s, r, k);
      const CensusRound sender = census_round(s, me.from, k);
      if (sender.to != r) return fail("receive-without-send", r, k, me.from, sender.to);
      // What the sender sends, as offsets relative to r.
      const std::int64_t first =
          (me.from >= r ? me.from - r : me.from - r + p) + (sender.send_includes_own ? 0 : 1);
      const std::int64_t count = len[me.from] + (sender.send_includes_own ? 1 : 0);
      if (first != len[r] + 1) return fail("gap-or-overlap", r, k, len[r] + 1, first);
      if (first + count - 1 > p - 1) {
        return fail("counts-own-contribution", r, k, p - 1, first + count - 1);
      }
      next[r] = len[r] + count;
    }
    len.swap(next);
  }
  for (std::int64_t r = 0; r < p; ++r) {
    if (len[r] != p - 1) return fail("missing-contributions", r, s.q(), p - 1, len[r]);
  }
  return std::nullopt;
}

}  // namespace rosched::verify
