// Bin Jia's M - 1 + ceil(log2 p) round hypercube broadcast, as presented in Träff's lecture notes,
// "The power of the hypercube: Optimal Broadcast" through the Main Theorem (Bin Jia, "Process
// cooperation in multiple message broadcast", Parallel Computing 35(12), 2009), and its
// extension to any p by cooperating pairs of processors. Root 0 here; the schedule description
// (sched/hypercube_schedule.h) renumbers for any root.
//
// Power of two, p = 2^q. In round j processor i exchanges with partner(i, j) = i XOR 2^(j mod q);
// with bit(i, j) = bit j mod q of i and NEXTBIT(i)[k] = the distance from bit k of i to the next
// more significant 1-bit, wrapping around (q for i = 0), it sends block
//     s(i, j) = j - q + (1 - bit(i, j)) NEXTBIT(i)[j mod q]
// and receives block
//     t(i, j) = j - q + bit(i, j) NEXTBIT(i)[j mod q] = s(partner(i, j), j).
// The root sends s(0, j) = j and never receives; negative blocks are neither sent nor received;
// blocks >= M are sent and received as M - 1. Since s(i, j + 1) is s(i, j) if bit(i, j) = 0 and
// t(i, j) otherwise, a processor only sends blocks it holds.
//
// Any p, q = floor(log2 p): the hypercube runs over 2^q units. The p - 2^q excess processors
// 2^q..p-1 pair up with 1..p-2^q (the lecture's co(i), with its two transcription errors corrected,
// as exhaustive simulation shows: p - 2^q < i < 2^q are singletons, and co(i) = i - 2^q + 1 for i
// >= 2^q); the unit's representative rep(i) is the one below 2^q. In a pair, in round j the `out`
// processor sends the unit's block s(rep, j) to the partner unit's `in` processor and receives
// block j - q - 1 from its own `in` processor, which receives the unit's block t(rep, j) from the
// partner unit's `out` processor. Roles start as out = co(rep), in = rep and swap after every round
// j with bit(rep, j) = 1 (the out processor must hold s(rep, j + 1), which is then t(rep, j),
// received by `in`): the lecture's rule with bit j, not bit j + 1 of its proof, settled by
// exhaustive simulation. The number of swaps before round j is u(rep, j) = popcount(rep) * floor((j
// - 1) / q) + SWITCH(rep)[(j - 1) mod q]   (0 for j = 0), SWITCH(rep)[k] = number of 1-bits of rep
// at positions 0..k, so a processor knows its role and the partner unit's role in O(1) per round:
// the partner differs from rep in bit j mod q only, which has been counted floor(j / q) times, so
// its swap parity is (u + floor(j / q)) mod 2. After the M - 1 + q hypercube rounds, one extra
// round inside every pair swaps blocks M - 1 (held by out) and M - 2 (held by in): M - 1 +
// ceil(log2 p) rounds for every p, and every processor receives every block exactly once (verify
// --family hypercube, every p <= 100,000).
//
// Everything here is O(log p) to set up per processor and O(1) per round.
#ifndef ROSCHED_SCHED_HYPERCUBE_HYPERCUBE_H_
#define ROSCHED_SCHED_HYPERCUBE_HYPERCUBE_H_

#include <array>
#include <cstdint>

#include "sched/round.h"

namespace rosched {

// floor(log2 p): the dimension of the hypercube of units (0 for p = 1). Throws
// std::invalid_argument unless 1 <= p <= 2^31 - 1.
int hypercube_dim(std::int64_t p);

// Round j of a q-dimensional hypercube (q >= 1) split as j = cycle q + k, 0 <= k < q: the one
// division per round, shared by everything below.
struct CubeRound {
  std::int64_t j = 0, cycle = 0;
  int k = 0;
};
inline CubeRound cube_round(std::int64_t j, int q) {
  const auto cycle = static_cast<std::int64_t>(static_cast<std::uint64_t>(j) / static_cast<unsigned>(q));
  return {j, cycle, static_cast<int>(j - cycle * q)};
}
// The same without a division instruction, for j >= 0, 1 <= q <= 31 and magic =
// cube_round_magic(q) = ceil(2^64 / q) (0 for q = 1, where it does not fit): floor(j / q) is
// the high 64 bits of j * magic, exact for j < 2^64 / q (far above any round number).
inline std::uint64_t cube_round_magic(int q) {
  return q == 1 ? 0 : ~std::uint64_t{0} / static_cast<unsigned>(q) + 1;
}
inline CubeRound cube_round(std::int64_t j, int q, std::uint64_t magic) {
  if (magic == 0) return {j, j, 0};  // q = 1
  const auto cycle = static_cast<std::int64_t>(
      (static_cast<unsigned __int128>(static_cast<std::uint64_t>(j)) * magic) >> 64);
  return {j, cycle, static_cast<int>(j - cycle * q)};
}

// bit(i, j): bit j mod q of i.
inline int jia_bit(std::int64_t i, const CubeRound& r) { return static_cast<int>((i >> r.k) & 1); }
// The round-j neighbour in the hypercube: i XOR 2^(j mod q).
inline std::int64_t jia_partner(std::int64_t i, const CubeRound& r) {
  return i ^ (std::int64_t{1} << r.k);
}

// NEXTBIT(i) for 0 <= i < 2^q, 1 <= q <= 30: entry k (0 <= k < q) is the distance from bit k of
// i to the next more significant 1-bit, wrapping around from bit q - 1 to bit 0 (so it is in
// [1, q]); every entry is q for i = 0. O(q).
struct NextBit {
  int q = 0;
  std::array<std::uint8_t, kMaxQ> d{};
  int operator[](int k) const { return d[k]; }
};
NextBit nextbit(std::int64_t i, int q);

// SWITCH(i) for 0 <= i < 2^q: entry k is the number of 1-bits of i at positions 0..k. O(q).
struct SwitchCount {
  int q = 0;
  std::array<std::uint8_t, kMaxQ> c{};
  int operator[](int k) const { return c[k]; }
};
SwitchCount switch_count(std::int64_t i, int q);

// s(i, j) and t(i, j) before clamping (may be negative or >= M); the root i = 0 has
// NEXTBIT = q everywhere, so s(0, j) = j. nb = nextbit(i, q).
inline std::int64_t jia_send_block(std::int64_t i, const CubeRound& r, const NextBit& nb) {
  return r.j - nb.q + (1 - jia_bit(i, r)) * nb[r.k];
}
inline std::int64_t jia_recv_block(std::int64_t i, const CubeRound& r, const NextBit& nb) {
  return r.j - nb.q + jia_bit(i, r) * nb[r.k];
}

// The number of role swaps of the unit with representative rep before round j:
// u(rep, j) = popcount(rep) floor((j - 1) / q) + SWITCH(rep)[(j - 1) mod q] (0 for j = 0),
// the lecture's formula, without a second division. O(1).
inline std::int64_t role_swaps(const SwitchCount& sw, const CubeRound& r) {
  if (r.j == 0) return 0;
  return r.k == 0 ? sw[sw.q - 1] * r.cycle : sw[sw.q - 1] * r.cycle + sw[r.k - 1];
}

// The cooperating processor co(i) and representative rep(i) of processor i (root 0): the excess
// processors 2^q..p-1 pair with 1..p-2^q; all others are singletons (co(i) = i). O(1) given q.
inline std::int64_t hypercube_co(std::int64_t p, int q, std::int64_t i) {
  const std::int64_t cube = std::int64_t{1} << q;
  if (i == 0) return 0;
  if (i <= p - cube) return cube - 1 + i;
  if (i < cube) return i;
  return i - cube + 1;
}
inline std::int64_t hypercube_rep(std::int64_t p, int q, std::int64_t i) {
  return i < (std::int64_t{1} << q) ? i : hypercube_co(p, q, i);
}

// One processor's view of the schedule (root 0, virtual rank x): its unit and, per round, the
// roles in its own and in the partner unit. O(log p) to build, O(1) per call.
class HypercubeRank {
 public:
  // Throws std::invalid_argument unless 1 <= p <= 2^31 - 1 and 0 <= x < p.
  HypercubeRank(std::int64_t p, std::int64_t x);

  std::int64_t p() const { return p_; }
  int q() const { return q_; }
  std::int64_t x() const { return x_; }
  std::int64_t rep() const { return rep_; }
  std::int64_t co() const { return co_; }
  bool single() const { return co_ == x_; }
  const NextBit& nextbit() const { return nb_; }
  const SwitchCount& switches() const { return sw_; }

  // Round j split for this q (p >= 2).
  CubeRound round(std::int64_t j) const { return cube_round(j, q_, magic_); }
  // The unit's hypercube blocks of round j (unclamped, possibly negative): s(rep, j), t(rep, j).
  std::int64_t send_block(const CubeRound& r) const { return jia_send_block(rep_, r, nb_); }
  std::int64_t recv_block(const CubeRound& r) const { return jia_recv_block(rep_, r, nb_); }
  // The representative of the partner unit in round j.
  std::int64_t partner(const CubeRound& r) const { return jia_partner(rep_, r); }
  // Who plays which role in round j: this unit's out and in processors (both x for a
  // singleton) and the partner unit's, the latter from this unit's swap count (the partner
  // differs from rep in bit j mod q only, counted floor(j / q) times before round j).
  struct Roles {
    std::int64_t out, in, partner_out, partner_in;
  };
  Roles roles(const CubeRound& r) const {
    const std::int64_t swaps = role_swaps(sw_, r), other = partner(r);
    const std::int64_t other_co = hypercube_co(p_, q_, other);
    const bool swapped = swaps & 1, partner_swapped = (swaps + r.cycle) & 1;
    return {swapped ? rep_ : co_of_rep_, swapped ? co_of_rep_ : rep_,
            partner_swapped ? other : other_co, partner_swapped ? other_co : other};
  }
  std::int64_t out(const CubeRound& r) const { return roles(r).out; }
  std::int64_t in(const CubeRound& r) const { return roles(r).in; }
  std::int64_t partner_out(const CubeRound& r) const { return roles(r).partner_out; }
  std::int64_t partner_in(const CubeRound& r) const { return roles(r).partner_in; }

 private:
  // 32 bits suffice (p < 2^31) and keep the object small: the verifier holds one per rank.
  std::int32_t p_, x_, rep_, co_, co_of_rep_;
  int q_;
  std::uint64_t magic_ = 0;
  NextBit nb_;
  SwitchCount sw_;
};

}  // namespace rosched

#endif  // ROSCHED_SCHED_HYPERCUBE_HYPERCUBE_H_
