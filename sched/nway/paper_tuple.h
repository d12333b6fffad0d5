// The last-round correction of the n-way dissemination algorithm: End, Yahyapour, Simmendinger,
// Alrutz, "Adaption of the n-way Dissemination Algorithm for GASPI Split-Phase Allreduce"
// (INFOCOMP 2015), Sec. IV, data boundaries (Eqs. 5-8) and Theorem 1.
//
// With b = n + 1, k = ceil(log_b P) rounds and W = b^(k-1), the last round combines full partial
// results from senders at distances W, ..., (s-1)W, the prefix of length Lsnd of the sender at
// distance sW, and the receiver's own partial result minus its prefix of length Lrcv, where
//     P = s W + Lsnd - Lrcv,   1 <= s <= n,   Lsnd in A,   Lrcv in {0} u A,          (Eq. 8)
// A = {1} u {(j+1) b^(l-1) : 1 <= l <= k-1, 1 <= j <= n} (the prefix lengths at which a rank's
// partial result has a boundary: one-nonzero-digit numbers in base b up to W).
//
// Corrections to the printed text, each settled by simulating every rank (see docs/families.md):
//  1. Eq. (7) ("boundaries coincide") must hold exactly, as Eq. (8), not modulo P: tuples with
//     s W + Lsnd - Lrcv = 2P, 3P, ... count contributions twice (P = 4, n = 2, s = 2, Lsnd = 2).
//  2. Eq. (8), line 1: by Eqs. (5)-(6) the sign is g^s - g = -P. Eqs. (5)-(6) are read at l = 0
//     as g_0 = the own contribution (prefix 1) and g_B = the empty prefix (Lrcv = 0).
//  3. Sec. IV property (2) is sum_{i=1}^{l-1} n b^(i-1) + 1 = b^(l-1) (printed from i = 0); in
//     the proof of case 3, n sum_{i=0}^{k-2} b^i = W - 1 and (s-1)W + (W-1) = sW - 1.
//  4. Case 3's "if s = 1 the algorithm ends after k-1 rounds" never happens (it needs P = W).
//  5. No tuple exists for many (P, n), the smallest being P = 13, n = 1 (13 = 8 + 5, and 5 is no
//     difference of elements of A); the paper does not say so. paper_tuple() returns nothing then.
// A sender at distance sW = P would be the receiver itself: such tuples are excluded (the case
// P = sW is Theorem 1's case 3, found here as (s - 1, Lsnd = W, Lrcv = 0)).
//
// The choice among tuples (the paper leaves it open): fewest last-round messages (smallest s),
// then no take-out (Lrcv = 0), then the shortest prefix Lsnd.
#ifndef ROSCHED_SCHED_NWAY_PAPER_TUPLE_H_
#define ROSCHED_SCHED_NWAY_PAPER_TUPLE_H_

#include <cstdint>
#include <optional>

namespace rosched {

struct PaperTuple {
  std::int64_t s = 0, lsnd = 0, lrcv = 0;
  bool operator==(const PaperTuple& o) const {
    return s == o.s && lsnd == o.lsnd && lrcv == o.lrcv;
  }
};

// Whether x is in A for base b and k rounds (x >= 0). O(log x).
bool paper_boundary(std::int64_t x, std::int64_t b, int k);

// The tuple chosen for (P, n) as above, or nothing if Eq. (8) has no solution. Preconditions
// (checked by NwayPlan, not here): 2 <= P <= 2^31 - 1, 1 <= n <= 64. O(n^2 log^2 P) (per P and
// n, not per rank).
std::optional<PaperTuple> paper_tuple(std::int64_t p, std::int64_t n);

}  // namespace rosched

#endif  // ROSCHED_SCHED_NWAY_PAPER_TUPLE_H_
