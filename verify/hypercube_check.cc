#include "verify/hypercube_check.h"

#include <algorithm>
#include <string>

#include "sched/hypercube/hypercube.h"
#include "sched/hypercube/hypercube_schedule.h"
#include "sim/hypercube_run.h"

namespace rosched::verify {
namespace {

using Bits = unsigned __int128;  // blocks 0..127 of the unbounded-block simulation

Bits bit_of(std::int64_t b) { return Bits{1} << b; }

// NEXTBIT(i)[k] scanned from its definition.
int nextbit_by_scan(std::int64_t i, int q, int k) {
  if (i == 0) return q;
  int d = 1;
  while (((i >> ((k + d) % q)) & 1) == 0) ++d;
  return d;
}

}  // namespace

std::optional<Counterexample> check_hypercube_cube(int q) {
  if (q == 0) return std::nullopt;
  const std::int64_t cube = std::int64_t{1} << q;
  const auto fail = [&](const char* kind, std::int64_t i, std::int64_t j, std::int64_t expected,
                        std::int64_t actual) {
    return Counterexample{"hypercube-cube", kind, cube, i, j, expected, actual,
                          "q=" + std::to_string(q) + " (rank field: hypercube processor)"};
  };
  std::vector<NextBit> nb(cube);
  std::vector<SwitchCount> sw(cube);
  for (std::int64_t i = 0; i < cube; ++i) {
    nb[i] = nextbit(i, q);
    sw[i] = switch_count(i, q);
  }
  const std::int64_t period = 2 * q;
  for (std::int64_t i = 0; i < cube; ++i) {
    for (int k = 0; k < q; ++k) {
      const int scanned = nextbit_by_scan(i, q, k);
      if (nb[i][k] != scanned) return fail("nextbit-definition", i, k, scanned, nb[i][k]);
      const std::int64_t other = i ^ (std::int64_t{1} << k);
      if (nb[other][k] != nb[i][k]) return fail("nextbit-partner", i, k, nb[i][k], nb[other][k]);
      const int ones = __builtin_popcountll(static_cast<unsigned long long>(i & ((std::int64_t{2} << k) - 1)));
      if (sw[i][k] != ones) return fail("switch-definition", i, k, ones, sw[i][k]);
    }
    std::int64_t swaps = 0;
    for (std::int64_t j = 0; j <= period; ++j) {
      const CubeRound r = cube_round(j, q, cube_round_magic(q));
      if (r.cycle != j / q || r.k != j % q) return fail("cube-round", i, j, j % q, r.k);
      const std::int64_t s = jia_send_block(i, r, nb[i]), t = jia_recv_block(i, r, nb[i]);
      const std::int64_t partner = jia_partner(i, r);
      if (jia_recv_block(partner, r, nb[partner]) != s) {
        return fail("send-not-partners-receive", i, j, s, jia_recv_block(partner, r, nb[partner]));
      }
      if (i != 0) {
        const std::int64_t next = jia_send_block(i, cube_round(j + 1, q), nb[i]);
        const std::int64_t expected = jia_bit(i, r) ? t : s;
        if (next != expected) return fail("next-send", i, j + 1, expected, next);
      }
      if (role_swaps(sw[i], r) != swaps) return fail("role-swaps", i, j, swaps, role_swaps(sw[i], r));
      const std::int64_t partner_parity = (role_swaps(sw[i], r) + j / q) & 1;
      if ((role_swaps(sw[partner], r) & 1) != partner_parity) {
        return fail("partner-role-parity", i, j, role_swaps(sw[partner], r) & 1, partner_parity);
      }
      swaps += jia_bit(i, r);
    }
  }
  // The G(j, k) invariant with unboundedly many blocks (blocks <= 3q + 1 < 128 here).
  std::vector<Bits> held(cube, 0), got(cube, 0);
  held[0] = ~Bits{0};
  for (std::int64_t j = 0; j < 3 * q + 2; ++j) {
    std::fill(got.begin(), got.end(), 0);
    const CubeRound r = cube_round(j, q);
    for (std::int64_t i = 1; i < cube; ++i) {
      const std::int64_t t = jia_recv_block(i, r, nb[i]);
      if (t < 0) continue;
      const std::int64_t from = jia_partner(i, r);
      if (!(held[from] & bit_of(t))) return fail("send-before-receive", from, j, -1, t);
      if (held[i] & bit_of(t)) return fail("duplicate-block", i, j, -1, t);
      got[i] = bit_of(t);
    }
    for (std::int64_t i = 1; i < cube; ++i) {
      held[i] |= got[i];
      const std::int64_t all_below = j - q;  // G(j, 0): every processor
      for (std::int64_t b = 0; b <= all_below; ++b) {
        if (!(held[i] & bit_of(b))) return fail("G(j,0)-missing", i, j, b, -1);
      }
      const std::int64_t b = j - q + nb[i][r.k];  // G(j, k)
      if (b >= 0 && !(held[i] & bit_of(b))) return fail("G(j,k)-missing", i, j, b, -1);
    }
  }
  return std::nullopt;
}

std::optional<Counterexample> check_hypercube_units(std::int64_t p) {
  const int q = hypercube_dim(p);
  const std::int64_t cube = std::int64_t{1} << q;
  const auto fail = [&](const char* kind, std::int64_t i, std::int64_t j, std::int64_t expected,
                        std::int64_t actual) {
    return Counterexample{"hypercube-units", kind, p, i, j, expected, actual, ""};
  };
  std::vector<std::int64_t> members(cube, 0);
  for (std::int64_t i = 0; i < p; ++i) {
    const HypercubeRank me(p, i);
    const std::int64_t co = me.co();
    if (co < 0 || co >= p) return fail("co-out-of-range", i, -1, -1, co);
    if (hypercube_co(p, q, co) != i) return fail("co-not-involution", i, -1, i, hypercube_co(p, q, co));
    const bool paired = (i >= 1 && i <= p - cube) || i >= cube;
    if (paired == (co == i)) return fail("pairing", i, -1, paired ? cube - 1 + i : i, co);
    if (me.rep() >= cube || me.rep() != std::min(i, co)) return fail("rep", i, -1, std::min(i, co), me.rep());
    ++members[me.rep()];
    if (me.single() || q == 0) continue;
    for (std::int64_t j = 0; j < 2 * q; ++j) {
      const std::int64_t out = me.out(me.round(j)), in = me.in(me.round(j));
      if (!((out == i && in == co) || (out == co && in == i))) return fail("roles", i, j, co, out == i ? in : out);
    }
  }
  for (std::int64_t r = 0; r < cube; ++r) {
    const std::int64_t expected = r >= 1 && r <= p - cube ? 2 : 1;
    if (members[r] != expected) return fail("unit-size", r, -1, expected, members[r]);
  }
  return std::nullopt;
}

namespace {

// A strong 64-bit mix (the splitmix64 finaliser) of one transfer (round, from, to, block).
inline std::uint64_t transfer_hash(std::int64_t j, std::int64_t from, std::int64_t to, std::int64_t b) {
  const auto mix = [](std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  return mix(mix((static_cast<std::uint64_t>(j) << 32) ^ static_cast<std::uint64_t>(b)) ^
             ((static_cast<std::uint64_t>(from) << 32) | static_cast<std::uint64_t>(to)));
}

}  // namespace

std::optional<Counterexample> stream_hypercube(const std::vector<HypercubeRank>& virtual_ranks,
                                               std::int64_t n) {
  const auto p = static_cast<std::int64_t>(virtual_ranks.size());
  const int q = hypercube_dim(p);
  const std::uint64_t magic = q > 0 ? cube_round_magic(q) : 0;
  const std::int64_t optimal = p == 1 ? 0 : n - 1 + ceil_log2(p);
  // Anything wrong: the round-synchronous run finds and names it.
  const auto locate = [&]() -> std::optional<Counterexample> {
    if (auto c = sim::run_hypercube(virtual_ranks, n, 0)) return c;
    return Counterexample{"hypercube-run", "transfer-fingerprints-differ", p, -1, -1, 0, 0,
                          "n=" + std::to_string(n) + " root=0"};
  };
  std::uint64_t sent = 0, received = 0;  // sums of transfer_hash over both sides
  std::int64_t last = -1;
  std::vector<std::uint64_t> held(static_cast<std::size_t>((n + 63) / 64));
  const auto has = [&](std::int64_t b) { return (held[b >> 6] >> (b & 63)) & 1; };
  for (std::int64_t x = 0; x < p; ++x) {
    const HypercubeBcastSchedule me(virtual_ranks[x], n, 0);
    if (me.rounds() != optimal) return locate();
    std::fill(held.begin(), held.end(), x == 0 ? ~std::uint64_t{0} : 0);
    for (std::int64_t j = 0; j < optimal; ++j) {
      const BcastRound m = me.round_at(cube_round(j, q, magic));
      if (m.send) {
        const Transfer& t = *m.send;
        if (t.block < 0 || t.block >= n || !has(t.block) || t.peer < 0 || t.peer >= p || t.peer == x) return locate();
        sent += transfer_hash(j, x, t.peer, t.block);
        last = std::max(last, j);
      }
      if (m.recv) {
        const Transfer& t = *m.recv;
        if (x == 0 || t.block < 0 || t.block >= n || has(t.block)) return locate();
        received += transfer_hash(j, t.peer, x, t.block);
        held[t.block >> 6] |= std::uint64_t{1} << (t.block & 63);
      }
    }
    for (std::int64_t b = 0; b < n; ++b) {
      if (!has(b)) return locate();
    }
  }
  if (sent != received || last + 1 != optimal) return locate();
  return std::nullopt;
}

std::vector<std::int64_t> hypercube_block_counts(std::int64_t p) {
  const std::int64_t q = hypercube_dim(p);
  std::vector<std::int64_t> out;
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{2}, q, q + 1, 3 * q + 2}) {
    if (n >= 1 && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  return out;
}

}  // namespace rosched::verify
