// Rosched_Bcast_hypercube: Bin Jia's n-block hypercube broadcast extended to any p by
// cooperating pairs of processors (seeds/004, "The power of the hypercube: Optimal Broadcast"
// through the Main Theorem), walking sched/hypercube_schedule.h: n - 1 + ceil(log2 p) rounds,
// in each at most one block sent and one received (the hypercube partner in dimension j mod q,
// or the pair partner). Block size rule as for Rosched_Bcast (F = 1000, ROSCHED_HYPERCUBE_F to
// tune).
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/rosched_mpi.h"
#include "sched/hypercube_schedule.h"

extern "C" int Rosched_Bcast_hypercube(void* buffer, int count, MPI_Datatype datatype, int root,
                                       MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective("Rosched_Bcast_hypercube", comm, [&] {
    const auto [p, rank] = comm_info(comm);
    const TypeInfo type = check_bcast_args(comm, count, datatype, root, p);
    if (p == 1 || count == 0 || type.size == 0) return;
    const std::int64_t n = block_count(count, type.size, p, "ROSCHED_HYPERCUBE_F", 1000.0);
    walk_bcast(rosched::HypercubeBcastSchedule(p, n, rank, root), buffer, count, datatype,
               type.extent, private_comm(comm));
  });
}
