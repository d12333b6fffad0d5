// The binomial-tree reduction of one block (Träff's lecture notes, "Binomial tree reduction";
// sched/binomial/binomial_reduce.h): ceil(log2 p) rounds of the whole vector, the reduction of
// this library for vectors too short to pipeline (reduce.cc decides).
#include "mpi_exec/cost_model.h"
#include "mpi_exec/reduce_trees.h"
#include "sched/binomial/binomial_reduce.h"

namespace rosched::mpi {

void binomial_reduce(void* acc, int count, MPI_Datatype datatype, const TypeInfo& type,
                     MPI_Op op, int sink, const CommInfo& comm) {
  if (comm.p == 1 || count == 0) return;
  const double bytes = static_cast<double>(count) * type.size;
  const int window = comm.p == 2 ? 1 : window_rounds(cost_model(comm), bytes);
  tell_choice(comm, "reduction", "binomial tree", 1, window, bytes);
  const rosched::BinomialReduceSchedule schedule(comm.p, comm.rank, sink);
  ReduceWindow walk(acc, count, 1, datatype, type, op, window, schedule.rounds(), comm.c);
  for (std::int64_t k = 0; k < schedule.rounds(); ++k) {
    const rosched::ReduceRound round = schedule.round(k);
    if (round.send || round.recv) walk.round(round);
  }
  walk.finish();
}

}  // namespace rosched::mpi
