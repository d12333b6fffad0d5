#include "sim/schedule_check.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "sched/circulant/baseblock.h"
#include "sched/vectorise.h"

namespace rosched::sim {

const char* violation_name(ViolationKind kind) {
  switch (kind) {
    case ViolationKind::kMissingBaseblock:
      return "missing-baseblock";
    case ViolationKind::kBlockOutOfRange:
      return "block-out-of-range";
    case ViolationKind::kDuplicateBlock:
      return "duplicate-block";
    case ViolationKind::kSendMismatch:
      return "send-mismatch";
    case ViolationKind::kSendBeforeReceive:
      return "send-before-receive";
  }
  return "?";
}

std::string Violation::describe(std::int64_t p) const {
  return std::string(violation_name(kind)) + ": p=" + std::to_string(p) + " rank=" +
         std::to_string(rank) + " round=" + std::to_string(round) +
         " expected=" + std::to_string(expected) + " actual=" + std::to_string(actual);
}

namespace {

// Per-rank state: bit b + q is set once previous-phase block b (-q <= b < 0) is held (the own
// baseblock of the previous phase from the start); kOwn once this phase's baseblock arrived.
constexpr std::uint64_t kOwn = std::uint64_t{1} << 63;

// The rank's own conditions in round k; updates its state. `wanted` is what the receiver of the
// send expects (reported as the expected block of a send-before-receive).
std::optional<Violation> check_own(std::int64_t r, int k, int q, int own, std::int8_t send,
                                   std::int8_t recv, bool sends_to_root, std::int8_t wanted,
                                   std::uint64_t& held) {
  const bool has = send < 0 ? (send >= -q && ((held >> (send + q)) & 1U))
                            : (send == own && (held & kOwn));
  if (!sends_to_root && !has) {
    return Violation{ViolationKind::kSendBeforeReceive, r, k, wanted, send};
  }
  if (recv >= 0) {
    if (recv != own || (held & kOwn)) {
      return Violation{ViolationKind::kMissingBaseblock, r, k, own, recv};
    }
    held |= kOwn;
  } else if (recv < -q) {
    return Violation{ViolationKind::kBlockOutOfRange, r, k, -q, recv};
  } else if ((held >> (recv + q)) & 1U) {
    return Violation{ViolationKind::kDuplicateBlock, r, k, -1, recv};
  } else {
    held |= std::uint64_t{1} << (recv + q);
  }
  return std::nullopt;
}

// The fast pass's state of a rank, 32 bits (q <= 30): bit b + q for a block -q <= b < 0 of the
// previous phase (as check_own()'s), kOwnBit for its baseblock of this phase, and kInvalidBit
// for any other block, which no rank ever holds unless it received an invalid block.
constexpr int kFastMaxQ = 30;
constexpr std::uint32_t kOwnBit = std::uint32_t{1} << 30;
constexpr std::uint32_t kInvalidBit = std::uint32_t{1} << 31;

inline std::uint32_t block_bit(std::int32_t b, std::int32_t own, std::int32_t q) {
  const std::uint32_t i = static_cast<std::uint32_t>(b + q);  // below q iff -q <= b < 0
  return i < static_cast<std::uint32_t>(q) ? std::uint32_t{1} << (i & 31)
         : b == own                        ? kOwnBit
                                           : kInvalidBit;
}

constexpr std::int64_t kTile = 1024;

// Ranks lo .. lo + n - 1 (1 <= lo, n <= kTile) of the fast pass below, whose baseblocks are
// own[0 .. n - 1]; nonzero if one of them breaks a condition. Round by round across the tile,
// the tile's state in an array. The loops have no branches, so that the compiler vectorises
// them (sched/vectorise.h).
ROSCHED_VECTORISED std::uint32_t
own_conditions_tile(const FullSchedule& f, const std::int8_t* own, std::int64_t lo,
                    std::int64_t n) {
  const Skips& s = f.skips();
  const std::int64_t p = s.p();
  const std::int32_t q = s.q();
  std::uint32_t held[kTile];
  for (std::int64_t j = 0; j < n; ++j) held[j] = std::uint32_t{1} << (own[j] & 31);
  std::uint32_t missing = 0;
  // Ranks j0 .. j1 - 1 of the tile in round k: the send check, and what they receive.
  const auto round = [&](const std::int8_t* send, const std::int8_t* recv, std::int64_t j0,
                         std::int64_t j1) __attribute__((always_inline)) {
    for (std::int64_t j = j0; j < j1; ++j) {
      const std::uint32_t h = held[j];
      missing |= static_cast<std::uint32_t>((h & block_bit(send[j], own[j], q)) == 0);
      held[j] = h | block_bit(recv[j], own[j], q);
    }
  };
  for (int k = 0; k < q; ++k) {
    const std::int8_t* send = f.send_round(k) + lo;
    const std::int8_t* recv = f.recv_round(k) + lo;
    // The rank sending to the root, if in this tile, is exempt from the send check.
    const std::int64_t root_sender = p - s[k] - lo;
    if (root_sender < 0 || root_sender >= n) {
      round(send, recv, 0, n);
    } else {
      round(send, recv, 0, root_sender);
      held[root_sender] |= block_bit(recv[root_sender], own[root_sender], q);
      round(send, recv, root_sender + 1, n);
    }
  }
  const std::uint32_t complete = ((std::uint32_t{1} << q) - 1) | kOwnBit;
  std::uint32_t wrong = 0;
  for (std::int64_t j = 0; j < n; ++j) wrong |= held[j] ^ complete;
  return missing | wrong;
}

// True if every rank other than the root meets its own conditions in every round (a yes/no
// pass; check_schedule() locates a failure round by round with check_own()). The same
// conditions as check_own(), in another form. With H the state a rank holds before round k (the
// bit of its previous-phase baseblock, own - q, and the bits of the blocks it received so far):
//  * it sends a block it holds: H & block_bit(send[k]) != 0, unless it sends to the root. For a
//    block of the previous phase, the same test as check_own()'s; for this phase's baseblock,
//    kOwnBit, set once it arrived; any other block has kInvalidBit, set only if the rank
//    received an invalid block (and then fails the next condition anyway);
//  * its q received blocks are valid (within [-q, -1] or own), new (distinct, and not own - q),
//    and include own exactly once; i.e. their q bits with the initial one are q + 1 distinct
//    bits other than kInvalidBit: the final H is all q low bits and kOwnBit. (Conversely, if the
//    final H is that, the q received blocks set q distinct bits, none the initial one nor
//    kInvalidBit: all valid, none held before, own once.)
// For q > kFastMaxQ (p > 2^30) it answers no, and check_schedule() checks round by round.
bool all_ranks_own_conditions(const FullSchedule& f, const std::vector<std::int8_t>& own) {
  if (f.q() > kFastMaxQ) return false;
  const std::int64_t p = f.p();
  std::uint32_t bad = 0;
  for (std::int64_t lo = 1; lo < p; lo += kTile) {
    bad |= own_conditions_tile(f, own.data() + lo, lo, std::min(kTile, p - lo));
  }
  return bad == 0;
}

// send[r] == recv[(r + skips[k]) mod p] for all r but the root's sender (r = p - skips[k]).
bool sends_match(const FullSchedule& f, int k) {
  const std::int64_t p = f.p(), skip = f.skips()[k];
  const std::int8_t* send = f.send_round(k);
  const std::int8_t* recv = f.recv_round(k);
  return std::memcmp(send, recv + skip, p - skip) == 0 &&
         std::memcmp(send + p - skip + 1, recv + 1, skip - 1) == 0;
}

}  // namespace

std::optional<Violation> check_schedule(const FullSchedule& f) {
  const Skips& s = f.skips();
  const std::int64_t p = s.p();
  const int q = s.q();
  const std::vector<std::int8_t> own = all_baseblocks(s);
  bool valid = all_ranks_own_conditions(f, own);
  for (int k = 0; k < q && valid; ++k) valid = sends_match(f, k);
  if (valid) return std::nullopt;

  // Locate the first violation, round by round.
  std::vector<std::uint64_t> held(p);
  for (std::int64_t r = 1; r < p; ++r) held[r] = std::uint64_t{1} << own[r];
  for (int k = 0; k < q; ++k) {
    const std::int8_t* send = f.send_round(k);
    const std::int8_t* recv = f.recv_round(k);
    for (std::int64_t r = 1; r < p; ++r) {
      if (auto v = check_own(r, k, q, own[r], send[r], recv[r], r == p - s[k],
                             recv[s.to(r, k)], held[r])) {
        return v;
      }
    }
    for (std::int64_t r = 0; r < p; ++r) {
      const std::int64_t t = s.to(r, k);
      if (t != 0 && send[r] != recv[t]) {
        return Violation{ViolationKind::kSendMismatch, r, k, recv[t], send[r]};
      }
    }
  }
  for (std::int64_t r = 1; r < p; ++r) {
    if (!(held[r] & kOwn)) return Violation{ViolationKind::kMissingBaseblock, r, q - 1, own[r], -1};
  }
  return std::nullopt;
}

}  // namespace rosched::sim
