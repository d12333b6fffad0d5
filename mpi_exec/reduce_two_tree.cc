// Rosched_Reduce_two_tree: MPI_Reduce over the two trees (Sanders, Speck, Träff 2009, as
// presented in Träff's lecture notes, section "Two (pipelined) binary trees"), walking
// sched/two_tree/two_tree_schedule.h, the broadcast run backwards. Order-preserving: subtrees
// are rank ranges combined in rank order, so no commutativity is assumed. For a non-commutative operation and a root other than 0 or p - 1
// the reduction goes to rank 0 and the result is then sent to the root (as MPICH does for
// non-commutative reductions): the root's own value cannot sit inside the trees' rank ranges.
#include "mpi_exec/two_tree_reduce.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "mpi_exec/args.h"
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/reduce_node_aware.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"
#include "sched/two_tree/two_tree_schedule.h"

namespace rosched::mpi {

Pipeline two_tree_pipeline(const CommInfo& comm, int count, const TypeInfo& type) {
  return pipeline_for(comm, settings().twotree_f, count, type,
                      extra_rounds<rosched::TwoTreeBcastSchedule>(comm.p));
}

ReduceWindow::ReduceWindow(void* acc, int count, std::int64_t n, MPI_Datatype datatype,
                           const TypeInfo& type, MPI_Op op, int window, std::int64_t rounds,
                           MPI_Comm c)
    : acc_(acc), count_(count), n_(n), datatype_(datatype), type_(type), op_(op), c_(c) {
  int commutative = 0;
  check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
  commutative_ = commutative != 0;
  const int largest = static_cast<int>((count + n - 1) / n);
  const int slots =
      static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(window, rounds)));
  slots_.reserve(static_cast<std::size_t>(slots));
  for (int k = 0; k < slots; ++k) slots_.emplace_back(type, largest);
}

ReduceWindow::Slot& ReduceWindow::slot_of(std::int64_t k) {
  return slots_[static_cast<std::size_t>(k % static_cast<std::int64_t>(slots_.size()))];
}

void ReduceWindow::round(const ReduceRound& r) {
  const std::int64_t k = posted_++;
  Slot& slot = slot_of(k);
  if (k >= static_cast<std::int64_t>(slots_.size())) {  // the slot's previous round
    combine_through(k - static_cast<std::int64_t>(slots_.size()));
    check(PMPI_Wait(&slot.send, MPI_STATUS_IGNORE), "MPI_Wait");
  }
  slot.block = -1;
  if (r.recv) {
    slot.block = r.recv->block;
    slot.mine = block_span(acc_, r.recv->block, count_, n_, type_.extent);
    slot.recv_before_own = r.recv_before_own;
    check(PMPI_Irecv(slot.in.data(), slot.mine.count, datatype_, static_cast<int>(r.recv->peer),
                     tag::kReduceRound, c_, &slot.recv),
          "MPI_Irecv");
  }
  if (r.send) {
    combine_block(r.send->block, k);  // every earlier receive of it, before it leaves
    const BlockSpan send = block_span(acc_, r.send->block, count_, n_, type_.extent);
    check(PMPI_Isend(send.at, send.count, datatype_, static_cast<int>(r.send->peer),
                     tag::kReduceRound, c_, &slot.send),
          "MPI_Isend");
  }
}

void ReduceWindow::combine_block(std::int64_t block, std::int64_t before) {
  for (std::int64_t j = before - 1; j >= combined_; --j) {
    if (slot_of(j).block == block) {
      combine_through(j);
      return;
    }
  }
}

void ReduceWindow::finish() {
  combine_through(posted_ - 1);
  for (Slot& slot : slots_) check(PMPI_Wait(&slot.send, MPI_STATUS_IGNORE), "MPI_Wait");
}

void ReduceWindow::combine_through(std::int64_t k) {
  for (; combined_ <= k; ++combined_) {
    Slot& slot = slot_of(combined_);
    if (slot.block < 0) continue;
    check(PMPI_Wait(&slot.recv, MPI_STATUS_IGNORE), "MPI_Wait");
    slot.block = -1;
    if (slot.mine.count == 0) continue;
    if (slot.recv_before_own || commutative_) {  // mine = in op mine
      check(PMPI_Reduce_local(slot.in.data(), slot.mine.at, slot.mine.count, datatype_, op_),
            "MPI_Reduce_local");
    } else {  // mine = mine op in, computed in `in` and copied back
      check(PMPI_Reduce_local(slot.mine.at, slot.in.data(), slot.mine.count, datatype_, op_),
            "MPI_Reduce_local");
      local_copy(slot.in.data(), slot.mine.at, slot.mine.count, datatype_);
    }
  }
}

void two_tree_reduce(void* acc, int count, MPI_Datatype datatype, const TypeInfo& type,
                     MPI_Op op, int sink, const CommInfo& comm) {
  const int p = comm.p, rank = comm.rank;
  const MPI_Comm c = comm.c;
  if (p == 1 || count == 0) return;
  const Pipeline pipe = two_tree_pipeline(comm, count, type);
  tell_choice(comm, "two-tree reduction", "pipelined", pipe.n, pipe.window,
              static_cast<double>(count) * type.size);
  const rosched::TwoTreeReduceSchedule schedule(p, pipe.n, rank, sink);
  ReduceWindow window(acc, count, pipe.n, datatype, type, op, pipe.window, schedule.rounds(), c);
  for (std::int64_t i = 0; i < schedule.rounds(); ++i) {
    const rosched::ReduceRound round = schedule.round(i);
    if (round.send || round.recv) window.round(round);
  }
  window.finish();
}

}  // namespace rosched::mpi

namespace {

// Rosched_Reduce_two_tree (flat) and Rosched_Reduce_node_aware (node_aware_reduce_on where it
// applies, else flat).
int reduce(const char* name, bool node_aware, const void* sendbuf, void* recvbuf, int count,
           MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective(name, comm, [&](const CommInfo& ci) {
    const int p = ci.p, rank = ci.rank;
    const MPI_Comm c = ci.c;
    const bool in_place = sendbuf == MPI_IN_PLACE;
    Agreement agreement;
    agreement.same("root", root, MPI_ERR_ROOT).same("count", count, MPI_ERR_COUNT);
    const TypeInfo type = check_arguments(c, agreement, [&] {
      check_root(root, p);
      if (in_place && rank != root) {
        throw Error(MPI_ERR_BUFFER, "sendbuf = MPI_IN_PLACE off the root (root only)");
      }
      return check_reduction(count, datatype, op);
    });
    if (count == 0) return;
    // The root accumulates in recvbuf, every other rank in a copy of its contribution.
    std::optional<ScratchBuffer> scratch;
    if (rank != root) scratch.emplace(type, count);
    void* acc = rank == root ? recvbuf : scratch->data();
    if (!in_place) local_copy(sendbuf, acc, count, datatype);
    if (node_aware && node_aware_reduce_on(ci, acc, recvbuf, count, datatype, type, op, root)) {
      return;
    }
    int commutative = 0;
    check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
    const int sink = commutative || root == 0 || root == p - 1 ? root : 0;
    two_tree_reduce(acc, count, datatype, type, op, sink, ci);
    if (sink != root) {
      if (rank == sink) {
        check(PMPI_Send(acc, count, datatype, root, tag::kReduceToRoot, c), "MPI_Send");
      } else if (rank == root) {
        check(PMPI_Recv(recvbuf, count, datatype, sink, tag::kReduceToRoot, c, MPI_STATUS_IGNORE),
              "MPI_Recv");
      }
    }
  });
}

}  // namespace

extern "C" int Rosched_Reduce_two_tree(const void* sendbuf, void* recvbuf, int count,
                                       MPI_Datatype datatype, MPI_Op op, int root,
                                       MPI_Comm comm) {
  return reduce("Rosched_Reduce_two_tree", false, sendbuf, recvbuf, count, datatype, op, root,
                comm);
}

extern "C" int Rosched_Reduce_node_aware(const void* sendbuf, void* recvbuf, int count,
                                         MPI_Datatype datatype, MPI_Op op, int root,
                                         MPI_Comm comm) {
  return reduce("Rosched_Reduce_node_aware", true, sendbuf, recvbuf, count, datatype, op, root,
                comm);
}
