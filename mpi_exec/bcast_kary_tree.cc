// Rosched_Bcast_kary_tree: the pipelined broadcast over a complete k-ary tree (Träff's lecture
// notes, "The power of fixed-degree trees" and "Pipelined binary tree", for any degree k),
// walking sched/kary/kary_tree_schedule.h with receives posted ahead (BcastWindow), k times
// kStreamInFlight rounds in flight, so that an interior rank's k sends of a block move at
// once and every edge keeps several blocks on their way. Degree, blocks and window from the cost
// model (kary_tree_plan.h). Eager sends: the tree pays where a shared network limits, and there
// eager sends keep it busy (cost_model.h, synchronous_sends).
#include "mpi_exec/bcast_kary_tree.h"

#include <algorithm>
#include <cstdio>

#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/kary_tree_plan.h"
#include "mpi_exec/nway_allreduce.h"
#include "mpi_exec/rosched_mpi.h"
#include "sched/kary/kary_tree_schedule.h"

namespace rosched::mpi {

void kary_tree_bcast_on(const CommInfo& ci, const char* name, void* buffer, int count,
                        MPI_Datatype datatype, const TypeInfo& type, int root) {
  if (ci.p == 1 || count == 0 || type.size == 0) return;
  bcast_planned(
      ci, buffer, count, datatype, type, root,
      [&](int units, const TypeInfo& info) {
        return kary_tree_plan(cost_model(ci), ci.p, static_cast<double>(units) * info.size, units);
      },
      [&](const KaryTreePlan& plan, void* data, int n, MPI_Datatype unit, const TypeInfo& info) {
        char algorithm[64];
        std::snprintf(algorithm, sizeof algorithm, "pipelined %d-ary tree", plan.degree);
        tell_choice(ci, name, algorithm, plan.n, plan.window, n * static_cast<double>(info.size));
        const Pipeline pipe{plan.n, plan.window, false, true};
        walk_bcast(KaryTreeBcastSchedule(ci.p, plan.n, ci.rank, root, plan.degree), data, n, unit,
                   info, ci.rank == root, pipe, ci.c);
      });
}

void one_block_tree_bcast_on(const CommInfo& ci, void* buffer, int count, MPI_Datatype datatype,
                             const TypeInfo& type, int root, int degree) {
  if (ci.p == 1 || count == 0 || type.size == 0) return;
  const KaryTreeBcastSchedule tree(ci.p, 1, ci.rank, root, degree);
  const int window = static_cast<int>(std::max<std::int64_t>(tree.rounds(), 1));
  walk_bcast(tree, buffer, count, datatype, type, ci.rank == root, Pipeline{1, window, false, true},
             ci.c);
}

OneBlockTree one_block_tree_for(const CostModel& model, int p, double bytes, double against) {
  OneBlockTree best{1, against};
  if (p <= 2 || bytes > model.bytes.back()) return best;
  const int most = static_cast<int>(std::min<std::int64_t>(p - 1, kNwayMaxPorts));
  for (int d = 2; d <= most; ++d) {
    const double t = rosched::kary_depth(p, d) * fan_time(model, d, bytes);
    if (t < best.seconds) best = {d, t};
  }
  return best;
}

}  // namespace rosched::mpi

extern "C" int Rosched_Bcast_kary_tree(void* buffer, int count, MPI_Datatype datatype, int root,
                                       MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective("Rosched_Bcast_kary_tree", comm, [&](const CommInfo& ci) {
    const TypeInfo type = check_bcast_args(ci, count, datatype, root);
    kary_tree_bcast_on(ci, "Rosched_Bcast_kary_tree", buffer, count, datatype, type, root);
  });
}
