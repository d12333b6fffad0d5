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
// A vector of one chunk runs the two steps one after the other, and in each lane whose blocks the
// n-port all-gather's rule finds n ports worth for (allgather_nway.h) step 2 is the n-port
// reduce-scatter, ceil(log_(n+1) N) rounds: the lane's blocks of a short vector are small, so
// its rounds cost their latency. A vector that would be pipelined goes as one chunk where the
// lanes take n ports for their blocks of the whole vector (one_chunk_ports of lane_pipeline.h: the
// lanes' median n, up to 4 MiB), every lane on that n.
#include "mpi_exec/reduce_scatter_node_aware.h"

#include <cstddef>
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
  const double bytes = static_cast<double>(cut.n) * type.size;
  const int k = node.rank;
  // Block r at layout.lane_position(r): lane k's blocks together, in node order. Chunk j of n
  // holds slice j of every block (a block cut into n slices as BlockCut cuts), in that order.
  struct Cuts {
    std::int64_t first = 0;                   // the chunk's first element in acc
    std::vector<std::int64_t> starts;         // per position, prefix sums within the chunk
    std::vector<std::int64_t> parts, blocks;  // the parts' and this rank's blocks' starts
    static BlockCut of(const std::vector<std::int64_t>& v) {
      return BlockCut{v.back(), static_cast<std::int64_t>(v.size()) - 1, v.data()};
    }
    // Lane q's blocks' starts within its part (positions q * nodes .. (q + 1) * nodes - 1).
    void lane_blocks(int q, int nodes, std::vector<std::int64_t>& out) const {
      const std::int64_t* at = starts.data() + static_cast<std::ptrdiff_t>(q) * nodes;
      out.resize(static_cast<std::size_t>(nodes) + 1);
      for (int b = 0; b <= nodes; ++b) out[static_cast<std::size_t>(b)] = at[b] - at[0];
    }
  };
  const auto slice = [&](int r, int j, int n) {  // slice j of n of block r: (first, count)
    const BlockCut slices{cut.elements(r, 1), n};
    return std::pair<std::int64_t, std::int64_t>{cut.first(r) + slices.first(j),
                                                 slices.elements(j, 1)};
  };
  const auto cuts_of = [&](int n) {
    std::vector<Cuts> cuts(static_cast<std::size_t>(n));
    std::int64_t total = 0;
    for (int j = 0; j < n; ++j) {
      Cuts& x = cuts[static_cast<std::size_t>(j)];
      x.first = total;
      x.starts.assign(p + 1, 0);
      for (int r = 0; r < p; ++r) x.starts[layout.lane_position(r) + 1] = slice(r, j, n).second;
      for (int i = 0; i < p; ++i) x.starts[i + 1] += x.starts[i];
      total += x.starts[p];
      // Part q is positions q * nodes .. (q + 1) * nodes - 1.
      x.parts.resize(c + 1);
      for (int q = 0; q <= c; ++q) x.parts[q] = x.starts[q * nodes];
      x.lane_blocks(k, nodes, x.blocks);
    }
    return cuts;
  };
  // At most the average block's elements; one where the lanes take n ports for the whole vector
  // (unless ROSCHED_LANE_CHUNKS sets the count).
  int chunks = lane_chunks(LaneSteps::kReduceScatter, bytes, cut.n / cut.p);
  std::vector<Cuts> cuts;
  int ports = -1;  // one chunk's lanes: each on its blocks' lane_ports (lane_pipeline.h)
  if (may_go_as_one_chunk(chunks, LaneSteps::kReduceScatter, bytes)) {
    cuts = cuts_of(1);
    std::vector<std::int64_t> blocks;
    const auto lane_blocks = [&](int q) {
      cuts[0].lane_blocks(q, nodes, blocks);
      return Cuts::of(blocks);
    };
    ports = one_chunk_ports(ci, name, node, lane, lane_blocks, type, bytes);
    if (ports > 0) chunks = 1;
  }
  if (static_cast<int>(cuts.size()) != chunks) cuts = cuts_of(chunks);
  tell_choice(ci, name, "node-aware reduce-scatter (circulant in the node, then in the lanes)",
              chunks, 1, bytes);
  ScratchBuffer acc(type, static_cast<int>(cut.n));
  char* const at = static_cast<char*>(acc.data());
  const char* const in = static_cast<const char*>(input);
  std::vector<LaneChunk> pieces;
  for (int j = 0; j < chunks; ++j) {
    const Cuts& x = cuts[static_cast<std::size_t>(j)];
    char* const base = at + x.first * type.extent;
    for (int r = 0; r < p; ++r) {
      const auto [first, count] = slice(r, j, chunks);
      local_copy(in + first * type.extent, base + x.starts[layout.lane_position(r)] * type.extent,
                 static_cast<int>(count), datatype, type);
    }
    pieces.push_back({base, Cuts::of(x.parts), Cuts::of(x.blocks)});
  }
  if (chunks == 1) {
    const int ran =
        run_lane_steps(node, lane, pieces[0], LaneSteps::kReduceScatter, datatype, type, op, ports);
    tell_lane_ports(ci, name, LaneSteps::kReduceScatter, ran, bytes);
  } else {
    run_lane_pipeline(node, lane, pieces, LaneSteps::kReduceScatter, datatype, type, op);
  }
  const int mine = layout.lane_position(ci.rank);
  for (int j = 0; j < chunks; ++j) {
    const Cuts& x = cuts[static_cast<std::size_t>(j)];
    const auto [first, count] = slice(ci.rank, j, chunks);
    local_copy(at + (x.first + x.starts[mine]) * type.extent,
               static_cast<char*>(recvbuf) + (first - cut.first(ci.rank)) * type.extent,
               static_cast<int>(count), datatype, type);
  }
}

}  // namespace rosched::mpi
