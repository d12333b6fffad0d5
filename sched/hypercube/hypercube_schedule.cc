// Bin Jia's hypercube broadcast for any p as a schedule description: Träff's lecture notes, "The
// power of the hypercube: Optimal Broadcast" through the Main Theorem. See hypercube_schedule.h.
#include "sched/hypercube/hypercube_schedule.h"

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
  return HypercubeRank(p, virtual_rank(rank, root, p));
}

}  // namespace

HypercubeBcastSchedule::HypercubeBcastSchedule(std::int64_t p, std::int64_t n,
                                               std::int64_t rank, std::int64_t root)
    : me_(virtual_rank_of(p, rank, root)), n_(n), rank_(rank), root_(root) {
  check_n_and_count_rounds();
}

HypercubeBcastSchedule::HypercubeBcastSchedule(const HypercubeRank& virtual_rank,
                                               std::int64_t n, std::int64_t root)
    : me_(virtual_rank), n_(n), root_(root) {
  if (root < 0 || root >= me_.p()) {
    throw std::invalid_argument("hypercube schedule: root " + std::to_string(root) +
                                " is outside [0, " + std::to_string(me_.p()) + ")");
  }
  rank_ = real_rank(me_.x(), root, me_.p());
  check_n_and_count_rounds();
}

void HypercubeBcastSchedule::check_n_and_count_rounds() {
  if (n_ < 1) {
    throw std::invalid_argument("hypercube schedule: block count n = " + std::to_string(n_) +
                                " must be at least 1");
  }
  rounds_ = me_.p() == 1 ? 0 : n_ - 1 + ceil_log2(me_.p());
}


}  // namespace rosched
