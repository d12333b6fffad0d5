#include "sched/kary/kary_tree_schedule.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace rosched {
namespace {

void check_degree(std::int64_t k) {
  if (k < 2 || k > kMaxTreeDegree) {
    throw std::invalid_argument("k-ary tree: degree k = " + std::to_string(k) + " is outside [2, " +
                                std::to_string(kMaxTreeDegree) + "]");
  }
}

// The first virtual rank of level d: (k^d - 1) / (k - 1), and the size of level d, k^d, while
// the level starts below p (levels are walked from 0 up; sizes stay below 2^31 k).
struct Level {
  std::int64_t depth = 0, first = 0, size = 1;
};

// The deepest level, the one holding virtual rank p - 1.
Level last_level(std::int64_t p, std::int64_t k) {
  Level l;
  while (l.first + l.size < p) {
    l.first += l.size;
    l.size *= k;
    ++l.depth;
  }
  return l;
}

}  // namespace

int kary_depth(std::int64_t p, std::int64_t k) {
  check_process_count(p, "k-ary tree: ");
  check_degree(k);
  return static_cast<int>(last_level(p, k).depth);
}

// A rank at level d whose path from the root takes children c_1 .. c_d has start
// d + c_1 + ... + c_d, and the ranks of level d, in order, have the paths of 0 .. k^d - 1
// written with d base-k digits. A full level d - 1 reaches (d - 1) k (every digit k - 1); the
// last level, ranks 0 .. L - 1 of it, reaches d + the largest digit sum of a number below L:
// that of L - 1 itself, or of L - 1 with one nonzero digit lowered and every digit after it
// k - 1.
std::int64_t kary_max_start(std::int64_t p, std::int64_t k) {
  check_process_count(p, "k-ary tree: ");
  check_degree(k);
  const Level l = last_level(p, k);
  if (l.depth == 0) return 0;
  std::vector<std::int64_t> digits(static_cast<std::size_t>(l.depth));  // most significant first
  std::int64_t x = p - 1 - l.first;
  for (std::int64_t i = l.depth - 1; i >= 0; --i, x /= k) digits[i] = x % k;
  std::int64_t best = 0, prefix = 0;
  for (std::int64_t i = 0; i < l.depth; ++i) {
    if (digits[i] > 0) best = std::max(best, prefix + digits[i] - 1 + (l.depth - 1 - i) * (k - 1));
    prefix += digits[i];
  }
  best = std::max(best, prefix);
  return std::max((l.depth - 1) * k, l.depth + best);
}

KaryTreeBcastSchedule::KaryTreeBcastSchedule(std::int64_t p, std::int64_t n, std::int64_t rank,
                                             std::int64_t root, std::int64_t k)
    : p_(p), n_(n), k_(k), rank_(rank), root_(root), v_(0) {
  check_process_count(p, "k-ary tree broadcast: ");
  check_degree(k);
  if (rank < 0 || rank >= p || root < 0 || root >= p) {
    throw std::invalid_argument("k-ary tree broadcast: rank " + std::to_string(rank) +
                                " and root " + std::to_string(root) + " must be in [0, " +
                                std::to_string(p) + ")");
  }
  if (n < 1) {
    throw std::invalid_argument("k-ary tree broadcast: n = " + std::to_string(n) +
                                " blocks, must be >= 1");
  }
  v_ = rosched::virtual_rank(rank, root, p);
  if (v_ > 0) parent_ = (v_ - 1) / k;
  for (std::int64_t u = v_; u > 0; u = (u - 1) / k) start_ += (u - 1) % k + 1;
  if (v_ <= (p - 2) / k) {  // k v + 1 <= p - 1
    first_child_ = k * v_ + 1;
    children_ = std::min(k, p - first_child_);
  }
  rounds_ = p == 1 ? 0 : (n - 1) * k + kary_max_start(p, k);
}

void KaryTreeBcastSchedule::throw_bad_round(std::int64_t i) const {
  throw std::out_of_range("k-ary tree broadcast: round " + std::to_string(i) + " outside [0, " +
                          std::to_string(rounds_) + ")");
}

}  // namespace rosched
