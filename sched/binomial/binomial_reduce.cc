// The binomial-tree reduction: Träff's lecture notes, "Binomial tree reduction". See
// binomial_reduce.h.
#include "sched/binomial/binomial_reduce.h"

#include <stdexcept>
#include <string>

namespace rosched {

BinomialReduceSchedule::BinomialReduceSchedule(std::int64_t p, std::int64_t rank,
                                               std::int64_t root)
    : p_(p), rank_(rank), root_(root) {
  check_process_count(p, "binomial reduction: ");
  if (rank < 0 || rank >= p || root < 0 || root >= p) {
    throw std::invalid_argument("binomial reduction: rank = " + std::to_string(rank) +
                                " and root = " + std::to_string(root) +
                                " must lie in [0, p) for p = " + std::to_string(p));
  }
  v_ = virtual_rank(rank, root, p);
  rounds_ = ceil_log2(p);
}

std::int64_t BinomialReduceSchedule::send_round() const {
  if (v_ == 0) return -1;
  std::int64_t k = 0;
  while (((v_ >> k) & 1) == 0) ++k;
  return k;
}

std::int64_t BinomialReduceSchedule::parent() const {
  return v_ == 0 ? -1 : real_rank(v_ & (v_ - 1), root_, p_);
}

ReduceRound BinomialReduceSchedule::round(std::int64_t k) const {
  if (k < 0 || k >= rounds_) {
    throw std::out_of_range("binomial reduction round " + std::to_string(k) +
                            " is outside [0, " + std::to_string(rounds_) + ")");
  }
  ReduceRound r;
  const std::int64_t d = std::int64_t{1} << k;
  const std::int64_t low = v_ & (2 * d - 1);  // bits 0..k of v
  if (low == d) {
    r.send = Transfer{real_rank(v_ - d, root_, p_), 0};
  } else if (low == 0 && v_ + d < p_) {
    r.recv = Transfer{real_rank(v_ + d, root_, p_), 0};
  }
  return r;
}

}  // namespace rosched
