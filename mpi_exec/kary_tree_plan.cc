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
  } else if (p > 1) {
    const double shared = std::max(1.0, plan.degree / model.crowding);
    plan.n = stream_parts(model, bytes, kary_depth(p, plan.degree), shared, cap);
  }
  plan.window = s.window > 0 ? s.window : plan.degree * kStreamInFlight;
  return plan;
}

}  // namespace rosched::mpi
