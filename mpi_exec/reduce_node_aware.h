// The node-aware reduction of Rosched_Reduce_node_aware (reduce_node_aware.cc).
#ifndef ROSCHED_MPI_EXEC_REDUCE_NODE_AWARE_H_
#define ROSCHED_MPI_EXEC_REDUCE_NODE_AWARE_H_

#include <mpi.h>

#include <cstdint>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/reduce_trees.h"

namespace rosched::mpi {

// Whether the lane that carries the nodes' partial results (one rank per node, `lanes` of them)
// reduces them into the root's node with the n-port reduce-scatter + gather on n_port ports
// rather than `tree` (reduce_tree_for's for the lane): where nport_reduce_time (reduce_trees.h)
// is at most kLaneNportMargin (allreduce_lanes.h) of the tree's estimate, knomial_time for the
// k-nomial tree, circulant_reduce_time of `blocks` blocks (circulant_reduce_pipeline's) for the
// circulant reduction; never over another tree. The estimates are a few per
// cent from SimGrid's times, as for the all-reduce's lane. On the lane model of the paper's
// 36 x 32 cluster this takes the n-port form from 4 KiB to 16 MiB, where on 36 x 1 the trial of
// Rosched_Reduce measured it faster up to 4 MiB and 2% slower than the circulant reduction at
// 16 MiB (1.47 against 1.44 ms).
bool lane_reduce_takes_nport(const CostModel& model, int lanes, double bytes, int n_port,
                             const ReduceTree& tree, std::int64_t blocks);

// Whether the node-aware reduction applies: a commutative operation, ranks on several multicore
// nodes (the node layout is a collective at its first use on ci). The same on every rank.
bool node_aware_reduce_applies(const CommInfo& ci, MPI_Op op);

// Reduces every rank's contribution own (nullptr at an in-place root: in its recvbuf) into the
// root's recvbuf, node-aware, where the operation is commutative and the ranks sit on several
// multicore nodes; returns false, having done nothing, elsewhere (the same answer on every
// rank). Arguments already checked.
bool node_aware_reduce_on(const CommInfo& ci, const void* own, void* recvbuf, int count,
                          MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int root);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_REDUCE_NODE_AWARE_H_
