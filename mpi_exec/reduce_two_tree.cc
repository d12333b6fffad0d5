// The pipelined reduction over the two trees (Sanders, Speck, Träff 2009, as presented in Träff's
// lecture notes, section "Two (pipelined) binary trees"), walking
// sched/two_tree/two_tree_schedule.h, the broadcast run backwards, with the window of rounds in
// flight (ReduceWindow, reduce_window.h) that the other tree reductions share. Order-preserving:
// subtrees are rank ranges combined in rank order, so no commutativity is assumed for the sinks 0
// and p - 1. The MPI entry points (argument checks, the sink for other roots) are in reduce.cc.
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/reduce_trees.h"
#include "mpi_exec/settings.h"
#include "sched/two_tree/two_tree_schedule.h"

namespace rosched::mpi {

// The rounds beyond n: the schedule's bound for one block, max_arrival_bound(p), also at p = 2,
// where the schedule itself takes n rounds (no tree below the relay) but the sink still combines
// the last block after the last round: there the extra round lets the pipeline overlap the
// combining of one block with the transfer of the next (bench --op reduce at p = 2, 16 MiB:
// 199-203 ms with 19 blocks, 202-367 ms with one).
Pipeline two_tree_pipeline(const CommInfo& comm, int count, const TypeInfo& type) {
  return pipeline_for(comm, settings().twotree_f, count, type, two_tree_reduce_extra(comm.p),
                      false);
}

std::int64_t two_tree_reduce_extra(int p) { return p == 1 ? 0 : rosched::max_arrival_bound(p); }

void two_tree_reduce(const void* own, void* acc, int count, MPI_Datatype datatype,
                     const TypeInfo& type, MPI_Op op, int sink, const CommInfo& comm) {
  if (comm.p == 1 || count == 0) return;  // p = 1: tree_reduce copies own
  const Pipeline pipe = two_tree_pipeline(comm, count, type);
  walk_reduce(rosched::TwoTreeReduceSchedule(comm.p, pipe.n, comm.rank, sink),
              "two trees, pipelined", pipe, own, acc, count, datatype, type, op, comm);
}

}  // namespace rosched::mpi
