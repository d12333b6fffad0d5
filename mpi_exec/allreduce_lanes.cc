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
// A vector of one chunk runs the four steps one after the other, each lane's reduce-scatter and
// all-gather on n ports where the n-port rule finds them worth it (run_lane_steps,
// lane_pipeline.h): ceil(log_(n+1) N) rounds each. Up to 1 MiB a vector the pipeline would cut
// goes as one chunk where every lane takes n ports for its part (one_chunk_ports, as the
// node-aware reduce-scatter; 36 x 8 simulated ranks, 1 MiB: 104.62 us against the pipeline's
// 287.66; docs/sim/nport_allreduce.md, "The all-reduce's one chunk, measured on fewer ranks per
// node"). This replaced (2026-11-27) ring steps within the node (c - 1 of them per chunk) and an
// n-way or two-tree all-reduce of each lane (the n-way one sends the part once per round): 1.52x /
// 2.00x faster at 1 / 4 MiB on 36 x 32 simulated ranks (docs/sim/paper_1152.md, "Circulant
// steps").
//
// For short and mid-sized vectors, whose time is rounds more than bytes, one lane carries the
// whole vector: the k-nomial reduction of each node into node rank 0 (Träff's lecture notes,
// "Binomial tree reduction", ports by the n-way cost rule, which on SimGrid's loopback takes all
// 31 at once), the n-way all-reduce (End et al. 2015, nway_allreduce.h) of the lane of node
// ranks 0, ceil(log_{n+1} N) rounds among the N nodes, and the broadcast of the result within
// the node (sub_bcast_on: short, a k-ary tree of one block, Träff's lecture notes, fixed-degree
// trees, where the cost model says so; else the circulant broadcast): a flat
// all-reduce's rounds each cross the node links, and the n-way all-reduce of every lane that
// this form replaced (2026-11-27; 5.9 / 9.4 / 56.9 us at 4 B / 64 B / 1 KiB on 36 x 32
// simulated ranks, this one 5.4 / 5.5 / 10.2) sent the vector 32 times through each node's link.
// For mid-sized vectors the lane of node ranks 0 runs the reduce-scatter + all-gather
// (Rabenseifner's all-reduce over the circulant graph, allreduce_scatter_gather.h) instead of the
// n-way all-reduce: its 2 ceil(log2 N) rounds stream, where the n-way all-reduce sends the whole
// vector n times a round (36 x 32 simulated ranks: 72.0 / 133.8 us at 64 / 256 KiB against the
// multi-lane all-reduce's 87.3 / 150.0; docs/sim/reductions_1152.md, "Mid-sized all-reduces on
// multicore nodes").
// Where the n-port all-gather's rule finds n ports worth it for the lane's blocks, the lane runs
// the reduce-scatter + all-gather on n ports (allgather_nway.h), 2 ceil(log_(n+1) N) rounds: for
// mid-sized vectors always, for short ones where the rule's estimate is at least 5% below the
// n-way all-reduce's (lane_allreduce_form, kLaneNportMargin).
// From 24 KiB the multi-lane all-reduce replaces the one lane where it goes as one chunk, its
// lanes on n ports (kLaneOneChunkFrom; 36 x 32 simulated ranks, 24 KiB: 23.0 us against 23.3;
// 32 KiB: 25.1 us against 27.5; 64 KiB: 27.6 us against 36.5; 128 KiB: 34.8 us against 56.7;
// 256 KiB: 75.7 us against 91.5; at 16 KiB the one lane was faster, 18.8 against 23.2).
#include "mpi_exec/allreduce_lanes.h"

#include <algorithm>
#include <string>
#include <vector>

#include "mpi_exec/allreduce_scatter_gather.h"
#include "mpi_exec/bcast_node_aware.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/lane_pipeline.h"
#include "mpi_exec/node_layout.h"
#include "mpi_exec/nway_allreduce.h"
#include "mpi_exec/reduce_trees.h"
#include "mpi_exec/settings.h"

namespace rosched::mpi {

namespace {

// Lane k's blocks of a chunk's parts: node rank k's part in lane.p blocks.
BlockCut lane_blocks(const BlockCut& parts, int k, const CommInfo& lane) {
  return BlockCut{parts.elements(k, 1), lane.p};
}

// How the multi-lane all-reduce sends count elements: its chunks, and where that is one chunk
// instead of the pipeline's several, or instead of the one lane (`instead_of_one_lane`: from
// kLaneOneChunkFrom below kLaneScatterGatherBelow, however many chunks the pipeline's would be),
// the ports every lane takes (one_chunk_ports, as the node-aware reduce-scatter); ports -1: each
// lane on its blocks' lane_ports. Every chunk holds at least one element per node rank. The same
// on every rank; collective at the lanes' model's first use.
struct MultiLanePlan {
  int chunks;
  int ports;
};
MultiLanePlan multi_lane_plan(const CommInfo& ci, const char* name, const CommInfo& node,
                              const CommInfo& lane, int count, const TypeInfo& type,
                              bool instead_of_one_lane) {
  const double bytes = static_cast<double>(count) * type.size;
  MultiLanePlan plan{lane_chunks(LaneSteps::kAllreduce, bytes, count / node.p), -1};
  // Instead of the one lane, one chunk on n ports is asked for also where the pipeline's is one
  // chunk (below about 144 KiB; 36 x 32 simulated ranks, lanes on 35 ports: 25.1 us at 32 KiB,
  // 27.6 at 64 KiB, 34.8 at 128 KiB, against the one lane's 27.5, 36.5 and 56.7).
  if (instead_of_one_lane ? one_chunk_allowed(LaneSteps::kAllreduce, bytes)
                          : may_go_as_one_chunk(plan.chunks, LaneSteps::kAllreduce, bytes)) {
    const BlockCut parts{count, node.p};  // the one chunk's parts
    const int ports = one_chunk_ports(
        ci, name, node, lane, [&](int k) { return lane_blocks(parts, k, lane); }, type, bytes);
    if (ports > 0) plan = {1, ports};
  }
  return plan;
}

// The multi-lane all-reduce (count >= the node size) by its plan: in chunks through the
// pipeline, or one chunk's steps one after the other.
void multi_lane(const CommInfo& ci, const NodeLayout& layout, const char* name, const void* input,
                void* recvbuf, int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op,
                const MultiLanePlan& plan) {
  if (input != recvbuf) local_copy(input, recvbuf, count, datatype);
  const CommInfo node = comm_info(layout.node), lane = comm_info(layout.lane);
  const double bytes = static_cast<double>(count) * type.size;
  // Chunk j of n: its parts, and this rank's part in lane.p blocks.
  const auto piece = [&](int j, int n) {
    const BlockCut cut{count, n};
    const BlockCut parts{cut.elements(j, 1), node.p};
    return LaneChunk{static_cast<char*>(recvbuf) + cut.first(j) * type.extent, parts,
                     lane_blocks(parts, node.rank, lane)};
  };
  tell_choice(ci, name, "multi-lane (blocks: chunks; circulant in the nodes and the lanes)",
              plan.chunks, 1, bytes);
  if (plan.chunks == 1) {
    const int ran = run_lane_steps(node, lane, piece(0, 1), LaneSteps::kAllreduce, datatype, type,
                                   op, plan.ports);
    tell_lane_ports(ci, name, LaneSteps::kAllreduce, ran, bytes);
    return;
  }
  std::vector<LaneChunk> pieces;
  for (int j = 0; j < plan.chunks; ++j) pieces.push_back(piece(j, plan.chunks));
  run_lane_pipeline(node, lane, pieces, LaneSteps::kAllreduce, datatype, type, op);
}

// The node's reduction into node rank 0, the all-reduce of the lane of node ranks 0
// (lane_allreduce_form: the n-way one, the reduce-scatter + all-gather or that on n ports), the
// node's broadcast from node rank 0.
void leader_steps(const NodeLayout& layout, const CommInfo& ci, const char* name, const void* input,
                  void* recvbuf, int count, MPI_Datatype datatype, const TypeInfo& type,
                  MPI_Op op, bool scatter_gather) {
  const double bytes = static_cast<double>(count) * type.size;
  const CommInfo node = comm_info(layout.node);
  // The reduction's ports by the cost rule of the n-way all-reduce (levels times n messages of
  // the vector leaving one rank) on the node.
  const int ports = std::min(nway_ports(node, bytes), node.p - 1);
  knomial_reduce(input != recvbuf ? input : nullptr, recvbuf, count, datatype, type, op, ports, 0,
                 node);
  std::string in_lane;
  if (node.rank == 0) {
    const CommInfo lane = comm_info(layout.lane);
    // Every block of the n-port form at least one element.
    const int n_port = count >= lane.p ? nport_reduce_scatter_ports(lane, bytes) : 0;
    const int n_way = std::min(nway_ports(lane, bytes), lane.p - 1);
    switch (lane_allreduce_form(cost_model(lane), lane.p, bytes, scatter_gather, n_port, n_way)) {
      case LaneAllreduce::kNport:
        nport_scatter_gather_allreduce(lane, name, MPI_IN_PLACE, recvbuf, count, datatype, type,
                                       op);
        in_lane =
            "n-port reduce-scatter + all-gather in lane 0 (n = " + std::to_string(n_port) + ")";
        break;
      case LaneAllreduce::kScatterGather:
        scatter_gather_allreduce(lane, name, MPI_IN_PLACE, recvbuf, count, datatype, type, op);
        in_lane = "reduce-scatter + all-gather in lane 0";
        break;
      case LaneAllreduce::kNway:
        nway_allreduce_on(lane, recvbuf, recvbuf, count, datatype, type, op, n_way);
        in_lane = "n-way in lane 0 (n = " + std::to_string(n_way) + ")";
        break;
    }
  }
  sub_bcast_on(layout.node, recvbuf, count, datatype, type, 0);
  if (settings().verbose) {
    const std::string what = "reduction of the node (" + std::to_string(ports) + " ports), " +
                             in_lane + ", broadcast in the node";
    tell_choice(ci, name, what.c_str(), 0, 0, bytes);
  }
}

}  // namespace

LaneAllreduce lane_allreduce_form(const CostModel& model, int lanes, double bytes,
                                  bool scatter_gather, int n_port, int n_way) {
  if (n_port > 0 &&
      (scatter_gather || nport_allreduce_time(model, lanes, n_port, bytes) <=
                             kLaneNportMargin * nway_time(model, lanes, n_way, bytes))) {
    return LaneAllreduce::kNport;
  }
  return scatter_gather ? LaneAllreduce::kScatterGather : LaneAllreduce::kNway;
}

bool lane_allreduce_applies(const CommInfo& ci) {
  return ci.p > 1 && node_layout(ci).equal_nodes();
}

void lane_allreduce_on(const CommInfo& ci, const char* name, const void* input, void* recvbuf,
                       int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op) {
  const NodeLayout& layout = node_layout(ci);
  const double bytes = static_cast<double>(count) * type.size;
  // The multi-lane all-reduce needs an element per node rank; the sizes where the one lane
  // runs (in place of the one chunk where the lanes find no ports), an element per node too.
  const bool multi_lane_fits = count >= layout.min_node_size;
  const bool mid_sized = bytes < kLaneScatterGatherBelow && count >= layout.nodes;
  const auto plan_for = [&](bool instead_of_one_lane) {
    return multi_lane_plan(ci, name, comm_info(layout.node), comm_info(layout.lane), count, type,
                           instead_of_one_lane);
  };
  if (multi_lane_fits && bytes >= kLaneLeaderBelow && !mid_sized) {
    multi_lane(ci, layout, name, input, recvbuf, count, datatype, type, op, plan_for(false));
    return;
  }
  if (multi_lane_fits && mid_sized && bytes >= kLaneOneChunkFrom) {
    const MultiLanePlan plan = plan_for(true);
    if (plan.chunks == 1 && plan.ports > 0) {
      multi_lane(ci, layout, name, input, recvbuf, count, datatype, type, op, plan);
      return;
    }
  }
  leader_steps(layout, ci, name, input, recvbuf, count, datatype, type, op,
               multi_lane_fits && bytes >= kLaneLeaderBelow);
}

}  // namespace rosched::mpi
