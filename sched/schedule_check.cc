#include "sched/schedule_check.h"

#include <cstring>
#include <vector>

#include "sched/baseblock.h"

namespace rosched {

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

// True if every rank other than the root meets its own conditions in every round. Rank by rank
// with the state in a register (fast); check_schedule() then locates a failure round by round.
bool all_ranks_own_conditions(const FullSchedule& f, const std::vector<std::int8_t>& own) {
  const Skips& s = f.skips();
  const std::int64_t p = s.p();
  const int q = s.q();
  const std::int8_t* send[kMaxQ];
  const std::int8_t* recv[kMaxQ];
  std::int64_t root_sender[kMaxQ];
  for (int k = 0; k < q; ++k) {
    send[k] = f.send_round(k);
    recv[k] = f.recv_round(k);
    root_sender[k] = p - s[k];
  }
  bool ok = true;
  for (std::int64_t r = 1; r < p; ++r) {
    const int o = own[r];
    std::uint64_t h = std::uint64_t{1} << o;
    for (int k = 0; k < q; ++k) {
      const int sd = send[k][r], rv = recv[k][r];
      const bool has = sd < 0 ? (sd >= -q && ((h >> ((sd + q) & 63)) & 1U))
                              : (sd == o && (h & kOwn) != 0);
      const std::uint64_t bit = rv >= 0 ? kOwn : std::uint64_t{1} << ((rv + q) & 63);
      ok &= (has || r == root_sender[k]) && (rv >= 0 ? rv == o : rv >= -q) && !(h & bit);
      h |= bit;
    }
    ok &= (h & kOwn) != 0;
  }
  return ok;
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

}  // namespace rosched
