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
// flat reduce-scatter sends it once per rank of the node. Long vectors pass the two steps in
// chunks whose steps overlap (lane_pipeline.h): chunk j holds slice j of every block, so the
// blocks are reordered into chunk-major, then lane-major order (one copy in, one copy out).
#include "mpi_exec/reduce_scatter_node_aware.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/lane_pipeline.h"
#include "mpi_exec/node_layout.h"

namespace rosched::mpi {

bool node_aware_reduce_scatter_applies(const CommInfo& ci) {
  if (ci.p == 1) return false;
  const NodeLayout& layout = node_layout(ci);
  return layout.equal_nodes();
}

void node_aware_reduce_scatter_on(const CommInfo& ci, const char* name, const void* input,
                                  void* recvbuf, const BlockCut& cut, MPI_Datatype datatype,
                                  const TypeInfo& type, MPI_Op op) {
  const NodeLayout& layout = node_layout(ci);
  const int nodes = layout.nodes, c = layout.min_node_size, p = ci.p;
  const CommInfo node = comm_info(layout.node), lane = comm_info(layout.lane);
  // At most the average block's elements.
  const int chunks =
      lane_chunks(LaneSteps::kReduceScatter, static_cast<double>(cut.n) * type.size, cut.n / cut.p);
  tell_choice(ci, name, "node-aware reduce-scatter (circulant in the node, then in the lanes)",
              chunks, 1, static_cast<double>(cut.n) * type.size);
  // Block r at layout.lane_position(r): lane k's blocks together, in node order. Chunk j holds
  // slice j of every block (a block cut into `chunks` slices as BlockCut cuts), in that order.
  struct Cuts {
    std::int64_t first = 0;                   // the chunk's first element in acc
    std::vector<std::int64_t> starts;         // per position, prefix sums within the chunk
    std::vector<std::int64_t> parts, blocks;  // the parts' and this rank's blocks' starts
  };
  std::vector<Cuts> cuts(static_cast<std::size_t>(chunks));
  const auto slice = [&](int r, int j) {  // slice j of block r: (first element, count)
    const BlockCut slices{cut.elements(r, 1), chunks};
    return std::pair<std::int64_t, std::int64_t>{cut.first(r) + slices.first(j),
                                                 slices.elements(j, 1)};
  };
  std::int64_t total = 0;
  for (int j = 0; j < chunks; ++j) {
    Cuts& x = cuts[static_cast<std::size_t>(j)];
    x.first = total;
    x.starts.assign(p + 1, 0);
    for (int r = 0; r < p; ++r) x.starts[layout.lane_position(r) + 1] = slice(r, j).second;
    for (int i = 0; i < p; ++i) x.starts[i + 1] += x.starts[i];
    total += x.starts[p];
  }
  ScratchBuffer acc(type, static_cast<int>(cut.n));
  char* const at = static_cast<char*>(acc.data());
  const char* const in = static_cast<const char*>(input);
  std::vector<LaneChunk> pieces;
  const int k = node.rank;
  for (int j = 0; j < chunks; ++j) {
    Cuts& x = cuts[static_cast<std::size_t>(j)];
    char* const base = at + x.first * type.extent;
    for (int r = 0; r < p; ++r) {
      const auto [first, count] = slice(r, j);
      local_copy(in + first * type.extent, base + x.starts[layout.lane_position(r)] * type.extent,
                 static_cast<int>(count), datatype, type);
    }
    // Part k is positions k * nodes .. (k + 1) * nodes - 1.
    x.parts.resize(c + 1);
    for (int q = 0; q <= c; ++q) x.parts[q] = x.starts[q * nodes];
    x.blocks.resize(nodes + 1);
    for (int n = 0; n <= nodes; ++n) x.blocks[n] = x.starts[k * nodes + n] - x.starts[k * nodes];
    pieces.push_back({base, BlockCut{x.starts[p], c, x.parts.data()},
                      BlockCut{x.blocks[nodes], nodes, x.blocks.data()}});
  }
  run_lane_pipeline(node, lane, pieces, LaneSteps::kReduceScatter, datatype, type, op);
  const int mine = layout.lane_position(ci.rank);
  for (int j = 0; j < chunks; ++j) {
    const Cuts& x = cuts[static_cast<std::size_t>(j)];
    const auto [first, count] = slice(ci.rank, j);
    local_copy(at + (x.first + x.starts[mine]) * type.extent,
               static_cast<char*>(recvbuf) + (first - cut.first(ci.rank)) * type.extent,
               static_cast<int>(count), datatype, type);
  }
}

}  // namespace rosched::mpi
