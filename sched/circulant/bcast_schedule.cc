#include "sched/circulant/bcast_schedule.h"

#include <stdexcept>
#include <string>

namespace rosched {

BcastSchedule::BcastSchedule(std::int64_t p, std::int64_t n, std::int64_t rank,
                             std::int64_t root, Construction c)
    : skips_(p) {
  init(n, rank, root);
  if (virtual_rank_ != 0) sched_ = rank_schedule(skips_, virtual_rank_, c);
}

BcastSchedule::BcastSchedule(const Skips& s, std::int64_t n, std::int64_t rank,
                             std::int64_t root, const RankSchedule& virtual_rank_schedule)
    : skips_(s) {
  init(n, rank, root);
  if (virtual_rank_schedule.recv.q != s.q() || virtual_rank_schedule.send.q != s.q()) {
    throw std::invalid_argument("BcastSchedule: the given schedule has q = " +
                                std::to_string(virtual_rank_schedule.recv.q) + ", p = " +
                                std::to_string(s.p()) + " needs q = " + std::to_string(s.q()));
  }
  if (virtual_rank_ != 0) sched_ = virtual_rank_schedule;
}

void BcastSchedule::init(std::int64_t n, std::int64_t rank, std::int64_t root) {
  check_rank(skips_, rank, "rank");
  check_rank(skips_, root, "root");
  if (n < 1) {
    throw std::invalid_argument("number of blocks n = " + std::to_string(n) + " must be >= 1");
  }
  n_ = n;
  rank_ = rank;
  root_ = root;
  const int q = skips_.q();
  virtual_rank_ = virtual_rank(rank, root, p());
  rounds_ = q == 0 ? 0 : n - 1 + q;
  x_ = q == 0 ? 0 : (q - (n - 1) % q) % q;
  // The root sends block k of each phase in round k; its receive schedule is never used.
  sched_.recv.q = sched_.send.q = q;
  for (int k = 0; k < q; ++k) sched_.send[k] = k;
}

std::optional<Transfer> BcastSchedule::transfer(std::int64_t peer_virtual, std::int32_t entry,
                                                std::int64_t phase) const {
  const std::int64_t block = entry + phase * skips_.q() - x_;
  if (block < 0) return std::nullopt;
  return Transfer{real_rank(peer_virtual, root_, p()), block < n_ ? block : n_ - 1};
}

BcastRound BcastSchedule::round(std::int64_t i) const {
  if (i < 0 || i >= rounds_) {
    throw std::out_of_range("round " + std::to_string(i) + " is outside [0, " +
                            std::to_string(rounds_) + ")");
  }
  const std::int64_t v = i + x_;
  // v < 2^32 for every n that fits in memory: 32-bit division is several times faster.
  const auto q = static_cast<std::uint32_t>(skips_.q());
  const std::int64_t phase =
      v < (std::int64_t{1} << 32) ? static_cast<std::uint32_t>(v) / q : v / static_cast<std::int64_t>(q);
  const int k = static_cast<int>(v - phase * q);
  BcastRound out;
  const std::int64_t to = skips_.to(virtual_rank_, k);
  if (to != 0) out.send = transfer(to, sched_.send[k], phase);
  if (virtual_rank_ != 0) out.recv = transfer(skips_.from(virtual_rank_, k), sched_.recv[k], phase);
  return out;
}

}  // namespace rosched
