// The binomial-tree reduction of one block (Träff's lecture notes, "Binomial tree reduction";
// sched/binomial/binomial_reduce.h): ceil(log2 p) rounds of the whole vector, the reduction of
// this library for vectors too short to pipeline (reduce.cc decides).
#include <optional>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/reduce_trees.h"
#include "mpi_exec/tags.h"
#include "sched/binomial/binomial_reduce.h"

namespace rosched::mpi {

void binomial_reduce(const void* own, void* acc, int count, MPI_Datatype datatype,
                     const TypeInfo& type, MPI_Op op, int sink, const CommInfo& comm) {
  if (count == 0) return;
  const MPI_Comm c = comm.c;
  const rosched::BinomialReduceSchedule schedule(comm.p, comm.rank, sink);
  const double bytes = static_cast<double>(count) * type.size;
  const int window = comm.p <= 2 ? 1 : window_rounds(cost_model(comm), bytes);
  if (comm.p > 1) tell_choice(comm, "reduction", "binomial tree", 1, window, bytes);
  std::optional<ScratchBuffer> scratch;
  std::optional<ReduceWindow> walk;  // from the second receive on
  for (std::int64_t k = 0; k < schedule.rounds(); ++k) {
    const rosched::ReduceRound round = schedule.round(k);
    if (round.recv && own != nullptr) {
      // The first child's partial result lands in acc, and acc = own op acc: no copy of own.
      if (acc == nullptr) acc = scratch.emplace(type, count).data();
      check(PMPI_Recv(acc, count, datatype, static_cast<int>(round.recv->peer), tag::kReduceRound,
                      c, MPI_STATUS_IGNORE),
            "MPI_Recv");
      check(PMPI_Reduce_local(own, acc, count, datatype, op), "MPI_Reduce_local");
      own = nullptr;
    } else if (round.send && !walk) {  // nothing in flight: one blocking send, and done
      check(PMPI_Send(own != nullptr ? own : acc, count, datatype,
                      static_cast<int>(round.send->peer), tag::kReduceRound, c),
            "MPI_Send");
      return;
    } else if (round.send || round.recv) {
      if (!walk) walk.emplace(acc, count, 1, datatype, type, op, window, schedule.rounds() - k, c);
      walk->round(round);
    }
  }
  if (walk) walk->finish();
  if (own != nullptr && acc != nullptr) local_copy(own, acc, count, datatype);  // p = 1
}

}  // namespace rosched::mpi
