// Rosched_Bcast: the n-block circulant broadcast, Algorithm 6 of Träff 2022 (Sec. 2.2),
// walking sched/circulant/bcast_schedule.h. Block size rule of Träff 2022, Sec. 3.1
// (block_count.h): about F * sqrt(m / ceil(log2 p)) bytes for a message of m bytes. F = 1000 by
// default: measured here (Open MPI 4.1 shared memory, p = 2, 4, 8, F from 25 to 3,200)
// F = 800..1,600 was best; the paper used 80..120 on a cluster. Set ROSCHED_BCAST_F to tune
// (read once, at the first call). Blocks are whole elements of the user's datatype.
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/rosched_mpi.h"
#include "sched/circulant/bcast_schedule.h"

extern "C" int Rosched_Bcast(void* buffer, int count, MPI_Datatype datatype, int root,
                             MPI_Comm comm) {
  return rosched::mpi::pipelined_bcast<rosched::BcastSchedule>(
      "Rosched_Bcast", &rosched::mpi::Settings::bcast_f, buffer, count, datatype, root, comm);
}
