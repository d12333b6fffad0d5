// The node-aware broadcast: Träff 2022's n-block circulant broadcast (Alg. 6, Sec. 2.2), run
// twice on a cluster of multicore nodes. First among one rank per node: the ranks of the root's
// lane (its node rank on every node, node_layout.h), rooted at the root, so the message crosses
// each node's network link once; then inside every node, rooted at the rank that has it. A flat
// broadcast over all ranks sends about (ranks per node) copies of the message through each
// node's link in the pipelined phase, where all ranks send in every round (on 36 nodes x 32
// ranks in SimGrid SMPI, the flat circulant broadcast of 64 KiB took 145 us, link-bound,
// against 98 us for MVAPICH2's choice).
//
// Each phase is the verified circulant schedule on its sub-communicator, with its own block
// count and window from that sub-communicator's cost model (the links between nodes and the
// links inside a node differ). Where the root's node rank k is missing on some node (nodes of
// unequal sizes), the root first hands the message to its node's rank 0 and lane 0 carries it.
// The two phases run one after the other: the second starts when its root has every block.
#include "mpi_exec/bcast_node_aware.h"

#include <string>

#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/node_layout.h"
#include "sched/circulant/bcast_schedule.h"

namespace rosched::mpi {
namespace {

// circulant_bcast_on, returning its pipeline.
Pipeline circulant_on(MPI_Comm sub, void* buffer, int count, MPI_Datatype datatype,
                      const TypeInfo& type, int root) {
  const CommInfo ci = comm_info(sub);
  if (ci.p == 1) return {0, 0, false};
  const Pipeline pipe = pipeline_for(ci, settings().bcast_f, count, type,
                                     extra_rounds<BcastSchedule>(ci.p), true);
  walk_bcast(BcastSchedule(ci.p, pipe.n, ci.rank, root), buffer, count, datatype, type,
             ci.rank == root, pipe, ci.c);
  return pipe;
}

}  // namespace

void circulant_bcast_on(MPI_Comm sub, void* buffer, int count, MPI_Datatype datatype,
                        const TypeInfo& type, int root) {
  circulant_on(sub, buffer, count, datatype, type, root);
}

void node_aware_bcast_prepare(const CommInfo& ci, int root) {
  const NodeLayout& layout = node_layout(ci);
  if (!layout.hierarchical()) {
    cost_model(ci);
    return;
  }
  if (layout.node_rank == layout.carrier_lane(root)) cost_model(comm_info(layout.lane));
  cost_model(comm_info(layout.node));
}

void node_aware_bcast_on(const CommInfo& ci, const char* name, void* buffer, int count,
                         MPI_Datatype datatype, const TypeInfo& type, int root) {
  const NodeLayout& layout = node_layout(ci);
  if (!layout.hierarchical()) {
    pipelined_bcast_on<BcastSchedule>(ci, name, settings().bcast_f, true, buffer, count,
                                      datatype, type, root);
    return;
  }
  if (count == 0 || type.size == 0) return;
  const int k = layout.node_rank_of[root], home = layout.number_of[root];
  const int lane = layout.carrier_lane(root);
  const bool at_home = layout.node_number == home;
  if (lane != k && at_home && (layout.node_rank == k || layout.node_rank == 0)) {
    const CommInfo node = comm_info(layout.node);
    if (layout.node_rank == k) {
      check(PMPI_Send(buffer, count, datatype, 0, tag::kBcastNodeHop, node.c), "MPI_Send");
    } else {
      check(PMPI_Recv(buffer, count, datatype, k, tag::kBcastNodeHop, node.c, MPI_STATUS_IGNORE),
            "MPI_Recv");
    }
  }
  if (layout.node_rank == lane) {
    // In a lane every node has a member, so the root's node number is its rank there.
    const Pipeline between = circulant_on(layout.lane, buffer, count, datatype, type, home);
    if (settings().verbose) {
      const std::string what = "node-aware: circulant between " + std::to_string(layout.nodes) +
                               " nodes (lane " + std::to_string(lane) +
                               "), then circulant within each node of " +
                               std::to_string(layout.min_node_size) + ".." +
                               std::to_string(layout.max_node_size) + " ranks" +
                               (between.synchronous ? ", synchronous sends" : "");
      tell_choice(comm_info(layout.lane), name, what.c_str(), between.n, between.window,
                  static_cast<double>(count) * type.size);
    }
  }
  circulant_on(layout.node, buffer, count, datatype, type, at_home ? k : lane);
}

}  // namespace rosched::mpi
