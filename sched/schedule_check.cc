#include "sched/schedule_check.h"

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

// The rank's own conditions in round k; updates its state.
std::optional<Violation> check_own(std::int64_t r, int k, int q, int own, std::int8_t send,
                                   std::int8_t recv, bool sends_to_root, std::uint64_t& held) {
  const bool has = send < 0 ? (send >= -q && ((held >> (send + q)) & 1U))
                            : (send == own && (held & kOwn));
  if (!sends_to_root && !has) return Violation{ViolationKind::kSendBeforeReceive, r, k, -1, send};
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

}  // namespace

std::optional<Violation> check_schedule(const FullSchedule& f) {
  const Skips& s = f.skips();
  const std::int64_t p = s.p();
  const int q = s.q();
  const std::vector<std::int8_t> own = all_baseblocks(s);
  std::vector<std::uint64_t> held(p);
  for (std::int64_t r = 1; r < p; ++r) held[r] = std::uint64_t{1} << own[r];
  for (int k = 0; k < q; ++k) {
    const std::int8_t* send = f.send_round(k);
    const std::int8_t* recv = f.recv_round(k);
    const std::int64_t root_sender = p - s[k];  // the rank whose to-process is the root
    for (std::int64_t r = 1; r < p; ++r) {
      if (auto v = check_own(r, k, q, own[r], send[r], recv[r], r == root_sender, held[r])) {
        return v;
      }
    }
    // send[r] must equal recv[(r + skips[k]) mod p], except for root_sender.
    for (std::int64_t r = 0; r < p; ++r) {
      const std::int64_t t = r < root_sender ? r + s[k] : r + s[k] - p;
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
