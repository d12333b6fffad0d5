// The node-aware reduction: a tree reduction (the k-nomial tree or the pipelined two trees of
// Sanders, Speck, Träff 2009, by the cost model of each communicator: reduce_trees.h) within
// every node, into the rank of the root's lane (node_layout.h), then among the lane's ranks into
// the root's node; each vector crosses each node's network link once instead of once per rank in
// the trees' pipelined rounds. Commutative operations only (the two phases combine the
// contributions in node order, not rank order); elsewhere Rosched_Reduce_node_aware runs the
// flat reduction of Rosched_Reduce. Where some node lacks the root's node rank, lane 0 carries the
// partial results and the home node's rank 0 sends the result to the root.
#include "mpi_exec/reduce_node_aware.h"

#include <optional>

#include "mpi_exec/node_layout.h"
#include "mpi_exec/tags.h"
#include "mpi_exec/reduce_trees.h"

namespace rosched::mpi {

bool node_aware_reduce_on(const CommInfo& ci, const void* own, void* recvbuf, int count,
                          MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int root) {
  int commutative = 0;
  check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
  if (!commutative || ci.p == 1) return false;
  const NodeLayout& layout = node_layout(ci);
  if (!layout.hierarchical()) return false;
  if (count == 0) return true;
  std::optional<ScratchBuffer> scratch;
  void* acc = accumulator(ci, root, own, recvbuf, count, datatype, type, scratch);
  const int k = layout.node_rank_of[root], home = layout.number_of[root];
  const int lane = layout.carrier_lane(root);
  const CommInfo node = comm_info(layout.node);
  tree_reduce(reduce_tree_for(node, count, type), acc, count, datatype, type, op, lane, node);
  if (layout.node_rank == lane) {
    const CommInfo lanes = comm_info(layout.lane);
    tree_reduce(reduce_tree_for(lanes, count, type), acc, count, datatype, type, op, home, lanes);
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
