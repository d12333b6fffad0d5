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
// its rounds cost their latency. A vector that would be pipelined goes as one chunk where every
// lane takes n ports for its blocks of the whole vector (one_chunk_on_ports, up to 1 MiB).
#include "mpi_exec/reduce_scatter_node_aware.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "mpi_exec/allgather_nway.h"
#include "mpi_exec/circulant_rounds.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/lane_pipeline.h"
#include "mpi_exec/node_layout.h"
#include "mpi_exec/settings.h"

namespace rosched::mpi {

namespace {

// The largest vector (bytes) that one_chunk_on_ports takes out of the pipeline: the largest
// measured (36 x 32 simulated ranks, 1 MiB; a run at 4 MiB did not end in 78 minutes).
constexpr double kOneChunkOnPortsUpTo = 1 << 20;

// The ports of step 2 on one chunk's lane blocks: the n-port all-gather's rule on them
// (nway_allgather_ports: 0 where n ports are not at least 10% faster than Algorithm 7), 0 where a
// block has no element. The same on every rank of the lane (its blocks are the same there);
// collective over the lane at the first use of its cost model.
int lane_ports(const CommInfo& lane, const BlockCut& blocks, const TypeInfo& type) {
  for (std::int64_t b = 0; b < blocks.p; ++b) {
    if (blocks.elements(b, 1) < 1) return 0;
  }
  return nway_allgather_ports(lane, gather_blocks(blocks, type.size));
}

// Whether a vector that lane_chunks would pipeline in several chunks goes as one chunk instead:
// where every lane's blocks of the whole vector take n ports (lane_ports), up to
// kOneChunkOnPortsUpTo bytes. One chunk's lane step is then ceil(log_(n+1) N) rounds where the
// pipeline's lanes walk Alg. 7 chunk by chunk (36 x 32 simulated ranks: 87.17 us at 1 MiB in
// one chunk, lanes on 17 ports, against 188.12 in two chunks; docs/sim/nport_allreduce.md, "One
// chunk on n ports"). Each node holds one rank of every lane, so the minimum over the node is
// the same on every node: all ranks agree. Collective over the node (and over the lane at the
// first use of its cost model).
bool one_chunk_on_ports(const CommInfo& node, const CommInfo& lane, const NodeLayout& layout,
                        const BlockCut& cut, const TypeInfo& type) {
  if (static_cast<double>(cut.n) * type.size > kOneChunkOnPortsUpTo) return false;
  // This rank's lane (node rank k) holds positions k * N .. (k + 1) * N - 1: block n of the lane
  // is node n's block of rank k.
  const int nodes = layout.nodes, k = node.rank;
  std::vector<std::int64_t> starts(nodes + 1, 0);
  for (int r = 0; r < cut.p; ++r) {
    const int position = layout.lane_position(r);
    if (position / nodes == k) starts[position % nodes + 1] = cut.elements(r, 1);
  }
  for (int n = 0; n < nodes; ++n) starts[n + 1] += starts[n];
  int all = lane_ports(lane, BlockCut{starts[nodes], nodes, starts.data()}, type) > 0 ? 1 : 0;
  check(PMPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, node.c),
        "MPI_Allreduce (node-aware reduce-scatter: one chunk on n ports)");
  return all == 1;
}

}  // namespace

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
  // At most the average block's elements; one where the lanes take n ports for the whole vector
  // (unless ROSCHED_LANE_CHUNKS sets the count).
  int chunks =
      lane_chunks(LaneSteps::kReduceScatter, static_cast<double>(cut.n) * type.size, cut.n / cut.p);
  if (chunks > 1 && settings().lane_chunks == 0 &&
      one_chunk_on_ports(node, lane, layout, cut, type)) {
    chunks = 1;
  }
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
  if (chunks == 1) {
    // Step 1 the same on every rank of the node, whatever its lane takes for step 2 (each lane
    // decides on its own model).
    const LaneChunk& one = pieces[0];
    circulant_reduce_scatter_on(node, one.base, one.parts, datatype, type, op);
    char* const part = one.base + one.parts.first(k) * type.extent;
    if (const int ports = lane_ports(lane, one.blocks, type)) {
      nway_reduce_scatter_on(lane, part, one.blocks, datatype, type, op, ports);
      if (settings().verbose) {
        const std::string what = "lane step on " + std::to_string(ports) + " ports";
        tell_choice(ci, name, what.c_str(), 0, 0, static_cast<double>(cut.n) * type.size);
      }
    } else {
      circulant_reduce_scatter_on(lane, part, one.blocks, datatype, type, op);
    }
  } else {
    run_lane_pipeline(node, lane, pieces, LaneSteps::kReduceScatter, datatype, type, op);
  }
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
