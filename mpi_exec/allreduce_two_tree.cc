// Rosched_Allreduce_two_tree: MPI_Allreduce as the two-tree reduction to rank 0 and the two-tree
// broadcast from rank 0 (Sanders, Speck, Träff 2009, as presented in Träff's lecture notes,
// section "Two (pipelined) binary trees"): any operation, commutative or not (rank order is
// kept), any size. The two phases overlap, as in the lecture's doubly pipelined all-reduce: the
// broadcast runs `delay` rounds behind the reduction, and rank 0 sends a block as soon as its
// reduction is complete, so the whole takes about n + 2 log p rounds rather than 2 n + 2 log p.
// Every rank other than 0 reduces in a copy of its contribution, so the broadcast writes the
// result into recvbuf while the reduction still reads and sends the partial results.
#include <algorithm>
#include <optional>
#include <vector>

#include "mpi_exec/allreduce_lanes.h"
#include "mpi_exec/args.h"
#include "mpi_exec/bcast_node_aware.h"
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/last_run.h"
#include "mpi_exec/library_choice.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/reduce_node_aware.h"
#include "mpi_exec/reduce_trees.h"
#include "mpi_exec/rosched_mpi.h"
#include "sched/two_tree/two_tree_schedule.h"

namespace rosched::mpi {
namespace {

// The reduction schedule is the broadcast run backwards, so rank 0 completes the blocks in the
// reverse of the order in which the broadcast sends them. Mirrored block numbers (b for
// n - 1 - b, the same on every rank; blocks are independent reductions) make it complete them
// in the order they are sent.
rosched::ReduceRound mirrored(rosched::ReduceRound r, std::int64_t n) {
  if (r.send) r.send->block = n - 1 - r.send->block;
  if (r.recv) r.recv->block = n - 1 - r.recv->block;
  return r;
}

// The rounds the broadcast starts after the reduction: the least D >= 0 such that for every
// block b, rank 0's last receive of b in the (mirrored) reduction (round LR(b)) comes before its first send
// of b in the broadcast (round FS(b) + D of the combined walk). Rank 0 then has posted every
// receive of a block when it is to send it, and ReduceWindow::combine_block completes them. A
// pure function of p and n, so every rank computes the same D. O(rounds).
std::int64_t bcast_delay(int p, std::int64_t n) {
  const rosched::TwoTreeReduceSchedule reduce(p, n, 0, 0);
  const rosched::TwoTreeBcastSchedule bcast(p, n, 0, 0);
  std::vector<std::int64_t> last_recv(static_cast<std::size_t>(n), -1);
  std::vector<std::int64_t> first_send(static_cast<std::size_t>(n), -1);
  for (std::int64_t i = 0; i < reduce.rounds(); ++i) {
    const rosched::ReduceRound r = mirrored(reduce.round(i), n);
    if (r.recv) last_recv[static_cast<std::size_t>(r.recv->block)] = i;
  }
  for (std::int64_t i = 0; i < bcast.rounds(); ++i) {
    const rosched::BcastRound r = bcast.round(i);
    if (r.send && first_send[static_cast<std::size_t>(r.send->block)] < 0) {
      first_send[static_cast<std::size_t>(r.send->block)] = i;
    }
  }
  std::int64_t delay = 0;
  for (std::size_t b = 0; b < last_recv.size(); ++b) {
    if (first_send[b] >= 0) delay = std::max(delay, last_recv[b] - first_send[b] + 1);
  }
  return delay;
}

}  // namespace

// The overlapped walk: round i of the combined walk is reduction round i and broadcast round
// i - delay.
void two_tree_allreduce(const void* own, void* acc, void* result, int count,
                        MPI_Datatype datatype, const TypeInfo& type, MPI_Op op,
                        const CommInfo& ci) {
  const int p = ci.p, rank = ci.rank;
  const MPI_Comm c = ci.c;
  const Pipeline pipe = two_tree_pipeline(ci, count, type);
  tell_choice(ci, "two-tree allreduce", "pipelined, overlapped", pipe.n, pipe.window,
              static_cast<double>(count) * type.size);
  const rosched::TwoTreeReduceSchedule reduction(p, pipe.n, rank, 0);
  const rosched::TwoTreeBcastSchedule broadcast(p, pipe.n, rank, 0);
  const std::int64_t delay = bcast_delay(p, pipe.n);
  ReduceWindow reduce(acc, count, pipe.n, datatype, type, op, pipe.window, reduction.rounds(), c,
                      own);
  BcastWindow bcast(result, count, datatype, type, pipe.n, rank == 0, pipe.window,
                    pipe.synchronous, c);
  const std::int64_t rounds = std::max(reduction.rounds(), broadcast.rounds() + delay);
  for (std::int64_t i = 0; i < rounds; ++i) {
    if (i < reduction.rounds()) {
      const rosched::ReduceRound r = mirrored(reduction.round(i), pipe.n);
      if (r.send || r.recv) reduce.round(r);
    }
    const std::int64_t j = i - delay;
    if (j < 0 || j >= broadcast.rounds()) continue;
    const rosched::BcastRound b = broadcast.round(j);
    if (rank == 0 && b.send) reduce.combine_block(b.send->block);
    bcast.round(j, b);
  }
  reduce.finish();
  bcast.finish();
}

void two_tree_allreduce_on(const CommInfo& ci, const void* input, void* recvbuf, int count,
                           MPI_Datatype datatype, const TypeInfo& type, MPI_Op op) {
  if (ci.p == 1) {
    if (input != recvbuf) local_copy(input, recvbuf, count, datatype);
    return;
  }
  std::optional<ScratchBuffer> scratch;  // every rank but 0 reduces in a buffer of its own
  if (ci.rank != 0) scratch.emplace(type, count);
  void* acc = scratch ? scratch->data() : recvbuf;
  // The input stays where it is, unless it is recvbuf (in place): rank 0 reduces in it, and on
  // another rank the broadcast's receives would overwrite blocks still being sent from it, so
  // there acc takes a copy.
  const bool in_place = input == recvbuf;
  if (in_place && ci.rank != 0) local_copy(input, acc, count, datatype);
  two_tree_allreduce(in_place ? nullptr : input, acc, recvbuf, count, datatype, type, op, ci);
}

}  // namespace rosched::mpi

namespace {

// What Rosched_Allreduce_node_aware runs, the answer of its query: for a commutative operation
// on several multicore nodes, where the nodes are equal, the lane all-reduces of
// allreduce_lanes.h (n-way in the node and the lane for short vectors, multi-lane for long
// ones), else the node-aware reduction to rank 0 and the node-aware broadcast from it, one
// after the other; else the two-tree all-reduce.
int node_aware_allreduce_answer(const rosched::mpi::CommInfo& ci, MPI_Op op) {
  using namespace rosched::mpi;
  int commutative = 0;
  check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
  if (commutative && lane_allreduce_applies(ci)) return kAllreduceLanes;
  return node_aware_reduce_applies(ci, op) ? kAllreduceNodeAware : kAllreduceTwoTree;
}

// Rosched_Allreduce_two_tree (always the doubly pipelined two-tree all-reduce) and
// Rosched_Allreduce_node_aware (node_aware_allreduce_answer).
int allreduce(const char* name, bool node_aware, const void* sendbuf, void* recvbuf, int count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective(name, comm, [&](const CommInfo& ci) {
    const int rank = ci.rank;
    const MPI_Comm c = ci.c;
    Agreement agreement;
    agreement.same("count", count, MPI_ERR_COUNT);
    const TypeInfo type =
        check_arguments(c, agreement, [&] {
          check_not_aliased(sendbuf, recvbuf, count, MPI_ERR_BUFFER);
          return check_reduction(count, datatype, op);
        });
    // Rosched_Allreduce_node_aware records what it ran (last_run.h).
    const auto ran = [node_aware](int answer) {
      if (node_aware) set_last_run(Decided::kAllreduce, answer);
    };
    if (count == 0) return ran(kNothingRan);
    const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    const int answer = node_aware ? node_aware_allreduce_answer(ci, op) : kAllreduceTwoTree;
    if (answer == kAllreduceLanes) {
      lane_allreduce_on(ci, name, input, recvbuf, count, datatype, type, op);
      return ran(kAllreduceLanes);
    }
    if (answer == kAllreduceNodeAware &&
        node_aware_reduce_on(ci, rank == 0 && input == recvbuf ? nullptr : input, recvbuf, count,
                             datatype, type, op, 0)) {
      node_aware_bcast_on(ci, name, recvbuf, count, datatype, type, 0);
      return ran(kAllreduceNodeAware);
    }
    two_tree_allreduce_on(ci, input, recvbuf, count, datatype, type, op);
    ran(kAllreduceTwoTree);
  });
}

}  // namespace

extern "C" int Rosched_Allreduce_two_tree(const void* sendbuf, void* recvbuf, int count,
                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return allreduce("Rosched_Allreduce_two_tree", false, sendbuf, recvbuf, count, datatype, op,
                   comm);
}

extern "C" int Rosched_Allreduce_node_aware(const void* sendbuf, void* recvbuf, int count,
                                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return allreduce("Rosched_Allreduce_node_aware", true, sendbuf, recvbuf, count, datatype, op,
                   comm);
}

extern "C" int Rosched_Allreduce_node_aware_choice(MPI_Comm comm, int count, MPI_Datatype datatype,
                                                   MPI_Op op, int* algorithm) {
  using namespace rosched::mpi;
  return reduction_choice("Rosched_Allreduce_node_aware_choice", comm, count, datatype, op,
                          algorithm, [&](const CommInfo& ci, const TypeInfo&) {
                            return node_aware_allreduce_answer(ci, op);
                          });
}
