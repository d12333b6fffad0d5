// Bin Jia's hypercube broadcast for any p as a schedule description: seeds/004, "The power of the
// hypercube: Optimal Broadcast" through the Main Theorem. See hypercube_schedule.h.
#include "sched/hypercube_schedule.h"

#include <stdexcept>
#include <string>

namespace rosched {
namespace {

HypercubeRank virtual_rank_of(std::int64_t p, std::int64_t rank, std::int64_t root) {
  hypercube_dim(p);  // checks p
  if (rank < 0 || rank >= p || root < 0 || root >= p) {
    throw std::invalid_argument("hypercube schedule: rank " + std::to_string(rank) +
                                " or root " + std::to_string(root) + " is outside [0, " +
                                std::to_string(p) + ")");
  }
  return HypercubeRank(p, rank >= root ? rank - root : rank - root + p);
}

}  // namespace

HypercubeBcastSchedule::HypercubeBcastSchedule(std::int64_t p, std::int64_t n,
                                               std::int64_t rank, std::int64_t root)
    : me_(virtual_rank_of(p, rank, root)), n_(n), rank_(rank), root_(root) {
  if (n < 1) {
    throw std::invalid_argument("hypercube schedule: block count n = " + std::to_string(n) +
                                " must be at least 1");
  }
  rounds_ = p == 1 ? 0 : n - 1 + ceil_log2(p);
}

std::optional<Transfer> HypercubeBcastSchedule::transfer(std::int64_t v, std::int64_t b) const {
  if (b < 0) return std::nullopt;
  const std::int64_t real = v + root_;
  return Transfer{real >= p() ? real - p() : real, b < n_ ? b : n_ - 1};
}

BcastRound HypercubeBcastSchedule::round(std::int64_t j) const {
  if (j < 0 || j >= rounds_) {
    throw std::out_of_range("hypercube round " + std::to_string(j) + " is outside [0, " +
                            std::to_string(rounds_) + ")");
  }
  BcastRound r;
  const std::int64_t x = me_.x();
  const int q = me_.q();
  const CubeRound cr = me_.round(j);
  if (j >= n_ - 1 + q) {  // the extra round: pairs swap blocks n - 1 (out has it) and n - 2
    if (me_.single()) return r;
    const bool out = x == me_.out(cr);
    r.send = transfer(me_.co(), out ? n_ - 1 : n_ - 2);
    r.recv = transfer(me_.co(), out ? n_ - 2 : n_ - 1);
    return r;
  }
  const bool out = me_.single() || x == me_.out(cr), in = me_.single() || !out;
  if (out) {
    if (me_.partner(cr) != 0) r.send = transfer(me_.partner_in(cr), me_.send_block(cr));
    if (!me_.single()) r.recv = transfer(me_.co(), j - q - 1);
  }
  if (in) {
    if (x != 0) r.recv = transfer(me_.partner_out(cr), me_.recv_block(cr));
    if (!me_.single()) r.send = transfer(me_.co(), j - q - 1);
  }
  return r;
}

}  // namespace rosched
