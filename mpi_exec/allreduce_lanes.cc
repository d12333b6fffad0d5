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
//
// For short vectors, whose time is rounds, not bytes, the lanes carry whole vectors: the n-way
// all-reduce (End et al. 2015, nway_allreduce.h) of the node, then of the lane (Träff 2020's
// lane decomposition with the node's result as every lane rank's contribution): a few rounds on
// the node's fast links and ceil(log_{n+1} N) among the N nodes, where a flat all-reduce's
// rounds cross the node links.
#include "mpi_exec/allreduce_lanes.h"

#include <algorithm>
#include <string>
#include <vector>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/lane_pipeline.h"
#include "mpi_exec/node_layout.h"
#include "mpi_exec/nway_allreduce.h"
#include "mpi_exec/settings.h"

namespace rosched::mpi {

namespace {

// The multi-lane all-reduce (count >= the node size).
void multi_lane(const CommInfo& ci, const NodeLayout& layout, const char* name, const void* input,
                void* recvbuf, int count, MPI_Datatype datatype, const TypeInfo& type,
                MPI_Op op) {
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

// The n-way all-reduce of the node, then of the lane.
void nway_steps(const NodeLayout& layout, const CommInfo& ci, const char* name, const void* input,
                void* recvbuf, int count, MPI_Datatype datatype, const TypeInfo& type,
                MPI_Op op) {
  const double bytes = static_cast<double>(count) * type.size;
  const auto step = [&](const CommInfo& on, const void* from) {
    const int n = std::min(nway_ports(on, bytes), on.p - 1);
    nway_allreduce_on(on, from, recvbuf, count, datatype, type, op, n);
    return n;
  };
  const int n_node = step(comm_info(layout.node), input);
  const int n_lane = step(comm_info(layout.lane), recvbuf);
  if (settings().verbose) {
    const std::string what = "n-way in the node (n = " + std::to_string(n_node) +
                             "), then in the lane (n = " + std::to_string(n_lane) + ")";
    tell_choice(ci, name, what.c_str(), 1, 0, bytes);
  }
}

}  // namespace

bool lane_allreduce_applies(const CommInfo& ci) {
  return ci.p > 1 && node_layout(ci).equal_nodes();
}

void lane_allreduce_on(const CommInfo& ci, const char* name, const void* input, void* recvbuf,
                       int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op) {
  const NodeLayout& layout = node_layout(ci);
  if (count < layout.min_node_size || static_cast<double>(count) * type.size < kLaneNwayBelow) {
    nway_steps(layout, ci, name, input, recvbuf, count, datatype, type, op);
  } else {
    multi_lane(ci, layout, name, input, recvbuf, count, datatype, type, op);
  }
}

}  // namespace rosched::mpi
