// The k-nomial tree reduction of one block, binomial for one port (Träff's lecture notes,
// "Binomial tree reduction" and "Final remark: binomial and k-nomial trees";
// sched/knomial/knomial_reduce.h): ceil(log_{n+1} p) levels of the whole vector, n children's
// partial results in flight at once, the reduction of this library for vectors too short to
// pipeline (reduce.cc decides).
#include <algorithm>
#include <cstdio>
#include <optional>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/reduce_trees.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"
#include "sched/knomial/knomial_reduce.h"

namespace rosched::mpi {

void knomial_reduce(const void* own, void* acc, int count, MPI_Datatype datatype,
                    const TypeInfo& type, MPI_Op op, int ports, int sink, const CommInfo& comm) {
  if (count == 0) return;
  const MPI_Comm c = comm.c;
  const rosched::KnomialReduceSchedule schedule(comm.p, ports, comm.rank, sink);
  const double bytes = static_cast<double>(count) * type.size;
  // A level's receives all in flight, and as many rounds as the model says for one port.
  const int window = comm.p <= 2 ? 1 : std::max(ports, window_rounds(cost_model(comm), bytes));
  if (comm.p > 1 && settings().verbose) {
    char tree[48];
    std::snprintf(tree, sizeof tree, "%d-nomial tree (%d ports)", ports + 1, ports);
    tell_choice(comm, "reduction", ports == 1 ? "binomial tree" : tree, 1, window, bytes);
  }
  std::optional<ScratchBuffer> scratch;
  std::optional<ReduceWindow> walk;  // once a partial result has been combined into acc
  for (std::int64_t t = 0; t < schedule.rounds(); ++t) {
    const rosched::ReduceRound round = schedule.round(t);
    if (!round.send && !round.recv) continue;
    if (round.recv && own != nullptr) {
      if (acc == nullptr) acc = scratch.emplace(type, count).data();
      if (ports == 1) {
        // The first child's partial result lands in acc, and acc = own op acc: no copy of own.
        check(PMPI_Recv(acc, count, datatype, static_cast<int>(round.recv->peer),
                        tag::kReduceRound, c, MPI_STATUS_IGNORE),
              "MPI_Recv");
        check(PMPI_Reduce_local(own, acc, count, datatype, op), "MPI_Reduce_local");
        own = nullptr;
        continue;
      }
      local_copy(own, acc, count, datatype);  // several children at once: own goes first
      own = nullptr;
    }
    if (round.send && !walk) {  // nothing in flight: one blocking send, and done
      check(PMPI_Send(own != nullptr ? own : acc, count, datatype,
                      static_cast<int>(round.send->peer), tag::kReduceRound, c),
            "MPI_Send");
      return;
    }
    if (!walk) walk.emplace(acc, count, 1, datatype, type, op, window, schedule.rounds() - t, c);
    walk->round(round);
  }
  if (walk) walk->finish();
  if (own != nullptr && acc != nullptr) local_copy(own, acc, count, datatype);  // p = 1
}

}  // namespace rosched::mpi
