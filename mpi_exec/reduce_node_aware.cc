// The node-aware reduction: a tree reduction (the k-nomial tree or the pipelined two trees of
// Sanders, Speck, Träff 2009, by the cost model of each communicator: reduce_trees.h) within
// every node, into the rank of the root's lane (node_layout.h), then among the lane's ranks into
// the root's node; each vector crosses each node's network link once instead of once per rank in
// the trees' pipelined rounds. Commutative operations only (the two phases combine the
// contributions in node order, not rank order); elsewhere Rosched_Reduce_node_aware runs the
// flat reduction of Rosched_Reduce. Where some node lacks the root's node rank, lane 0 carries the
// partial results and the home node's rank 0 sends the result to the root. On nodes of equal
// size, from 12 KiB and one element per rank, Rabenseifner's reduce-scatter + gather instead
// (node_scatter_gather_reduce below).
#include "mpi_exec/reduce_node_aware.h"

#include <optional>
#include <vector>

#include "mpi_exec/node_layout.h"
#include "mpi_exec/reduce_scatter_node_aware.h"
#include "mpi_exec/reduce_trees.h"
#include "mpi_exec/tags.h"

namespace rosched::mpi {

namespace {

// From this many bytes (and one element per rank) the reduction on equal nodes is the
// reduce-scatter + gather: measured on the paper's 36 x 32 simulated ranks
// (docs/sim/reductions_1152.md), 35.0 / 37.2 / 42.7 / 52.5 us at 8 / 16 / 32 / 64 KiB against
// the trees' 18.8 / 45.4 / 46.1 / 86.9.
constexpr double kScatterGatherFrom = 12 * 1024;

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

}  // namespace

bool node_aware_reduce_applies(const CommInfo& ci, MPI_Op op) {
  return is_commutative(op) && ci.p > 1 && node_layout(ci).hierarchical();
}

bool node_aware_reduce_on(const CommInfo& ci, const void* own, void* recvbuf, int count,
                          MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int root) {
  if (!node_aware_reduce_applies(ci, op)) return false;
  if (count == 0) return true;
  const NodeLayout& layout = node_layout(ci);
  if (layout.equal_nodes() && count >= ci.p &&
      static_cast<double>(count) * type.size >= kScatterGatherFrom) {
    node_scatter_gather_reduce(ci, own, recvbuf, count, datatype, type, op, root);
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
    tree_reduce(reduce_tree_for(lanes, count, type, true), nullptr, acc, count, datatype, type,
                op, home, lanes);
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
