// The node-aware broadcast (bcast_node_aware.cc): Rosched_Bcast's own algorithm on a
// communicator whose ranks sit on several multicore nodes.
#ifndef ROSCHED_MPI_EXEC_BCAST_NODE_AWARE_H_
#define ROSCHED_MPI_EXEC_BCAST_NODE_AWARE_H_

#include <mpi.h>

#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// What the broadcast of one phase of count elements on ci runs (sub_bcast_on's choice): the
// circulant pipeline `pipe`, or where degree >= 2 a k-ary tree of one block of that degree
// (one_block_tree_for), and the model's predicted time of what runs. All zero for p = 1 or
// nothing to send. scatter_allgather: the phase ran the scatter + all-gather instead;
// knomial_ports > 0: the k-nomial tree of one block on that many ports (bcast_knomial.h)
// instead (PhaseVariant; never in a plan of phase_plan's).
struct PhasePlan {
  Pipeline pipe{0, 0, false};
  int degree = 0;
  double seconds = 0;
  bool scatter_allgather = false;
  int knomial_ports = 0;
  // Runs the circulant pipeline (not a tree, not the scatter + all-gather).
  bool pipelined() const { return !scatter_allgather && knomial_ports == 0 && degree < 2; }
  // Sends the message as one block (a one-block tree, a pipeline of one block, or nothing).
  bool one_block() const { return !scatter_allgather && (!pipelined() || pipe.n <= 1); }
};
PhasePlan phase_plan(const CommInfo& ci, int count, const TypeInfo& type);

// How Rosched_Bcast's trial runs the phase over all ranks, or between the nodes, instead of as
// its plan says. window > 0: where that phase is a pipeline with synchronous sends, the pipeline
// with `window` rounds in flight instead of the model's (synchronous_window), also where the
// plan is a one-block tree. scatter_allgather: where every rank of the phase gets an element
// (count >= its ranks), the scatter + all-gather (bcast_scatter_allgather.h). knomial: where
// the message is at most kKnomialMaxBytes, the k-nomial tree of one block on the ports of
// knomial_ports (bcast_knomial.h). Otherwise, and for the phase within the nodes, the plan.
struct PhaseVariant {
  int window = 0;
  bool scatter_allgather = false;
  bool knomial = false;
};

// Broadcasts count elements of datatype from root over ci (arguments already checked): where
// the node layout is hierarchical (node_layout.h), the broadcast among the nodes, then within
// every node; else one phase over all ranks; each phase as sub_bcast_on chooses (the circulant
// pipeline or a k-ary tree of one block), the phase over all ranks or between the nodes as
// `variant` says (Rosched_Bcast's trial). On the message's bytes (bcast_rounds.h): one phase as
// bcast_planned, two phases always (their plans differ between ranks). Reported as `name`.
void node_aware_bcast_on(const CommInfo& ci, const char* name, void* buffer, int count,
                         MPI_Datatype datatype, const TypeInfo& type, int root,
                         PhaseVariant variant = {});

// The broadcast of one phase on the communicator sub (a node or a lane of node_layout.h): the
// pipelined circulant broadcast (Träff 2022, Alg. 6), its blocks and window from sub's cost
// model, or a k-ary tree of one block where that model predicts it faster
// (one_block_tree_for, bcast_kary_tree.h); nothing for one rank.
void sub_bcast_on(MPI_Comm sub, void* buffer, int count, MPI_Datatype datatype,
                  const TypeInfo& type, int root);

// Makes, collectively, what node_aware_bcast_on from root needs at its first call (the layout,
// the sub-communicators' cost models), so that a timed call measures the broadcast alone.
void node_aware_bcast_prepare(const CommInfo& ci, int root);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_BCAST_NODE_AWARE_H_
