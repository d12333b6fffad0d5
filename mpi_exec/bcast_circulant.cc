// Rosched_Bcast: the n-block circulant broadcast, Algorithm 6 of Träff 2022 (seeds/001 Sec. 2.2),
// walking sched/bcast_schedule.h. Block size rule of Sec. 3.1: about F * sqrt(m / ceil(log2 p))
// bytes for a message of m bytes. F = 1000 by default: measured here (Open MPI 4.1 shared
// memory, p = 2, 4, 8, F from 25 to 3,200) F = 800..1,600 was best; the paper used 80..120 on
// a cluster. Set ROSCHED_BCAST_F to tune. Blocks are whole elements of the user's datatype.
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/rosched_mpi.h"
#include "sched/bcast_schedule.h"

extern "C" int Rosched_Bcast(void* buffer, int count, MPI_Datatype datatype, int root,
                             MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective("Rosched_Bcast", comm, [&] {
    const auto [p, rank] = comm_info(comm);
    const TypeInfo type = check_bcast_args(comm, count, datatype, root, p);
    if (p == 1 || count == 0 || type.size == 0) return;
    const std::int64_t n = block_count(count, type.size, p, "ROSCHED_BCAST_F", 1000.0);
    walk_bcast(rosched::BcastSchedule(p, n, rank, root), buffer, count, datatype, type.extent,
               private_comm(comm));
  });
}
