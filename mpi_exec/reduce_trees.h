// The tree reductions the reductions of this library are made of: the pipelined two-tree
// reduction (Sanders, Speck, Träff 2009, as presented in Träff's lecture notes, section "Two
// (pipelined) binary trees"; reduce_two_tree.cc), the k-nomial (binomial for one port)
// reduction of one block (Träff's lecture notes, "Binomial tree reduction"; reduce_knomial.cc),
// and the choice between them by the cost model (reduce.cc). The pipelined ones walk their
// schedule descriptions (sched/round.h) with one ReduceWindow (reduce_window.h).
#ifndef ROSCHED_MPI_EXEC_REDUCE_TREES_H_
#define ROSCHED_MPI_EXEC_REDUCE_TREES_H_

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/reduce_window.h"
#include "sched/round.h"

namespace rosched::mpi {

// own holds this rank's count elements (nullptr: acc holds them on entry; ReduceWindow; for
// p = 1 nothing is done: tree_reduce copies own). Walks TwoTreeReduceSchedule(p, n, rank, sink)
// on the communicator's private duplicate: per round at most one block of partial results
// received (combined into acc on the side the schedule names, so rank order is kept) and one
// sent, several rounds in flight (nonblocking; the window of two_tree_pipeline). On return the
// sink's acc holds the reduction, x_0 op ... op x_{p-1} for sink 0 or p - 1 (any operation),
// and the same with x_sink moved last for another sink (commutative operations only).
void two_tree_reduce(const void* own, void* acc, int count, MPI_Datatype datatype,
                     const TypeInfo& type, MPI_Op op, int sink, const CommInfo& comm);

// The n-block reduction over the circulant graph (sched/circulant/reduce_schedule.h: Träff
// 2022's Alg. 6 broadcast run backwards) into the sink's acc, the same way: n - 1 + ceil(log2 p)
// rounds, per round at most one block received and one sent. Commutative operations only (the
// caller's to ensure): partial results are combined in the schedule's order, not rank order.
// Blocks and window: circulant_reduce_pipeline.
void circulant_reduce(const void* own, void* acc, int count, MPI_Datatype datatype,
                      const TypeInfo& type, MPI_Op op, int sink, const CommInfo& comm);

// The pipelined reduction over a complete k-ary tree (sched/kary/kary_tree_reduce.h: the k-ary
// tree broadcast run backwards; reduce_kary_tree.cc) into the sink's acc, the same way, with the
// broadcast's degree, blocks and window (kary_tree_plan.h). Commutative operations only (the
// caller's to ensure): a rank's subtree is not a range of ranks.
void kary_tree_reduce(const void* own, void* acc, int count, MPI_Datatype datatype,
                      const TypeInfo& type, MPI_Op op, int sink, const CommInfo& comm);

// The reduce-scatter + gather reduction (reduce_scatter_gather.cc) into the root's acc: the
// circulant reduce-scatter of p blocks (circulant_rounds.h), then each rank's reduced block sent
// to the root. Commutative operations only (the caller's to ensure).
void scatter_gather_reduce(void* acc, int count, MPI_Datatype datatype, const TypeInfo& type,
                           MPI_Op op, int root, const CommInfo& comm);
// The same with the n-port reduce-scatter (allgather_nway.h; n = nport_reduce_scatter_ports_to_run,
// allreduce_scatter_gather.h): ceil(log_(n+1) p) rounds of n messages, then the gather.
void nport_scatter_gather_reduce(void* acc, int count, MPI_Datatype datatype, const TypeInfo& type,
                                 MPI_Op op, int root, const CommInfo& comm);
// The model's estimate of nport_scatter_gather_reduce of `bytes` on p ranks and n ports: the
// n-port reduce-scatter's (nport_reduce_scatter_time, allreduce_scatter_gather.h), then the
// gather's p - 1 blocks of bytes / p arriving at the root at once (fan_time).
double nport_reduce_time(const CostModel& model, int p, int n, double bytes);

// The same over KnomialReduceSchedule(p, ports, rank, sink): the whole vector as one block,
// ceil(log_{ports+1} p) levels (ports = 1: the binomial tree, ceil(log2 p) rounds), a level's
// receives and the cost model's window of rounds in flight. own is this rank's contribution,
// or nullptr if acc holds it already; acc is where the partial results are combined (count
// elements; its contents are ignored if own is given), or nullptr if own is given and this rank
// is not the sink: a leaf then sends own as it is, and an inner rank takes a scratch buffer.
// With one port the first partial result received lands in acc and is combined with own there
// (no copy of own). On return the sink's acc holds x_sink op x_sink+1 op ... (ranks taken from
// the sink on, cyclically): rank order for sink 0 (any operation), commutative operations only
// for another sink.
void knomial_reduce(const void* own, void* acc, int count, MPI_Datatype datatype,
                    const TypeInfo& type, MPI_Op op, int ports, int sink, const CommInfo& comm);

// The buffer this rank reduces into: the root's recvbuf, every other rank's `scratch` (made
// here, count elements, contents undefined).
void* accumulator(const CommInfo& ci, int root, void* recvbuf, int count, const TypeInfo& type,
                  std::optional<ScratchBuffer>& scratch);

// The tree a reduction of count elements on comm takes (the same on every rank, as the model
// is): for vectors up to the largest size the cost model (cost_model.h) measured below the
// eager limit, the k-nomial tree with the ports of knomial_ports_for (nway_allreduce.h), if its
// estimate (knomial_time) is no more than the pipelined reduction's (pipeline_time), or with the
// ports ROSCHED_REDUCE_PORTS sets, always; else the pipelined reduction: for a commutative
// operation the circulant one (circulant_reduce_pipeline's blocks), else the two trees
// (two_tree_pipeline's), which keep rank order. One port for p <= 2.
struct ReduceTree {
  // kScatterGather and kNportScatterGather (scatter_gather_reduce, nport_scatter_gather_reduce)
  // are never reduce_tree_for's answer: Rosched_Reduce's trial times them beside the tree
  // (reduce_decision), and the node-aware reduction's lane takes the second by the cost model
  // (lane_reduce_takes_nport, reduce_node_aware.h).
  // kKaryTree (kary_tree_reduce) is never its answer either: Rosched_Reduce's trial times it.
  enum Kind { kKnomial, kTwoTree, kCirculant, kScatterGather, kNportScatterGather, kKaryTree } kind;
  int ports;  // kKnomial: 1..64
};
ReduceTree reduce_tree_for(const CommInfo& comm, int count, const TypeInfo& type,
                           bool commutative);
// reduce_tree_for's tree, and the one it passed over where both apply (p > 2, a vector up to
// the model's largest size below the eager limit, ROSCHED_REDUCE_PORTS not set): the k-nomial
// tree or the pipelined reduction. Rosched_Reduce's trial times both, as the model's estimates
// of the two can be close and wrong either way.
struct ReduceTrees {
  ReduceTree chosen;
  std::optional<ReduceTree> other;
};
ReduceTrees reduce_trees_for(const CommInfo& comm, int count, const TypeInfo& type,
                             bool commutative);

// Rosched_Reduce's decision for a call (reduce.cc; library_choice.h), the answers of
// Rosched_Reduce_choice. With `choose` (Rosched_Reduce, p > 1): the library's MPI_Reduce where a
// trial found it faster (or ROSCHED_REDUCE=native), the node-aware reduction, the
// reduce-scatter + gather reduction (circulant or on n ports), the k-ary tree reduction or the
// tree reduce_trees_for passed over where a trial found that faster, else rosched's tree; timed:
// this call times those that apply (answer and tree are then the tree's, what runs without a
// trial). Without it: the tree.
// clang-format off
enum ReduceAnswer {
  kReduceLibrary = 0, kReduceKnomial = 1, kReduceTwoTree = 2, kReduceNodeAware = 3,
  kReduceCirculant = 4, kReduceScatterGather = 5, kReduceNportScatterGather = 6,
  kReduceKaryTree = 7
};
// clang-format on
struct ReduceDecision {
  int answer = kReduceLibrary;
  bool timed = false;
  bool node_aware_applies = false;  // asked where timed or where a trial chose it
  bool scatter_gather_applies = false;  // with `choose`: timed, or chosen by a trial
  bool nport_applies = false;           // the same for the n-port reduce-scatter + gather
  bool kary_applies = false;            // the same for the k-ary tree reduction
  ReduceTree tree{ReduceTree::kKnomial, 1};  // answers 1, 2, 4, 5, 6 and 7
  std::optional<ReduceTree> other_tree;      // timed: reduce_trees_for's other tree, if any
};
// The answer (kReduceKnomial, kReduceTwoTree, kReduceCirculant, kReduceScatterGather,
// kReduceNportScatterGather, kReduceKaryTree) of a tree.
int tree_answer(const ReduceTree& tree);
ReduceDecision reduce_decision(const CommInfo& ci, bool choose, int count, const TypeInfo& type,
                               MPI_Op op, bool commutative);

// Whether op is commutative (MPI_Op_commutative).
bool is_commutative(MPI_Op op);

// What Rosched_Reduce_node_aware runs, the answer of Rosched_Reduce_node_aware_choice: the
// node-aware reduction where it applies (node_aware_reduce_applies), else the tree of
// reduce_decision without a choice (kReduceKnomial, kReduceTwoTree or kReduceCirculant).
int node_aware_reduce_answer(const CommInfo& ci, int count, const TypeInfo& type, MPI_Op op);

// The answers of Rosched_Allreduce_choice (allreduce_census.cc: allreduce_decision) and, 5 and 6
// only, of Rosched_Allreduce_node_aware_choice (allreduce_two_tree.cc), which also answers
// kAllreduceLanes.
// clang-format off
enum AllreduceAnswer {
  kAllreduceLibrary = 0, kAllreduceCensus = 1, kAllreduceScatterGather = 2, kAllreduceLanes = 3,
  kAllreduceNway = 4, kAllreduceTwoTree = 5, kAllreduceNodeAware = 6, kAllreduceKnomial = 7,
  kAllreduceNport = 8
};
// clang-format on

// knomial_reduce, two_tree_reduce, circulant_reduce, scatter_gather_reduce,
// nport_scatter_gather_reduce or kary_tree_reduce, as the tree says, with own holding this rank's
// contribution (nullptr: acc holds it; the scatter + gathers copy own into acc first, the trees do
// not); commutative operations unless sink is 0 and the tree is the k-nomial or the two trees
// (which keep rank order then). On return the sink's acc holds the reduction; another rank's acc
// holds nothing of use.
void tree_reduce(const ReduceTree& tree, const void* own, void* acc, int count,
                 MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int sink,
                 const CommInfo& comm);

// The doubly pipelined two-tree all-reduce (allreduce_two_tree.cc): own holds this rank's
// contribution (nullptr: acc holds it), acc is where it reduces (rank 0's may be result; on other
// ranks neither own nor acc may overlap result), result receives the reduction over all ranks of
// comm, in rank order (any operation).
void two_tree_allreduce(const void* own, void* acc, void* result, int count,
                        MPI_Datatype datatype, const TypeInfo& type, MPI_Op op,
                        const CommInfo& comm);

// The two-tree all-reduce of input (recvbuf itself: in place) into recvbuf on every rank of ci,
// count > 0 elements, any operation (rank order kept); p = 1 a copy.
void two_tree_allreduce_on(const CommInfo& ci, const void* input, void* recvbuf, int count,
                           MPI_Datatype datatype, const TypeInfo& type, MPI_Op op);

// The blocks and the rounds in flight both two-tree reductions use: the cost model's optimum for
// the two-tree schedule's rounds (pipeline_for), or the rule of block_count with
// ROSCHED_TWOTREE_F if set.
Pipeline two_tree_pipeline(const CommInfo& comm, int count, const TypeInfo& type);
// The rounds beyond n that two_tree_pipeline and Rosched_Reduce's prediction count for p ranks.
std::int64_t two_tree_reduce_extra(int p);

// The same for the circulant reduction: the cost model's optimum for its n - 1 + ceil(log2 p)
// rounds, or the rule of block_count with ROSCHED_BCAST_F (the circulant broadcast's) if set.
Pipeline circulant_reduce_pipeline(const CommInfo& comm, int count, const TypeInfo& type);
// The model's estimate of the circulant reduction of `bytes` in `blocks` blocks on p ranks:
// pipeline_time of its blocks - 1 + ceil(log2 p) rounds.
double circulant_reduce_time(const CostModel& model, int p, double bytes, std::int64_t blocks);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_REDUCE_TREES_H_
