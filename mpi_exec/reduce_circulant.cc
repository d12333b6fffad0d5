// The n-block reduction over the circulant graph: Träff 2022's Alg. 6 broadcast run backwards
// (sched/circulant/reduce_schedule.h; Träff 2024 runs broadcast schedules backwards for
// reductions), walked with the window of rounds in flight the tree reductions share
// (ReduceWindow, reduce_two_tree.cc). For commutative operations: the MPI entry points
// (argument checks, the choice of tree) are in reduce.cc.
#include "mpi_exec/reduce_trees.h"

#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/settings.h"
#include "sched/circulant/bcast_schedule.h"
#include "sched/circulant/reduce_schedule.h"

namespace rosched::mpi {

Pipeline circulant_reduce_pipeline(const CommInfo& comm, int count, const TypeInfo& type) {
  return pipeline_for(comm, settings().bcast_f, count, type,
                      extra_rounds<rosched::BcastSchedule>(comm.p), false);
}

double circulant_reduce_time(const CostModel& model, int p, double bytes, std::int64_t blocks) {
  return pipeline_time(model, bytes, extra_rounds<rosched::BcastSchedule>(p), blocks);
}

void circulant_reduce(const void* own, void* acc, int count, MPI_Datatype datatype,
                      const TypeInfo& type, MPI_Op op, int sink, const CommInfo& comm) {
  if (comm.p == 1 || count == 0) return;  // p = 1: tree_reduce copies own
  const Pipeline pipe = circulant_reduce_pipeline(comm, count, type);
  walk_reduce(rosched::ReduceSchedule(comm.p, pipe.n, comm.rank, sink),
              "circulant (the broadcast backwards), pipelined", pipe, own, acc, count, datatype,
              type, op, comm);
}

}  // namespace rosched::mpi
