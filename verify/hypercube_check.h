// Verification of Bin Jia's hypercube broadcast with cooperating pairs (Träff's lecture notes, "The
// power of the hypercube: Optimal Broadcast" through the Main Theorem; sched/hypercube.h,
// sched/hypercube_schedule.h).
#ifndef ROSCHED_VERIFY_HYPERCUBE_CHECK_H_
#define ROSCHED_VERIFY_HYPERCUBE_CHECK_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "sched/hypercube/hypercube.h"
#include "sim/counterexample.h"

namespace rosched::verify {

using sim::Counterexample;

// The lecture's propositions for the q-dimensional hypercube (they depend on q only), for every
// processor i < 2^q: NEXTBIT(i) equals its definition scanned bit by bit, and
// NEXTBIT(i)[k] = NEXTBIT(i XOR 2^k)[k]; SWITCH(i) equals the 1-bit counts; over two periods of
// rounds, s(i, j) = t(partner(i, j), j), s(i, j + 1) = s(i, j) if bit(i, j) = 0 and t(i, j)
// otherwise, role_swaps(i, j) equals the swaps counted round by round, and the partner's swap
// parity is (role_swaps(i, j) + floor(j / q)) mod 2; and, simulating the hypercube with
// unboundedly many blocks for 3q + 2 rounds, the G(j, k) invariant: after round j every
// processor holds every block <= j - q, and those with NEXTBIT(i)[j mod q] = k hold block
// j - q + k; no block arrives twice, and only held blocks are sent. O(2^q q^2).
std::optional<Counterexample> check_hypercube_cube(int q);

// The cooperating units of p: co is an involution on [0, p) that pairs 2^q..p-1 with
// 1..p-2^q, rep(i) < 2^q is in i's unit, and in every round j < 2q the two roles of a pair
// are its two processors. O(p q).
std::optional<Counterexample> check_hypercube_units(std::int64_t p);

// The same checks for root 0, rank by rank instead of round by round, for large p: each rank's
// rounds are walked in order with what it holds, and the transfers are matched as multisets:
// the sums of a strong 64-bit hash of (round, sender, receiver, block) over all sends and over
// all receives must agree (a mismatch has probability about 2^-64 of going unnoticed). Each
// rank sends and receives at most one block per round by construction, so equal multisets
// mean every send meets its receive. Memory O(n / 8) instead of O(p n / 8), no scattered
// access. Any failure is located by sim::run_hypercube, whose counterexample is returned.
std::optional<Counterexample> stream_hypercube(const std::vector<HypercubeRank>& virtual_ranks,
                                               std::int64_t n);

// The block counts the verifier runs: 1, 2, q, q + 1, 3q + 2 with q = floor(log2 p), once each.
std::vector<std::int64_t> hypercube_block_counts(std::int64_t p);

}  // namespace rosched::verify

#endif  // ROSCHED_VERIFY_HYPERCUBE_CHECK_H_
