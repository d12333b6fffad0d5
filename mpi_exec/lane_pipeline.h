// The steps of Träff 2020's full-lane decomposition ("Decomposing MPI collectives for exploiting
// multi-lane communication") over circulant graphs, for chunks of a buffer in flight together,
// or for one chunk with the lanes on n ports (lane_pipeline.cc): the multi-lane all-reduce
// (allreduce_lanes.cc) and the node-aware reduce-scatter (reduce_scatter_node_aware.cc).
#ifndef ROSCHED_MPI_EXEC_LANE_PIPELINE_H_
#define ROSCHED_MPI_EXEC_LANE_PIPELINE_H_

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// One chunk: its elements from base on, cut into node.p parts (part k for lane k, node rank k
// of every node) and this rank's part cut into lane.p blocks (block n for node n of the lane).
// The cuts' starts, if any, outlive the pipeline.
struct LaneChunk {
  char* base;
  BlockCut parts;
  BlockCut blocks;
};

// Which steps every chunk passes, in this order (each over Träff 2022's Alg. 7 or its
// reduce-scatter, circulant_rounds.h):
//   1. within every node, the reduce-scatter of the parts: node rank k ends with part k
//      reduced over its node;
//   2. in every lane, the reduce-scatter of that part's blocks over the nodes: node n's rank k
//      ends with block n of part k reduced over all ranks;
//   3. (kAllreduce) in every lane, the all-gather of the blocks: part k at every rank of lane k;
//   4. (kAllreduce) within every node, the all-gather of the parts.
enum class LaneSteps { kReduceScatter, kAllreduce };

// How many chunks a pipeline of `steps` cuts a vector of `bytes` into: ROSCHED_LANE_CHUNKS, or
// round(sqrt((s - 1) bytes / 192 KiB)) for its s steps (S chunks through s steps take about
// (S + s - 1) (a + b m / S), least at S = sqrt((s - 1) b m / a); a / b = 192 KiB as measured
// on the paper's 36 x 32 simulated ranks (docs/sim/paper_1152.md, "Circulant steps"): the
// all-reduce at 1 MiB in 2 / 4 / 8 / 32 chunks 320.9 / 291.8 / 367.6 / 935.4 us, at 4 MiB in
// 4 / 8 / 16 / 32 chunks 872.6 / 754.7 / 826.8 / 1,260.2; the reduce-scatter at 1 MiB in 1 / 2 /
// 4 / 8 chunks 209.4 / 188.1 / 201.9 / 298.0, at 4 MiB in 4 / 5 / 8 chunks 582.8 / 587.0 /
// 599.1); at least 1, at most 64 and at most `most`.
int lane_chunks(LaneSteps steps, double bytes, std::int64_t most);

// The ports of a lane step on one chunk's lane blocks (`blocks`: this rank's part cut into
// lane.p blocks): the n-port all-gather's rule on them (nway_allgather_ports, allgather_nway.h: 0
// where n ports are not at least 10% faster than Alg. 7) by the model all lanes share
// (lanes_model, cost_model.h), 0 where a block has no element. The same on every rank of the
// lane (its blocks are the same there). Every rank of ci calls it (collective over every lane
// and node at the first use of the lanes' model).
int lane_ports(const CommInfo& node, const CommInfo& lane, const BlockCut& blocks,
               const TypeInfo& type);

// The largest vector (bytes) that goes as one chunk instead of the pipeline's several where
// the lanes take n ports (one_chunk_ports), the largest measured for each kind of steps (36 x
// 32 simulated ranks): the reduce-scatter's 4 MiB (the node-aware reduction's reduce-scatter of
// 4 MiB: 180 us in one chunk, lanes on 17 ports, against 588 in the pipeline's five chunks;
// docs/sim/reductions_1152.md, "Rabenseifner's reduction of 4 MiB in one chunk"), the
// all-reduce's 1 MiB.
double one_chunk_on_ports_up_to(LaneSteps steps);

// Whether a vector of `bytes` may go as one chunk on n ports at all: ROSCHED_LANE_CHUNKS not
// set, at most one_chunk_on_ports_up_to(steps) bytes. The same on every rank.
bool one_chunk_allowed(LaneSteps steps, double bytes);

// Whether a vector of `bytes` that lane_chunks cuts into `chunks` may go as one chunk instead:
// more than one chunk, and one_chunk_allowed. The same on every rank.
bool may_go_as_one_chunk(int chunks, LaneSteps steps, double bytes);

// The ports every lane takes for a vector that lane_chunks would pipeline, sent as one chunk
// instead; 0 to keep the pipeline. One chunk's lane steps are ceil(log_(n+1) N) rounds each where
// the pipeline's lanes walk Alg. 7 chunk by chunk (36 x 32 simulated ranks, the reduce-scatter
// of 1 MiB: 69.65 us in one chunk, lanes on 3 ports, against 188.12 in two chunks; the
// all-reduce of 1 MiB on 36 x 8 / 36 x 16: 104.62 / 112.11 us on 17 / 7 ports against 287.66 /
// 284.34 in four; docs/sim/nport_allreduce.md, "One chunk on n ports" and after). Callers: the
// node-aware reduce-scatter and the multi-lane all-reduce. lane_blocks(k), k = 0 .. node.p - 1:
// lane k's blocks of the whole vector (those of node rank k of every node), used before the next
// call. The answer is the median of the lanes' lane_ports (the upper one of an even count), or 0
// where some lane has a block with no element. Every rank finds every lane's n by the lanes'
// model (lanes_model), the same on every rank, so all agree without a message. Before that model
// each lane decided on its own model and the answers were gathered in each node (an
// MPI_Allgather, 8-13 us at 36 x 32): at 36 x 32 the lanes found from 0 to 35 ports for their
// alike blocks of a 1 MiB all-reduce. The median still settles lanes whose blocks differ. With
// ROSCHED_VERBOSE rank 0 of ci tells the lanes' n (as collective `name` on `bytes`). Collective
// over every lane and node at the first use of the lanes' model, else local.
int one_chunk_ports(const CommInfo& ci, const char* name, const CommInfo& node,
                    const CommInfo& lane, const std::function<BlockCut(int)>& lane_blocks,
                    const TypeInfo& type, double bytes);

// Runs the steps for one chunk one after the other, each lane's on `ports` ports (the n-port
// reduce-scatter and all-gather, allgather_nway.h; the same on every rank of a lane) where that
// is above 0, on lane_ports where it is -1 (each lane on its blocks' n), else over Alg. 7; the
// node's steps as in the pipeline. Returns the lane's ports (0: Alg. 7). op commutative.
int run_lane_steps(const CommInfo& node, const CommInfo& lane, const LaneChunk& chunk,
                   LaneSteps steps, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op,
                   int ports);

// With ROSCHED_VERBOSE, where ports (what run_lane_steps returned) is above 0: rank 0 of ci tells
// that its lane's step(s) ran on that many ports (as collective `name` on `bytes`).
void tell_lane_ports(const CommInfo& ci, const char* name, LaneSteps steps, int ports,
                     double bytes);

// Runs the steps for every chunk over node and lane. Each step serves the chunks in order, one
// round at a time, and the steps run at once (while lane k works on chunk j, the node works on
// chunks j + 1 and j - 1), all rounds in flight waited for together (MPI_Waitany). op
// commutative (contributions are combined in schedule order).
void run_lane_pipeline(const CommInfo& node, const CommInfo& lane,
                       const std::vector<LaneChunk>& chunks, LaneSteps steps, MPI_Datatype datatype,
                       const TypeInfo& type, MPI_Op op);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_LANE_PIPELINE_H_
