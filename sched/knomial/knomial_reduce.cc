// The k-nomial tree reduction: Träff's lecture notes, "Binomial tree reduction" and "Final
// remark: binomial and k-nomial trees". See knomial_reduce.h.
#include "sched/knomial/knomial_reduce.h"

#include <stdexcept>
#include <string>

namespace rosched {

KnomialReduceSchedule::KnomialReduceSchedule(std::int64_t p, std::int64_t ports,
                                             std::int64_t rank, std::int64_t root)
    : p_(p), ports_(ports), rank_(rank), root_(root) {
  check_process_count(p, "k-nomial reduction: ");
  if (ports < 1 || ports > kMaxKnomialPorts) {
    throw std::invalid_argument("k-nomial reduction: ports = " + std::to_string(ports) +
                                " is outside [1, " + std::to_string(kMaxKnomialPorts) + "]");
  }
  if (rank < 0 || rank >= p || root < 0 || root >= p) {
    throw std::invalid_argument("k-nomial reduction: rank = " + std::to_string(rank) +
                                " and root = " + std::to_string(root) +
                                " must lie in [0, p) for p = " + std::to_string(p));
  }
  v_ = virtual_rank(rank, root, p);
  const std::int64_t radix = ports + 1;
  levels_ = 0;
  stride_[0] = 1;
  while (stride_[levels_] < p) {  // at most 31 levels: the radix is >= 2, p < 2^31
    stride_[levels_ + 1] = stride_[levels_] * radix;
    ++levels_;
  }
  send_level_ = levels_;
  if (v_ != 0) {
    send_level_ = 0;
    while ((v_ / stride_[send_level_]) % radix == 0) ++send_level_;
    const std::int64_t digit = (v_ / stride_[send_level_]) % radix;
    parent_ = real_rank(v_ - digit * stride_[send_level_], root, p);
    send_round_ = send_level_ * ports + digit - 1;
  }
}

ReduceRound KnomialReduceSchedule::round(std::int64_t t) const {
  check_round(t, rounds(), "k-nomial reduction");
  ReduceRound r;
  if (t == send_round_) {
    r.send = Transfer{parent_, 0};
    return r;
  }
  const std::int64_t level = t / ports_;
  if (level < send_level_) {  // digits 0..level of v are 0: v receives at this level
    const std::int64_t child = v_ + (t - level * ports_ + 1) * stride_[level];
    if (child < p_) r.recv = Transfer{real_rank(child, root_, p_), 0};
  }
  return r;
}

}  // namespace rosched
