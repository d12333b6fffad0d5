// The multi-lane all-reduce (Träff, "Decomposing MPI collectives for exploiting multi-lane
// communication", 2020: the full-lane all-reduce) on N nodes of c ranks each, over circulant
// graphs: the vector is cut into S chunks, each chunk into c parts (part k for lane k, node rank
// k of every node), and every chunk passes the four steps of lane_pipeline.h: the circulant
// reduce-scatter of the parts within the node (Träff 2022's Alg. 7 run backwards,
// ceil(log2 c) rounds), the reduce-scatter and the all-gather (Alg. 7) of part k's N blocks in
// lane k, and the all-gather of the parts within the node; the chunks' steps overlap, so that
// the node's link and its memory work together. Each node's link carries 2 (N - 1) / N of the
// vector in all (c lanes of 1/c each, out and back), where flat algorithms send it once per
// rank of the node. Commutative operations only (contributions are combined in schedule order).
// This replaced (2026-11-27) ring steps within the node (c - 1 of them per chunk) and an n-way
// or two-tree all-reduce of each lane (the n-way one sends the part once per round): 1.52x /
// 2.00x faster at 1 / 4 MiB on 36 x 32 simulated ranks (docs/simulation.md).
#include "mpi_exec/allreduce_lanes.h"

#include <vector>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/lane_pipeline.h"
#include "mpi_exec/node_layout.h"

namespace rosched::mpi {

bool lane_allreduce_applies(const CommInfo& ci, int count) {
  if (ci.p == 1) return false;
  const NodeLayout& layout = node_layout(ci);
  return layout.equal_nodes() && count >= layout.min_node_size;
}

void lane_allreduce_on(const CommInfo& ci, const char* name, const void* input, void* recvbuf,
                       int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op) {
  const NodeLayout& layout = node_layout(ci);
  if (input != recvbuf) local_copy(input, recvbuf, count, datatype);
  const CommInfo node = comm_info(layout.node), lane = comm_info(layout.lane);
  // Every chunk at least one element per node rank.
  const int chunks =
      lane_chunks(LaneSteps::kAllreduce, static_cast<double>(count) * type.size, count / node.p);
  tell_choice(ci, name, "multi-lane (blocks: chunks; circulant in the nodes and the lanes)", chunks,
              1, static_cast<double>(count) * type.size);
  const BlockCut cut{count, chunks};
  std::vector<LaneChunk> pieces;
  for (int j = 0; j < chunks; ++j) {
    const BlockCut parts{cut.elements(j, 1), node.p};
    pieces.push_back({static_cast<char*>(recvbuf) + cut.first(j) * type.extent, parts,
                      BlockCut{parts.elements(node.rank, 1), lane.p}});
  }
  run_lane_pipeline(node, lane, pieces, LaneSteps::kAllreduce, datatype, type, op);
}

}  // namespace rosched::mpi
