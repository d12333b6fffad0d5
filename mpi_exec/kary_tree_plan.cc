#include "mpi_exec/kary_tree_plan.h"

#include <algorithm>
#include <cmath>

#include "mpi_exec/block_count.h"
#include "mpi_exec/settings.h"
#include "sched/kary/kary_tree_schedule.h"

namespace rosched::mpi {
namespace {

constexpr int kMaxDegree = 64;

}  // namespace

KaryTreePlan kary_tree_plan(const CostModel& model, std::int64_t p, double bytes,
                            std::int64_t max_blocks) {
  const Settings& s = settings();
  KaryTreePlan plan{2, 1, 1};
  plan.degree = s.kary_degree > 0 ? s.kary_degree
                                  : static_cast<int>(std::clamp(std::floor(model.crowding), 2.0,
                                                                static_cast<double>(kMaxDegree)));
  const std::int64_t cap = std::clamp<std::int64_t>(max_blocks, 1, kMaxPipelineBlocks);
  if (s.kary_f > 0) {
    plan.n = block_count(bytes, p, s.kary_f, cap);
  } else if (bytes > 0 && p > 1) {
    const double depth = kary_depth(p, plan.degree);
    const double shared = std::max(1.0, plan.degree / model.crowding);
    double best = depth * model.time(bytes);  // one block
    for (int i = 0; i < CostModel::kStreamPoints; ++i) {
      const double size = kStreamSizes[i];
      if (size >= bytes) break;
      const std::int64_t n =
          std::min<std::int64_t>(cap, static_cast<std::int64_t>(std::ceil(bytes / size)));
      const double block = bytes / static_cast<double>(n);
      const double t =
          depth * model.time(block) + static_cast<double>(n - 1) * model.stream[i] * shared;
      if (t < best) {
        best = t;
        plan.n = n;
      }
    }
  }
  plan.window = s.window > 0 ? s.window : plan.degree * kTreeBlocksInFlight;
  return plan;
}

}  // namespace rosched::mpi
