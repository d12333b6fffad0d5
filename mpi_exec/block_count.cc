#include "mpi_exec/block_count.h"

#include <algorithm>
#include <cmath>

#include "sched/round.h"

namespace rosched::mpi {

std::int64_t block_count(double bytes, std::int64_t p, double factor, std::int64_t max_blocks) {
  const double q = std::max(1, ceil_log2(p));
  const double block_bytes = std::max(1.0, factor * std::sqrt(bytes / q));
  const auto n = static_cast<std::int64_t>(std::ceil(bytes / block_bytes));
  return std::clamp<std::int64_t>(n, 1, std::max<std::int64_t>(max_blocks, 1));
}

}  // namespace rosched::mpi
