// The multi-lane all-reduce of Rosched_Allreduce_node_aware and its form for short vectors
// (allreduce_lanes.cc).
#ifndef ROSCHED_MPI_EXEC_ALLREDUCE_LANES_H_
#define ROSCHED_MPI_EXEC_ALLREDUCE_LANES_H_

#include <mpi.h>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// Whether lane_allreduce_on applies on ci: the ranks sit on several nodes of equal size c > 1
// (the same answer on every rank; the first question on a communicator makes its node layout,
// collectively).
bool lane_allreduce_applies(const CommInfo& ci);

// Below this many bytes (and with fewer elements than c at any size), lane_allreduce_on takes
// the form for short vectors, one lane carrying them (the node's reduction, the n-way or n-port
// all-reduce of node ranks 0, the node's broadcast), but from kLaneOneChunkFrom the multi-lane
// all-reduce where it goes as one chunk on n ports. Set as the limit between the one lane and
// the multi-lane all-reduce in chunks: the geometric middle of 32 KiB, where the first was measured
// faster (36 x 32 simulated ranks: 53.2 us against 70.7), and 64 KiB, where it was slower (96.9
// against 87.3); at 4 B / 1 / 4 / 16 KiB 5.4 / 10.2 / 12.0 / 30.7 us, 0.16 / 0.28 / 0.33 / 0.46 of
// the best selector (docs/sim/reductions_1152.md, "Short all-reduces on multicore nodes").
inline constexpr double kLaneLeaderBelow = 48 * 1024;

// From kLaneLeaderBelow up to this many bytes (with at least as many elements as nodes), the one
// lane's all-reduce among node ranks 0 is the reduce-scatter + all-gather instead of the n-way
// one. About the geometric middle of 512 KiB, where that form was measured faster than the
// multi-lane all-reduce (36 x 32 simulated ranks: 210.5 us against 222.0; 133.8 against 150.0 at
// 256 KiB, 72.0 against 87.3 at 64 KiB), and 1 MiB, where it was slower (372.9 against 291.6);
// at 16 and 32 KiB it was slower than the n-way lane (53.8 / 60.4 against 30.7 / 53.2 us).
inline constexpr double kLaneScatterGatherBelow = 724 * 1024;

// From this many bytes up to kLaneScatterGatherBelow (with at least as many elements as ranks in
// a node and as nodes), the multi-lane all-reduce instead of the one lane where it goes as one
// chunk with its lanes on n ports (one_chunk_ports of lane_pipeline.h; not its pipeline, which
// the one lane beat there), also where the pipeline would take one chunk. On 36 x 32 simulated
// ranks, lanes on 35 ports, the one chunk took 23.2 us at 16 KiB against the one lane's 18.8,
// 23.0 at 24 KiB against 23.3, 23.8 at 28 KiB against 25.2, 25.1 at 32 KiB against 27.5, 27.6
// at 64 KiB against 36.5 and 34.8 at 128 KiB against 56.7; 75.7 us at 256 KiB (3 ports) against
// 91.5. The lines cross near 23.4 KiB (docs/sim/nport_allreduce.md, "The multi-lane all-reduce
// from 128 KiB", "... at 128 and 64 KiB", "... from 24 KiB" and "The limit at 24 KiB measured").
inline constexpr double kLaneOneChunkFrom = 24 * 1024;

// The all-reduce of the one lane (node ranks 0, one per node) in the form for short and
// mid-sized vectors.
enum class LaneAllreduce {
  kNway,           // the n-way dissemination all-reduce (End et al. 2015)
  kScatterGather,  // the reduce-scatter + all-gather over the circulant graph
  kNport,          // the same on n ports
};
// The estimates are a few per cent from SimGrid's times on 36 x 1 (4 B-256 KiB, both forms), so
// below the n-way all-reduce's the n-port form must be this much less: on the lane of 36 x 32 at
// 1 KiB (estimates 8.25 and 8.34 us) the n-port form took 11.8 us where the n-way one took 10.2;
// at 4 KiB (8.99 and 9.76) 10.8 against 12.0.
inline constexpr double kLaneNportMargin = 0.95;

// Which, for vectors of `bytes` on `lanes` nodes, over the lane's cost model: the n-port form
// where n_port > 0 (the n-port all-gather's rule finds n ports at least 10% faster than
// Algorithm 7 for the blocks, nport_reduce_scatter_ports; the caller passes 0 where a block would
// have no element) and either scatter_gather (from kLaneLeaderBelow) or its estimate
// (nport_allreduce_time) is at most kLaneNportMargin of the n-way all-reduce's on n_way ports
// (nway_time); else the circulant reduce-scatter + all-gather where scatter_gather, the n-way
// all-reduce where not. The n-port form's 2 ceil(log_(n+1) N) rounds were measured on the
// paper's 36 x 1 at 15.3 / 28.5 us for 64 / 256 KiB, where the circulant form took 50.9 / 70.8
// and the n-way 75.9 / 164 (docs/sim/nport_allgather.md, "The rule on each message's own
// figure"); on 36 x 32 this all-reduce took 36.5 / 91.6 us with it, 72.2 / 134.4 with the
// circulant form (docs/sim/nport_allreduce.md, "The lanes of 36 x 32 on n ports").
LaneAllreduce lane_allreduce_form(const CostModel& model, int lanes, double bytes,
                                  bool scatter_gather, int n_port, int n_way);

// The reduction over all ranks of ci of their count elements at input (recvbuf itself for
// MPI_IN_PLACE) into recvbuf, where op is commutative (checked by the caller), count > 0 and
// lane_allreduce_applies(ci): for short and mid-sized vectors the k-nomial reduction of each
// node into node rank 0, the n-way dissemination all-reduce (End et al. 2015; from
// kLaneLeaderBelow the reduce-scatter + all-gather; either on n ports where
// lane_allreduce_form says so) among node ranks 0 and the broadcast within
// each node (sub_bcast_on of bcast_node_aware.h: a k-ary tree of one
// block or the circulant broadcast, by the node's cost model) (the node's ports and the lane's n
// by the n-way cost rule on that communicator, nway_ports, at most its size - 1); for long ones
// (and from kLaneOneChunkFrom, below and above kLaneLeaderBelow, where it goes as one chunk on n
// ports) the multi-lane all-reduce.
// Arguments already checked; reported as `name`.
void lane_allreduce_on(const CommInfo& ci, const char* name, const void* input, void* recvbuf,
                       int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ALLREDUCE_LANES_H_
