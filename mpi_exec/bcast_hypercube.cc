// Rosched_Bcast_hypercube: Bin Jia's n-block hypercube broadcast extended to any p by
// cooperating pairs of processors (Jia 2009, as presented in Träff's lecture notes "Advanced MPI
// implementations: Collectives", section "The power of the hypercube: Optimal Broadcast" through
// the Main Theorem), walking sched/hypercube/hypercube_schedule.h: n - 1 + ceil(log2 p) rounds,
// in each at most one block sent and one received (the hypercube partner in dimension j mod q,
// or the pair partner). Block count as for Rosched_Bcast_circulant (cost model;
// ROSCHED_HYPERCUBE_F to tune).
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/rosched_mpi.h"
#include "sched/hypercube/hypercube_schedule.h"

extern "C" int Rosched_Bcast_hypercube(void* buffer, int count, MPI_Datatype datatype, int root,
                                       MPI_Comm comm) {
  return rosched::mpi::pipelined_bcast<rosched::HypercubeBcastSchedule>(
      "Rosched_Bcast_hypercube", &rosched::mpi::Settings::hypercube_f, true, buffer, count,
      datatype, root, comm);
}
