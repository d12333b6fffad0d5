// The node-aware reduction: a tree reduction (the k-nomial tree or the pipelined circulant
// reduction, by the cost model of each communicator: reduce_trees.h) within every node, into the
// rank of the root's lane (node_layout.h), then among the lane's ranks into the root's node,
// there by the reduce-scatter on n ports followed by the gather to the home node's rank
// (reduce_scatter_gather.cc; Träff 2022's Alg. 7 on the skips of n ports run backwards) where
// the cost model finds it faster than the lane's tree (lane_reduce_tree); each vector crosses
// each node's network link once instead of once per rank in the trees' pipelined rounds.
// Commutative operations only (the two phases combine the contributions in node order, not rank
// order); elsewhere Rosched_Reduce_node_aware runs the flat reduction of Rosched_Reduce. Where
// some node lacks the root's node rank, lane 0 carries the partial results and the home node's
// rank 0 sends the result to the root. On nodes of equal size, from 24 KiB and one element per
// rank, Rabenseifner's reduce-scatter + gather instead (node_scatter_gather_reduce below), and
// from 512 KiB below 4 MiB the multi-lane reduction (reduce_lanes.h: every lane reduces its
// part).
#include "mpi_exec/reduce_node_aware.h"

#include <cstdint>
#include <optional>
#include <vector>

#include "mpi_exec/allreduce_lanes.h"
#include "mpi_exec/allreduce_scatter_gather.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/node_layout.h"
#include "mpi_exec/nway_allreduce.h"
#include "mpi_exec/reduce_lanes.h"
#include "mpi_exec/reduce_scatter_node_aware.h"
#include "mpi_exec/reduce_trees.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"

namespace rosched::mpi {

namespace {

// From this many bytes (and one element per rank) the reduction on equal nodes is the
// reduce-scatter + gather; below, the trees within the nodes and the carrier lane's reduction
// (lane_reduce_tree: on n ports from 4 KiB). Measured on the paper's 36 x 32 simulated ranks
// (docs/sim/reductions_1152.md, "The carrier lane on n ports"): the trees with the lane on n
// ports took 15.3 / 21.4 / 27.8 / 60.5 us at 16 / 32 / 64 / 256 KiB, the reduce-scatter + gather
// (its lanes on n ports) 19.2 / 22.6 / 55.8 at 32 / 64 / 256 KiB; between 16 and 32 KiB, at the
// multi-lane all-reduce's bound (kLaneOneChunkFrom, allreduce_lanes.h). With the lane's trees
// the trees had lost from 12 KiB.
constexpr double kScatterGatherFrom = 24 * 1024;

// Rabenseifner's reduction (2004: a reduce-scatter, then a gather of the blocks to the root) on
// nodes of equal size: the node-aware reduce-scatter (reduce_scatter_node_aware.h, in chunks),
// then every lane gathers its ranks' blocks at its rank on the root's node and that node gathers
// them at the root (MPI_Gatherv of the library, on communicators of N and c ranks). The root's
// node link receives the vector once, and no rank combines more than its share.
void node_scatter_gather_reduce(const CommInfo& ci, const void* own, void* recvbuf, int count,
                                MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int root) {
  const NodeLayout& layout = node_layout(ci);
  const int p = ci.p, nodes = layout.nodes, c = layout.min_node_size;
  const BlockCut cut{count, p};
  std::vector<int> rank_at(p);  // lane position k * nodes + n: the rank of node n's node rank k
  for (int r = 0; r < p; ++r) rank_at[layout.lane_position(r)] = r;
  const int k = layout.node_rank, home = layout.number_of[root], top = layout.node_rank_of[root];
  ScratchBuffer mine(type, static_cast<int>(cut.elements(ci.rank, 1)));
  node_aware_reduce_scatter_on(ci, "Rosched_Reduce_node_aware", own ? own : recvbuf, mine.data(),
                               cut, datatype, type, op);
  std::vector<int> counts(p), displs(p + 1, 0);  // per position; displs: prefix sums
  for (int i = 0; i < p; ++i) {
    counts[i] = static_cast<int>(cut.elements(rank_at[i], 1));
    displs[i + 1] = displs[i] + counts[i];
  }
  // Lane k to node `home`: blocks k * nodes .. (k + 1) * nodes - 1, in position order.
  const bool gathers = layout.node_number == home;
  std::optional<ScratchBuffer> part;
  const int part_first = displs[k * nodes];
  const int part_count = displs[(k + 1) * nodes] - part_first;
  if (gathers) part.emplace(type, part_count);
  std::vector<int> lane_displs(nodes);
  for (int n = 0; n < nodes; ++n) lane_displs[n] = displs[k * nodes + n] - part_first;
  const CommInfo lane = comm_info(layout.lane), node = comm_info(layout.node);
  check(PMPI_Gatherv(mine.data(), counts[k * nodes + layout.node_number], datatype,
                     gathers ? part->data() : nullptr, counts.data() + k * nodes,
                     lane_displs.data(), datatype, home, lane.c),
        "MPI_Gatherv");
  if (!gathers) return;
  // Within node `home`: the parts to the root, in position order, then into rank order.
  std::optional<ScratchBuffer> all;
  std::vector<int> part_counts(c), part_displs(c);
  for (int q = 0; q < c; ++q) {
    part_displs[q] = displs[q * nodes];
    part_counts[q] = displs[(q + 1) * nodes] - part_displs[q];
  }
  if (ci.rank == root) all.emplace(type, count);
  check(PMPI_Gatherv(part->data(), part_count, datatype, all ? all->data() : nullptr,
                     part_counts.data(), part_displs.data(), datatype, top, node.c),
        "MPI_Gatherv");
  if (ci.rank != root) return;
  const char* at = static_cast<const char*>(all->data());
  for (int i = 0; i < p; ++i) {
    local_copy(at + static_cast<std::int64_t>(displs[i]) * type.extent,
               static_cast<char*>(recvbuf) + cut.first(rank_at[i]) * type.extent, counts[i],
               datatype, type);
  }
}

// From kLanesFrom and below kLanesBelow bytes the reduction on equal nodes is the multi-lane
// reduction (reduce_lanes.h) rather than the reduce-scatter + gather. Measured on the paper's
// 36 x 32 simulated ranks (docs/sim/reductions_1152.md, "The multi-lane reduction"): the
// multi-lane reduction took 72.21 / 112.85 / 141.55 us at 256 / 512 KiB / 1 MiB, the
// reduce-scatter + gather 55.96 / 123.03 / 198.58 and 413.16 at 4 MiB (its reduce-scatter in one
// chunk on n ports), where the multi-lane reduction's run had not ended: the sizes where it won,
// up to the one it was not measured at.
constexpr double kLanesFrom = 512 * 1024;
constexpr double kLanesBelow = 4 * 1024 * 1024;

// Whether a reduction of `bytes` on equal nodes (from kScatterGatherFrom) takes the multi-lane
// reduction: as ROSCHED_NODE_REDUCE says, else from kLanesFrom and below kLanesBelow. The same
// on every rank.
bool takes_lanes(double bytes) {
  const Settings::NodeReduce form = settings().node_reduce;
  if (form != Settings::NodeReduce::kBySize) return form == Settings::NodeReduce::kLanes;
  return bytes >= kLanesFrom && bytes < kLanesBelow;
}

// The reduction of the carrier lane into the root's node: the n-port reduce-scatter + gather
// (nport_scatter_gather_reduce) where every block holds an element, the n-port rule finds ports
// worth it for the lane's blocks and lane_reduce_takes_nport prefers it to the tree of
// reduce_tree_for; else that tree (always with ROSCHED_REDUCE_PORTS, which sets the tree). The
// same on every rank of the lane.
ReduceTree lane_reduce_tree(const CommInfo& lanes, int count, const TypeInfo& type) {
  const ReduceTree tree = reduce_tree_for(lanes, count, type, true);
  if (lanes.p <= 2 || count < lanes.p || settings().reduce_ports > 0) return tree;
  const double bytes = static_cast<double>(count) * type.size;
  const int n = nport_reduce_scatter_ports(lanes, bytes);
  if (n == 0) return tree;
  const std::int64_t blocks =
      tree.kind == ReduceTree::kCirculant ? circulant_reduce_pipeline(lanes, count, type).n : 0;
  return lane_reduce_takes_nport(cost_model(lanes), lanes.p, bytes, n, tree, blocks)
             ? ReduceTree{ReduceTree::kNportScatterGather, 0}
             : tree;
}

}  // namespace

bool lane_reduce_takes_nport(const CostModel& model, int lanes, double bytes, int n_port,
                             const ReduceTree& tree, std::int64_t blocks) {
  double tree_time = 0;
  if (tree.kind == ReduceTree::kKnomial) {
    tree_time = knomial_time(model, lanes, tree.ports, bytes);
  } else if (tree.kind == ReduceTree::kCirculant) {
    tree_time = circulant_reduce_time(model, lanes, bytes, blocks);
  } else {
    return false;
  }
  return nport_reduce_time(model, lanes, n_port, bytes) <= kLaneNportMargin * tree_time;
}

bool node_aware_reduce_applies(const CommInfo& ci, MPI_Op op) {
  return is_commutative(op) && ci.p > 1 && node_layout(ci).hierarchical();
}

bool node_aware_reduce_on(const CommInfo& ci, const void* own, void* recvbuf, int count,
                          MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int root) {
  if (!node_aware_reduce_applies(ci, op)) return false;
  if (count == 0) return true;
  const NodeLayout& layout = node_layout(ci);
  const double bytes = static_cast<double>(count) * type.size;
  if (layout.equal_nodes() && count >= ci.p && bytes >= kScatterGatherFrom) {
    if (takes_lanes(bytes)) {
      lanes_reduce(ci, own, recvbuf, count, datatype, type, op, root);
    } else {
      node_scatter_gather_reduce(ci, own, recvbuf, count, datatype, type, op, root);
    }
    return true;
  }
  std::optional<ScratchBuffer> scratch;
  void* acc = accumulator(ci, root, recvbuf, count, type, scratch);
  const int k = layout.node_rank_of[root], home = layout.number_of[root];
  const int lane = layout.carrier_lane(root);
  const CommInfo node = comm_info(layout.node);
  tree_reduce(reduce_tree_for(node, count, type, true), own, acc, count, datatype, type, op,
              lane, node);
  if (layout.node_rank == lane) {
    const CommInfo lanes = comm_info(layout.lane);
    tree_reduce(lane_reduce_tree(lanes, count, type), nullptr, acc, count, datatype, type, op, home,
                lanes);
  }
  if (lane != k && layout.node_number == home) {
    if (layout.node_rank == lane) {
      check(PMPI_Send(acc, count, datatype, k, tag::kReduceToRoot, node.c), "MPI_Send");
    } else if (layout.node_rank == k) {
      check(PMPI_Recv(recvbuf, count, datatype, lane, tag::kReduceToRoot, node.c,
                      MPI_STATUS_IGNORE),
            "MPI_Recv");
    }
  }
  return true;
}

}  // namespace rosched::mpi
