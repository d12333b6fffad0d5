// The node-aware reduce-scatter on c ranks per node, after the full-lane decomposition of Träff
// ("Decomposing MPI collectives for exploiting multi-lane communication", 2020): the blocks are
// reordered so that lane k's blocks (those of node rank k on every node, in node order) lie
// together; then
//  1. within every node, the circulant reduce-scatter of the c lanes' parts (ceil(log2 c)
//     rounds; with the ring's c - 1 rounds it took 1.26x as long at 1 MiB on 36 x 32): node rank k
//     ends with lane k's part reduced over its node;
//  2. in every lane k at once, the circulant reduce-scatter (circulant_rounds.h: Träff
//     2022, Alg. 7 backwards) of that part over the nodes: node n's rank k ends with block
//     (n, k), its own, reduced over all ranks.
// Each node's network link carries (N - 1) / N of the vector once (c lanes of 1/c each), where a
// flat reduce-scatter sends it once per rank of the node.
#include "mpi_exec/reduce_scatter_node_aware.h"

#include <cstdint>
#include <vector>

#include "mpi_exec/circulant_rounds.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/node_layout.h"

namespace rosched::mpi {

bool node_aware_reduce_scatter_applies(const CommInfo& ci) {
  if (ci.p == 1) return false;
  const NodeLayout& layout = node_layout(ci);
  return layout.hierarchical() && layout.min_node_size == layout.max_node_size;
}

void node_aware_reduce_scatter_on(const CommInfo& ci, const char* name, const void* input,
                                  void* recvbuf, const BlockCut& cut, MPI_Datatype datatype,
                                  const TypeInfo& type, MPI_Op op) {
  const NodeLayout& layout = node_layout(ci);
  const int nodes = layout.nodes, c = layout.min_node_size;
  const CommInfo node = comm_info(layout.node), lane = comm_info(layout.lane);
  tell_choice(ci, name, "node-aware reduce-scatter (circulant in the node, then in the lanes)", 0,
              0, static_cast<double>(cut.n) * type.size);
  // Block r at position node_rank_of[r] * nodes + number_of[r]: lane k's blocks together, in
  // node order (the order of the lane's ranks).
  const auto position = [&](int r) {
    return layout.node_rank_of[static_cast<std::size_t>(r)] * nodes +
           layout.number_of[static_cast<std::size_t>(r)];
  };
  std::vector<std::int64_t> starts(ci.p + 1, 0);  // the reordered blocks' prefix sums
  for (int r = 0; r < ci.p; ++r) starts[position(r) + 1] = cut.elements(r, 1);
  for (int i = 0; i < ci.p; ++i) starts[i + 1] += starts[i];
  ScratchBuffer acc(type, static_cast<int>(cut.n));
  char* const at = static_cast<char*>(acc.data());
  const char* const in = static_cast<const char*>(input);
  for (int r = 0; r < ci.p; ++r) {
    local_copy(in + cut.first(r) * type.extent, at + starts[position(r)] * type.extent,
               static_cast<int>(cut.elements(r, 1)), datatype, type);
  }
  // 1. Lane parts within the node: part k is blocks k * nodes .. (k + 1) * nodes - 1.
  std::vector<std::int64_t> part_starts(c + 1);
  for (int k = 0; k <= c; ++k) part_starts[k] = starts[k * nodes];
  circulant_reduce_scatter_on(node, at, BlockCut{cut.n, c, part_starts.data()}, datatype, type, op);
  // 2. This rank's lane part over the nodes.
  const int k = node.rank;
  const std::int64_t base = starts[k * nodes];
  std::vector<std::int64_t> lane_starts(nodes + 1);
  for (int n = 0; n <= nodes; ++n) lane_starts[n] = starts[k * nodes + n] - base;
  circulant_reduce_scatter_on(lane, at + base * type.extent,
                              BlockCut{lane_starts[nodes], nodes, lane_starts.data()}, datatype,
                              type, op);
  const int mine = position(ci.rank);
  local_copy(at + starts[mine] * type.extent, recvbuf,
             static_cast<int>(starts[mine + 1] - starts[mine]), datatype, type);
}

}  // namespace rosched::mpi
