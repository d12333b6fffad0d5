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
//
// A phase whose message goes faster down a k-ary tree of one block (Träff's lecture notes,
// fixed-degree trees) than through the circulant pipeline, by that sub-communicator's cost
// model, takes the tree: where a rank's messages have paths of their own (SimGrid's loopback
// within a node) or cost little beside a latency (a few bytes between nodes), one level of up to
// 31 or 35 sends where the circulant broadcast takes ceil(log2 p) + n - 1 rounds (36 x 32
// simulated ranks: docs/sim/reductions_1152.md, "One lane for short and mid-sized all-reduces on
// multicore nodes").
//
// Rosched_Bcast's trial also runs the phase between the nodes as a scatter + all-gather
// (PhaseVariant, bcast_scatter_allgather.h): on 36 x 32 simulated ranks that broadcast took
// 0.61-0.92 of the time with the circulant pipeline between the nodes from 64 KiB to 4 MiB
// (docs/sim/reduce_scatter_gather.md, "Between the nodes of 36 x 32"), and up to 64 KiB as the
// k-nomial tree of one block (PhaseVariant::knomial, bcast_knomial.h), which reaches the nodes in
// ceil(log_{n+1} nodes) levels of n sends: on 36 x 32 simulated ranks at 16 KiB 26.8 us on 5
// ports, where Rosched_Bcast took 28.96 before (docs/sim/knomial_bcast.md, "Between the nodes
// of 36 x 32").
#include "mpi_exec/bcast_node_aware.h"

#include <string>

#include "mpi_exec/bcast_kary_tree.h"
#include "mpi_exec/bcast_knomial.h"
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/bcast_scatter_allgather.h"
#include "mpi_exec/node_layout.h"
#include "sched/circulant/bcast_schedule.h"

namespace rosched::mpi {
namespace {

// What phase_on runs on ci for count elements of type: phase_plan, or as `variant` says.
PhasePlan variant_plan(const CommInfo& ci, int count, const TypeInfo& type, PhaseVariant variant) {
  if (variant.scatter_allgather && ci.p > 1 && count >= ci.p && type.size > 0) {
    PhasePlan scatter;
    scatter.scatter_allgather = true;
    return scatter;
  }
  const double bytes = static_cast<double>(count) * type.size;
  if (variant.knomial && ci.p > 1 && bytes > 0 && bytes <= kKnomialMaxBytes) {
    PhasePlan tree;
    tree.knomial_ports = knomial_ports(settings().bcast_ports, cost_model(ci), ci.p, bytes);
    return tree;
  }
  PhasePlan phase = phase_plan(ci, count, type);
  if (variant.window > 0 && phase.pipe.n > 0 && phase.pipe.synchronous) {
    phase.degree = 0;
    phase.pipe.window = variant.window;
  }
  return phase;
}

void run_phase(const CommInfo& ci, const PhasePlan& phase, void* buffer, int count,
               MPI_Datatype datatype, const TypeInfo& type, int root) {
  if (phase.scatter_allgather) {
    scatter_allgather_bcast_on(ci, buffer, count, datatype, type, root);
  } else if (phase.knomial_ports > 0) {
    knomial_tree_bcast(ci, phase.knomial_ports, buffer, count, datatype, type, root);
  } else if (phase.degree >= 2) {
    one_block_tree_bcast_on(ci, buffer, count, datatype, type, root, phase.degree);
  } else if (phase.pipe.n > 0) {
    walk_bcast(BcastSchedule(ci.p, phase.pipe.n, ci.rank, root), buffer, count, datatype, type,
               ci.rank == root, phase.pipe, ci.c);
  }
}

// sub_bcast_on on ci as `variant` says (node_aware_bcast_on), returning what it ran.
PhasePlan phase_on(const CommInfo& ci, void* buffer, int count, MPI_Datatype datatype,
                   const TypeInfo& type, int root, PhaseVariant variant = {}) {
  const PhasePlan phase = variant_plan(ci, count, type, variant);
  run_phase(ci, phase, buffer, count, datatype, type, root);
  return phase;
}

std::string phase_name(const PhasePlan& phase) {
  if (phase.scatter_allgather) return "scatter + all-gather";
  if (phase.knomial_ports > 0) {
    return "a " + std::to_string(phase.knomial_ports + 1) + "-nomial tree (" +
           std::to_string(phase.knomial_ports) + " ports)";
  }
  return phase.pipelined() ? "circulant"
                           : "a " + std::to_string(phase.degree) + "-ary tree of one block";
}

// node_aware_bcast_on where the layout is hierarchical: between the nodes, then within each.
void two_phase_bcast(const NodeLayout& layout, const char* name, void* buffer, int count,
                     MPI_Datatype datatype, const TypeInfo& type, int root, PhaseVariant variant) {
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
    const PhasePlan between =
        phase_on(comm_info(layout.lane), buffer, count, datatype, type, home, variant);
    if (settings().verbose) {
      // The phase within this rank's node, as phase_on below plans it (its model is made).
      const PhasePlan within = phase_plan(comm_info(layout.node), count, type);
      const std::string what =
          "node-aware: " + phase_name(between) + " between " + std::to_string(layout.nodes) +
          " nodes (lane " + std::to_string(lane) + ")" +
          (between.pipelined() && between.pipe.synchronous ? ", synchronous sends" : "") +
          ", then within each node of " + std::to_string(layout.min_node_size) + ".." +
          std::to_string(layout.max_node_size) + " ranks (here " + phase_name(within) +
          (within.one_block() ? "" : ", " + std::to_string(within.pipe.n) + " blocks") + ")";
      tell_choice(comm_info(layout.lane), name, what.c_str(), between.pipe.n, between.pipe.window,
                  static_cast<double>(count) * type.size);
    }
  }
  phase_on(comm_info(layout.node), buffer, count, datatype, type, at_home ? k : lane);
}

}  // namespace

PhasePlan phase_plan(const CommInfo& ci, int count, const TypeInfo& type) {
  PhasePlan plan;
  if (ci.p == 1 || count == 0 || type.size == 0) return plan;
  const std::int64_t extra = extra_rounds<BcastSchedule>(ci.p);
  plan.pipe = pipeline_for(ci, settings().bcast_f, count, type, extra, true);
  const double bytes = static_cast<double>(count) * type.size;
  const CostModel& model = cost_model(ci);
  const OneBlockTree tree =
      one_block_tree_for(model, ci.p, bytes, pipeline_time(model, bytes, extra, plan.pipe.n));
  plan.seconds = tree.seconds;
  if (tree.degree >= 2) plan.degree = tree.degree;
  return plan;
}

void sub_bcast_on(MPI_Comm sub, void* buffer, int count, MPI_Datatype datatype,
                  const TypeInfo& type, int root) {
  phase_on(comm_info(sub), buffer, count, datatype, type, root);
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
                         MPI_Datatype datatype, const TypeInfo& type, int root,
                         PhaseVariant variant) {
  if (ci.p == 1 || count == 0 || type.size == 0) return;
  const NodeLayout& layout = node_layout(ci);
  if (layout.hierarchical()) {  // the phases' plans differ between ranks: always on the bytes
    run_on_bytes(ci, buffer, count, datatype, type, root, message_units(count, type),
                 [&](void* data, int n, MPI_Datatype unit, const TypeInfo& info) {
                   two_phase_bcast(layout, name, data, n, unit, info, root, variant);
                 });
    return;
  }
  bcast_planned(  // one phase over all ranks
      ci, buffer, count, datatype, type, root,
      [&](int units, const TypeInfo& info) { return variant_plan(ci, units, info, variant); },
      [&](const PhasePlan& all, void* data, int n, MPI_Datatype unit, const TypeInfo& info) {
        run_phase(ci, all, data, n, unit, info, root);
        if (settings().verbose) {
          tell_choice(ci, name,
                      (!all.pipelined()       ? phase_name(all)
                       : all.pipe.synchronous ? "pipelined, synchronous sends"
                                              : "pipelined")
                          .c_str(),
                      all.pipe.n, all.pipe.window, n * static_cast<double>(info.size));
        }
      });
}

}  // namespace rosched::mpi
