// Rosched_Reduce_two_tree: MPI_Reduce over the two trees (Sanders, Speck, Träff 2009, as
// presented in Träff's lecture notes, section "Two (pipelined) binary trees"), walking
// sched/two_tree/two_tree_schedule.h, the broadcast run backwards. Order-preserving: subtrees
// are rank ranges combined in rank order, so no commutativity is assumed. For a non-commutative operation and a root other than 0 or p - 1
// the reduction goes to rank 0 and the result is then sent to the root (as MPICH does for
// non-commutative reductions): the root's own value cannot sit inside the trees' rank ranges.
#include "mpi_exec/two_tree_reduce.h"

#include <optional>
#include <string>

#include "mpi_exec/args.h"
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"
#include "sched/two_tree/two_tree_schedule.h"

namespace rosched::mpi {

std::int64_t two_tree_blocks(const CommInfo& comm, int count, const TypeInfo& type) {
  return pipeline_for(comm, settings().twotree_f, count, type,
                      extra_rounds<rosched::TwoTreeBcastSchedule>(comm.p))
      .n;
}

void two_tree_reduce(void* acc, int count, MPI_Datatype datatype, const TypeInfo& type,
                     MPI_Op op, int sink, const CommInfo& comm) {
  const auto [p, rank, c] = comm;
  if (p == 1 || count == 0) return;
  const std::int64_t n = two_tree_blocks(comm, count, type);
  tell_choice(comm, "two-tree reduction", "pipelined", n, 1,
              static_cast<double>(count) * type.size);
  const rosched::TwoTreeReduceSchedule schedule(p, n, rank, sink);
  TypedBuffer in(type, static_cast<int>((count + n - 1) / n));  // the largest block
  for (std::int64_t i = 0; i < schedule.rounds(); ++i) {
    const rosched::ReduceRound round = schedule.round(i);
    if (!round.send && !round.recv) continue;
    BlockSpan send{static_cast<char*>(acc), 0}, mine{static_cast<char*>(acc), 0};
    int to = MPI_PROC_NULL, from = MPI_PROC_NULL;
    if (round.send) {
      send = block_span(acc, round.send->block, count, n, type.extent);
      to = static_cast<int>(round.send->peer);
    }
    if (round.recv) {
      mine = block_span(acc, round.recv->block, count, n, type.extent);
      from = static_cast<int>(round.recv->peer);
    }
    check(PMPI_Sendrecv(send.at, send.count, datatype, to, tag::kReduceRound, in.data(), mine.count,
                       datatype, from, tag::kReduceRound, c, MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
    if (!round.recv || mine.count == 0) continue;
    if (round.recv_before_own) {  // mine = in op mine
      check(PMPI_Reduce_local(in.data(), mine.at, mine.count, datatype, op), "MPI_Reduce_local");
    } else {  // mine = mine op in, computed in `in` and copied back
      check(PMPI_Reduce_local(mine.at, in.data(), mine.count, datatype, op), "MPI_Reduce_local");
      local_copy(in.data(), mine.at, mine.count, datatype);
    }
  }
}

}  // namespace rosched::mpi

extern "C" int Rosched_Reduce_two_tree(const void* sendbuf, void* recvbuf, int count,
                                       MPI_Datatype datatype, MPI_Op op, int root,
                                       MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective("Rosched_Reduce_two_tree", comm, [&](const CommInfo& ci) {
    const auto [p, rank, c] = ci;
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
    int commutative = 0;
    check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
    const int sink = commutative || root == 0 || root == p - 1 ? root : 0;
    if (count == 0) return;
    // The root accumulates in recvbuf, every other rank in a copy of its contribution.
    std::optional<TypedBuffer> scratch;
    if (rank != root) scratch.emplace(type, count);
    void* acc = rank == root ? recvbuf : scratch->data();
    if (!in_place) local_copy(sendbuf, acc, count, datatype);
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
