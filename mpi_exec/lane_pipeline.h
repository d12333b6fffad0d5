// The steps of Träff 2020's full-lane decomposition ("Decomposing MPI collectives for exploiting
// multi-lane communication") over circulant graphs, for chunks of a buffer in flight together
// (lane_pipeline.cc): the multi-lane all-reduce (allreduce_lanes.cc) and the node-aware
// reduce-scatter (reduce_scatter_node_aware.cc).
#ifndef ROSCHED_MPI_EXEC_LANE_PIPELINE_H_
#define ROSCHED_MPI_EXEC_LANE_PIPELINE_H_

#include <mpi.h>

#include <cstdint>
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

// Runs the steps for every chunk over node and lane. Each step serves the chunks in order, one
// round at a time, and the steps run at once (while lane k works on chunk j, the node works on
// chunks j + 1 and j - 1), all rounds in flight waited for together (MPI_Waitany). op
// commutative (contributions are combined in schedule order).
void run_lane_pipeline(const CommInfo& node, const CommInfo& lane,
                       const std::vector<LaneChunk>& chunks, LaneSteps steps, MPI_Datatype datatype,
                       const TypeInfo& type, MPI_Op op);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_LANE_PIPELINE_H_
