// Which ranks of a communicator share a node, for collectives that treat the links inside a
// node and the links between nodes differently (Rosched_Bcast on a cluster of multicore nodes:
// bcast_node_aware.cc).
//
// Nodes are MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) of the communicator (SimGrid SMPI: one
// node per simulated host), or, with ROSCHED_NODE_SIZE = k, consecutive blocks of k ranks (for
// testing the node-aware paths on one machine, and for MPI libraries whose shared-memory split
// does not follow the network). Nodes are numbered 0, 1, .. in the order of their lowest rank;
// a rank's node rank orders the node's ranks by their rank in the communicator.
//
// Lane k is the communicator of the node rank k of every node that has one (Träff's lane
// decomposition, "Decomposing MPI collectives for exploiting multi-lane communication", 2020,
// uses the same split), its ranks ordered by node number: where every node has a rank k
// (k < min_node_size), a node's number is its rank in lane k.
#ifndef ROSCHED_MPI_EXEC_NODE_LAYOUT_H_
#define ROSCHED_MPI_EXEC_NODE_LAYOUT_H_

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

struct NodeLayout {
  int nodes = 1;                      // how many
  int min_node_size = 1, max_node_size = 1;
  bool consecutive = true;             // every node's ranks form one range of the communicator
  int node_number = 0, node_rank = 0;  // this rank's
  MPI_Comm node = MPI_COMM_NULL;       // this rank's node (only if hierarchical())
  MPI_Comm lane = MPI_COMM_NULL;       // this rank's lane (only if hierarchical())
  // Per rank of the communicator: its node number and node rank (only if hierarchical(); 2p
  // ints: the node-aware collectives look up the root's).
  std::vector<int> number_of, node_rank_of;

  // Several nodes and some node with several ranks: where a node-aware collective differs from
  // a flat one.
  bool hierarchical() const { return nodes > 1 && max_node_size > 1; }

  // Hierarchical with every node of the same size c: where the full-lane collectives apply
  // (node rank k of every node is in lane k, for every k < c).
  bool equal_nodes() const { return hierarchical() && min_node_size == max_node_size; }

  // On equal nodes: rank r's place in lane-major order, node_rank_of[r] * nodes + number_of[r]
  // (lane k's ranks together, in node order, the order of the lane's ranks): how the node-aware
  // reduce-scatter lays out the blocks and the reduction gathers them.
  int lane_position(int r) const {
    return node_rank_of[static_cast<std::size_t>(r)] * nodes +
           number_of[static_cast<std::size_t>(r)];
  }

  // The lane that carries a rooted collective from or to root between the nodes: the root's
  // own where every node has its node rank, else lane 0 (only if hierarchical()).
  int carrier_lane(int root) const {
    const int k = node_rank_of[static_cast<std::size_t>(root)];
    return k < min_node_size ? k : 0;
  }
};

// The layout of comm, made at the first call on it (collective over comm then: a split, an
// all-gather, a second split) and freed with it.
const NodeLayout& node_layout(const CommInfo& comm);

// The node layout given each rank's node key (ranks with equal keys share a node; keys >= 0):
// node numbers, node ranks and sizes, without MPI. Exposed for its test.
struct NodeNumbers {
  int nodes = 0, min_node_size = 0, max_node_size = 0;
  bool consecutive = true;  // every node's ranks form one range
  std::vector<int> number_of, node_rank_of;
};
NodeNumbers number_nodes(const std::vector<int>& key_of);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_NODE_LAYOUT_H_
