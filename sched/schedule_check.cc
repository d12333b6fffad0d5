#include "sched/schedule_check.h"

#include <stdexcept>

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

std::optional<Violation> check_rank_local(const Skips& s, std::int64_t r,
                                          const RankSchedule& sched) {
  if (r == 0) return std::nullopt;
  const int q = s.q();
  const int own = baseblock(s, r);
  // Bit b + q is set when previous-phase block b (-q <= b < 0) is held; the own baseblock of
  // the previous phase is held from the start.
  std::uint64_t held = std::uint64_t{1} << own;
  int own_round = -1;
  for (int k = 0; k < q; ++k) {
    const std::int32_t send = sched.send[k];
    const bool has = send < 0 ? (send >= -q && ((held >> (send + q)) & 1U))
                              : (send == own && own_round >= 0);
    if (s.to(r, k) != 0 && !has) {
      return Violation{ViolationKind::kSendBeforeReceive, r, k, -1, send};
    }
    const std::int32_t b = sched.recv[k];
    if (b >= 0) {
      if (b != own || own_round >= 0) {
        return Violation{ViolationKind::kMissingBaseblock, r, k, own, b};
      }
      own_round = k;
    } else if (b < -q) {
      return Violation{ViolationKind::kBlockOutOfRange, r, k, -q, b};
    } else if ((held >> (b + q)) & 1U) {
      return Violation{ViolationKind::kDuplicateBlock, r, k, -1, b};
    } else {
      held |= std::uint64_t{1} << (b + q);
    }
  }
  if (own_round < 0) return Violation{ViolationKind::kMissingBaseblock, r, q - 1, own, -1};
  return std::nullopt;
}

std::optional<Violation> check_schedule(const Skips& s, const std::vector<RankSchedule>& all) {
  if (static_cast<std::int64_t>(all.size()) != s.p()) {
    throw std::invalid_argument("check_schedule: need one schedule per rank");
  }
  for (std::int64_t r = 0; r < s.p(); ++r) {
    if (auto v = check_rank_local(s, r, all[r])) return v;
  }
  for (std::int64_t r = 0; r < s.p(); ++r) {
    for (int k = 0; k < s.q(); ++k) {
      const std::int64_t t = s.to(r, k);
      if (t == 0) continue;  // nothing is sent to the root
      if (all[r].send[k] != all[t].recv[k]) {
        return Violation{ViolationKind::kSendMismatch, r, k, all[t].recv[k], all[r].send[k]};
      }
    }
  }
  return std::nullopt;
}

std::vector<RankSchedule> full_schedule(const Skips& s, Construction c) {
  std::vector<RankSchedule> all;
  all.reserve(s.p());
  for (std::int64_t r = 0; r < s.p(); ++r) all.push_back(rank_schedule(s, r, c));
  return all;
}

}  // namespace rosched
