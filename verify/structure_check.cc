#include "verify/structure_check.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "sched/circulant/allgather_schedule.h"
#include "sched/circulant/baseblock.h"
#include "sched/circulant/census_schedule.h"
#include "sched/circulant/reduce_scatter_schedule.h"
#include "sched/vectorise.h"

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
  const std::vector<std::int64_t> lengths = rangeblock_lengths(s);
  const std::int64_t n = std::min(samples, p);
  // Block blk is in the cyclic range of length len from a iff some rank of blk is within
  // distance len - 1 after a. So one sweep over the ranks, downwards, keeping next[blk]: the first
  // rank >= the sweep's position holding blk, or, if none, the first rank holding blk plus p
  // (found by a first sweep). At each sample start a every length is checked at once, with
  // rangeblocks() asked about every sampled start and length as before; the counterexample
  // reported is the first in the old order, length by length, then start by start.
  // (Indexed by the byte: bb holds 0..q, as all_baseblocks() makes it.)
  std::int64_t next[256];
  std::fill(std::begin(next), std::end(next), 3 * p);  // no rank holds the block
  for (std::int64_t r = p - 1; r >= 0; --r) next[static_cast<std::uint8_t>(bb[r])] = r + p;
  std::optional<Counterexample> first;
  std::size_t first_key = 0;
  for (std::int64_t i = n - 1, r = p; i >= 0; --i) {
    const std::int64_t a = i * p / n;
    while (r > a) {
      --r;
      next[static_cast<std::uint8_t>(bb[r])] = r;
    }
    for (std::size_t l = 0; l < lengths.size(); ++l) {
      const std::int64_t len = lengths[l], b = (a + len - 1) % p;
      const std::int64_t span = a <= b ? b - a + 1 : p - a + b + 1;  // [a, b] cyclic: len
      std::uint64_t set = 0;
      for (int blk = 0; blk <= s.q(); ++blk) {
        if (next[blk] - a < span) set |= std::uint64_t{1} << blk;
      }
      const std::uint64_t got = rangeblocks(s, a, b).bits();
      const std::size_t key = l * static_cast<std::size_t>(n) + static_cast<std::size_t>(i);
      if (got != set && (!first || key < first_key)) {
        first = wrong_set(s, a, len, set, got);
        first_key = key;
      }
    }
  }
  return first;
}

namespace {

// a == b (mod p) for a, b in (-2p, 2p), without a division (and without a branch).
bool congruent(std::int64_t a, std::int64_t b, std::int64_t p) {
  const std::int64_t d = a - b;
  return (d == 0) | (d == p) | (d == -p) | (d == 2 * p) | (d == -2 * p);
}

// The exact checks, round by round with every rank's state: the reference the fast passes
// below stand in for, and what locates the first counterexample when one of them fails.
std::optional<Counterexample> locate_allgather(const Skips& s) {
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

std::optional<Counterexample> locate_census(const Skips& s) {
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

std::optional<Counterexample> locate_reduce_scatter(const Skips& s) {
  const std::int64_t p = s.p();
  const auto fail = [&](const char* kind, std::int64_t r, int j, std::int64_t e, std::int64_t a) {
    return Counterexample{"reduce-scatter", kind, p, r, j, e, a, ""};
  };
  // Every rank's state, as rank 0's: it holds partial results of offsets 0 .. held - 1, the one
  // at offset i combining count[i] contributions.
  std::vector<std::int64_t> count(p, 1);
  std::int64_t held = p;
  for (int j = 0; j < s.q(); ++j) {
    const ReduceScatterRound u = reduce_scatter_round(s, 0, j);
    const std::int64_t c = s.mod(u.to);  // every rank r sends to r + c
    for (std::int64_t r = 0; r < p; ++r) {
      const ReduceScatterRound me = reduce_scatter_round(s, r, j);
      if (me.to != s.mod(r + c)) return fail("not-uniform-peer", r, j, s.mod(r + c), me.to);
      const std::int64_t mine[] = {me.send_offset, me.send_count, me.recv_offset, me.recv_count};
      const std::int64_t rank0[] = {u.send_offset, u.send_count, u.recv_offset, u.recv_count};
      const char* field[] = {"send_offset", "send_count", "recv_offset", "recv_count"};
      for (int i = 0; i < 4; ++i) {
        if (mine[i] != rank0[i]) {
          return Counterexample{"reduce-scatter",
                                "not-uniform-blocks",
                                p,
                                r,
                                j,
                                rank0[i],
                                mine[i],
                                std::string(field[i]) + " differs from rank 0's"};
        }
      }
      const ReduceScatterRound sender = reduce_scatter_round(s, me.from, j);
      if (sender.to != r) return fail("receive-without-send", r, j, me.from, sender.to);
      if (me.recv_count != sender.send_count) {
        return fail("count-mismatch", r, j, sender.send_count, me.recv_count);
      }
      // r combines into block r + recv_offset + i what the sender holds of from + send_offset + i.
      if (!congruent(r + me.recv_offset, me.from + sender.send_offset, p)) {
        return fail("wrong-blocks", r, j, s.mod(me.from + sender.send_offset),
                    s.mod(r + me.recv_offset));
      }
    }
    // Sends the top of what it holds and gives it up; combines below what it keeps.
    if (u.send_count < 1 || u.send_offset + u.send_count != held) {
      return fail("sends-what-it-does-not-hold", 0, j, held, u.send_offset + u.send_count);
    }
    if (u.recv_offset < 0 || u.recv_offset + u.recv_count > u.send_offset) {
      return fail("combines-into-given-up", 0, j, u.send_offset, u.recv_offset + u.recv_count);
    }
    for (std::int64_t i = 0; i < u.recv_count; ++i) {
      count[u.recv_offset + i] += count[u.send_offset + i];
    }
    held = u.send_offset;
  }
  if (held != 1) return fail("holds-more-than-its-block", 0, s.q(), 1, held);
  if (count[0] != p) return fail("missing-contributions", 0, s.q(), p, count[0]);
  return std::nullopt;
}

// The fast passes: yes/no, the same conditions for every rank and round on the same
// allgather_round() / census_round() results as locate_*(), but each rank's round computed once
// (not once as receiver and again as sender) and no per-rank state. They also require what makes
// that possible, and exact:
//  * the state is uniform: before round k every rank holds as many contributions (all-gather) or
//    combines as many (census) as rank 0, so held[me.from] = held[r] = one number per round;
//  * rank r receives from (r + c) mod p, c = where rank 0 receives from: so the sender of r is
//    known without asking it, and the sender's `to` (stored per rank, 32 bits, after checking it
//    is within [0, p)) is compared with r in a second pass, in order;
//  * every rank sends as rank 0 does: the same offset and count (all-gather), or its own
//    contribution or not (census); so the sender's other fields are rank 0's, and each rank's
//    own are checked against them.
// If a fast pass fails (a condition fails, or a rule breaks these requirements), locate_*() runs
// from the start and reports exactly what it always has.
//
// The loops have no branches (the rules' range checks are redundant and folded away: every rank
// they are asked about is a loop index within [0, p)), so that the compiler vectorises them
// (sched/vectorise.h; the baseline clone goes unused, see worth_fast_pass()).

// (r + c) mod p for 0 <= r, c < p.
inline std::int64_t add_mod(std::int64_t r, std::int64_t c, std::int64_t p) {
  return r + c >= p ? r + c - p : r + c;
}

// Second pass: to[(r + c) mod p] == r for every rank r (the sender of r sends to r). Nonzero
// otherwise.
ROSCHED_VECTORISED std::uint32_t senders_send_back(
    const std::int32_t* to, std::int64_t p, std::int64_t c) {
  std::uint32_t bad = 0;
  const std::int64_t wrap = p - c;  // r >= wrap receives from r + c - p
  for (std::int64_t r = 0; r < wrap; ++r) {
    bad |= static_cast<std::uint32_t>(to[r + c] != static_cast<std::int32_t>(r));
  }
  for (std::int64_t r = wrap; r < p; ++r) {
    bad |= static_cast<std::uint32_t>(to[r - wrap] != static_cast<std::int32_t>(r));
  }
  return bad;
}

// Round k of every rank: u is rank 0's round (c = u.from, its sender), and every rank holds
// `held` contributions before the round and must hold `next` after it. Stores each rank's `to`
// in to[]. Nonzero if a condition fails.
ROSCHED_VECTORISED std::uint64_t allgather_rounds(
    const Skips& skips, int k, AllgatherRound u, std::int64_t held, std::int64_t next,
    std::int32_t* to) {
  const Skips s = skips;  // a local copy, which the stores to to[] cannot change
  check_round(s, k);
  const std::int64_t p = s.p(), c = u.from;
  if (c < 0 || c >= p) return 1;
  std::uint64_t bad = 0;
  for (std::int64_t r = 0; r < p; ++r) {
    const AllgatherRound me = allgather_round(s, r, k);
    // As a sender: to (checked against its receiver in the second pass), and the offset and
    // count every sender uses (those of rank 0), within what it holds.
    to[r] = static_cast<std::int32_t>(me.to);
    bad |= static_cast<std::uint64_t>(
        (static_cast<std::uint64_t>(me.to) >= static_cast<std::uint64_t>(p)) |  // fits to[]
        (me.send_offset != u.send_offset) | (me.send_count != u.send_count) |  // as rank 0
        (me.send_offset < 0) | (me.send_offset + me.send_count > held));  // send-before-receive
    // As a receiver, from me.from = (r + c) mod p, whose offset and count are u's.
    bad |= static_cast<std::uint64_t>(
        (me.from != add_mod(r, c, p)) |                                   // the sender
        (me.recv_count != u.send_count) |                                 // count-mismatch
        int{!congruent(r + me.recv_offset, me.from + u.send_offset, p)} |  // wrong-contributions
        (me.recv_offset != held) |                                        // gap-or-overlap
        (held + me.recv_count != next));                                  // uniform state
  }
  return bad;
}

// Without AVX2 the fast passes do not pay: their baseline code evaluates every condition
// without branches, and is slower than locate_*() itself (docs/perf.md), which then runs alone,
// as before.
bool worth_fast_pass() { return runs_avx2_clone(); }

bool allgather_fast(const Skips& s) {
  const std::int64_t p = s.p();
  std::vector<std::int32_t> to(p);
  std::int64_t held = 1;  // of every rank, before round k
  for (int k = 0; k < s.q(); ++k) {
    const AllgatherRound u = allgather_round(s, 0, k);
    const std::int64_t next = held + u.recv_count;
    if (allgather_rounds(s, k, u, held, next, to.data()) != 0) return false;
    if (senders_send_back(to.data(), p, u.from) != 0) return false;
    held = next;
  }
  return held == p;
}

// Census, round k of every rank: c is where rank 0 receives from, own whether every sender sends
// its own contribution (as rank 0's sender does); every rank combines `len` contributions
// before the round and must combine `next` after it. Stores each rank's `to` in to[].
__attribute__((always_inline)) inline std::uint64_t census_rounds_loop(
    const Skips& s, int k, std::int64_t c, bool own, std::int64_t len, std::int64_t next,
    std::int32_t* to) {
  const std::int64_t p = s.p();
  const std::uint64_t up = static_cast<std::uint64_t>(p);
  const std::int64_t own1 = own ? 1 : 0;
  const std::uint64_t own_bit = static_cast<std::uint64_t>(own1);
  std::uint64_t bad = 0, other_own = 0;
  for (std::int64_t r = 0; r < p; ++r) {
    const CensusRound me = census_round(s, r, k);
    // As a sender: to, and whether it sends its own contribution, as rank 0's sender does.
    // (Not part of `bad`'s expression: GCC 12 vectorises no bool invariant in it.)
    to[r] = static_cast<std::int32_t>(me.to);
    other_own |= static_cast<std::uint64_t>(me.send_includes_own) ^ own_bit;
    // As a receiver, from me.from = (r + c) mod p, which sends its own contribution iff own.
    const std::int64_t first = (me.from >= r ? me.from - r : me.from - r + p) + (1 - own1);
    const std::int64_t count = len + own1;
    bad |= static_cast<std::uint64_t>((static_cast<std::uint64_t>(me.to) >= up) |  // fits to[]
                                      (me.from != add_mod(r, c, p)) |  // the sender
                                      (first != len + 1) |             // gap-or-overlap
                                      (first + count - 1 > p - 1) |    // counts-own-contribution
                                      (len + count != next));          // uniform state
  }
  return bad | other_own;
}

ROSCHED_VECTORISED std::uint64_t census_rounds(
    const Skips& skips, int k, std::int64_t c, bool own, std::int64_t len, std::int64_t next,
    std::int32_t* to) {
  const Skips s = skips;  // a local copy, which the stores to to[] cannot change
  check_round(s, k);
  if (c < 0 || c >= s.p()) return 1;
  // census_round() distinguishes two cases by k alone; testing its condition here lets the
  // compiler specialise each loop (and vectorise it: it takes no select on a scalar condition).
  if (s[k] + s[k] > s[k + 1]) return census_rounds_loop(s, k, c, own, len, next, to);
  return census_rounds_loop(s, k, c, own, len, next, to);
}

bool census_fast(const Skips& s) {
  const std::int64_t p = s.p();
  std::vector<std::int32_t> to(p);
  std::int64_t len = 0;  // of every rank, before round k
  for (int k = 0; k < s.q(); ++k) {
    const std::int64_t c = census_round(s, 0, k).from;
    if (c < 0 || c >= p) return false;
    const bool own = census_round(s, c, k).send_includes_own;  // rank 0's sender's
    const std::int64_t next = len + len + (own ? 1 : 0);
    if (census_rounds(s, k, c, own, len, next, to.data()) != 0) return false;
    if (senders_send_back(to.data(), p, c) != 0) return false;
    len = next;
  }
  return len == p - 1;
}

// Reduce-scatter, round j of every rank against rank 0's round u: every rank r sends to
// r + c and receives from r - c (mod p), c = u.to, with u's offsets and counts. Nonzero if a rank
// differs. (locate_reduce_scatter's conditions on the sender follow: the sender of r, r - c,
// sends to r with u's offset and count.)
ROSCHED_VECTORISED std::uint64_t reduce_scatter_rounds(const Skips& skips, int j,
                                                       ReduceScatterRound u) {
  const Skips s = skips;
  check_round(s, j);
  const std::int64_t p = s.p(), c = u.to;
  if (c < 0 || c >= p) return 1;
  std::uint64_t bad = 0;
  for (std::int64_t r = 0; r < p; ++r) {
    const ReduceScatterRound me = reduce_scatter_round(s, r, j);
    // int operands: one branch-free test per rank (a bitwise or of bools draws a warning)
    bad |= static_cast<std::uint64_t>(
        int{me.to != add_mod(r, c, p)} | int{me.from != add_mod(r, p - c == p ? 0 : p - c, p)} |
        int{me.send_offset != u.send_offset} | int{me.send_count != u.send_count} |
        int{me.recv_offset != u.recv_offset} | int{me.recv_count != u.recv_count});
  }
  return bad;
}

bool reduce_scatter_fast(const Skips& s) {
  const std::int64_t p = s.p();
  std::vector<std::int64_t> count(p, 1);  // as in locate_reduce_scatter
  std::int64_t held = p;
  for (int j = 0; j < s.q(); ++j) {
    const ReduceScatterRound u = reduce_scatter_round(s, 0, j);
    if (reduce_scatter_rounds(s, j, u) != 0) return false;
    if (u.recv_count != u.send_count || !congruent(u.recv_offset + u.to, u.send_offset, p) ||
        u.send_count < 1 || u.send_offset + u.send_count != held || u.recv_offset < 0 ||
        u.recv_offset + u.recv_count > u.send_offset) {
      return false;
    }
    for (std::int64_t i = 0; i < u.recv_count; ++i) {
      count[u.recv_offset + i] += count[u.send_offset + i];
    }
    held = u.send_offset;
  }
  return held == 1 && count[0] == p;
}

}  // namespace

std::optional<Counterexample> check_allgather(const Skips& s) {
  if (worth_fast_pass() && allgather_fast(s)) return std::nullopt;
  return locate_allgather(s);
}

std::optional<Counterexample> check_census(const Skips& s) {
  if (worth_fast_pass() && census_fast(s)) return std::nullopt;
  return locate_census(s);
}

std::optional<Counterexample> check_reduce_scatter(const Skips& s) {
  if (worth_fast_pass() && reduce_scatter_fast(s)) return std::nullopt;
  return locate_reduce_scatter(s);
}

}  // namespace rosched::verify
