// The pipelined reduction over a complete k-ary tree: the k-ary tree broadcast of
// bcast_kary_tree.cc run backwards (sched/kary/kary_tree_reduce.h; Träff's lecture notes,
// fixed-degree trees), walked with the window of rounds in flight the other reductions share
// (ReduceWindow, reduce_trees.h). Its plan is the broadcast's (kary_tree_plan.h): degree, blocks
// and window from the cost model, so that on a network whose shared part gives each flow less
// than a rank's link, a rank's k children's partial results arrive at once and every edge keeps
// several blocks on their way. It receives ahead, as the broadcast does (walk_reduce): a rank
// waiting for its children's partial results of one block has the receives of the blocks after
// it posted, so that they travel meanwhile. For commutative operations: the MPI entry points
// (argument checks, the trial) are in reduce.cc.
#include <cstdio>

#include "mpi_exec/kary_tree_plan.h"
#include "mpi_exec/reduce_trees.h"
#include "sched/kary/kary_tree_reduce.h"

namespace rosched::mpi {

void kary_tree_reduce(const void* own, void* acc, int count, MPI_Datatype datatype,
                      const TypeInfo& type, MPI_Op op, int sink, const CommInfo& comm) {
  if (comm.p == 1 || count == 0) return;  // p = 1: tree_reduce copies own
  const KaryTreePlan plan =
      kary_tree_plan(cost_model(comm), comm.p, static_cast<double>(count) * type.size, count);
  char what[64];
  std::snprintf(what, sizeof what, "pipelined %d-ary tree (the broadcast backwards)", plan.degree);
  walk_reduce(rosched::KaryTreeReduceSchedule(comm.p, plan.n, comm.rank, sink, plan.degree), what,
              Pipeline{plan.n, plan.window, false, true}, own, acc, count, datatype, type, op,
              comm);
}

}  // namespace rosched::mpi
