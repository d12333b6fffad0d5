// An irregular all-gather whose largest contribution is most of the data: that block goes by
// Rosched_Bcast's broadcast (the library's MPI_Bcast or rosched's circulant, hypercube or
// two-tree broadcast, whichever its choice found fastest for the block's size), then the other
// blocks by Träff 2022's Algorithm 9 (allgatherv_circulant.cc).
//
// Why: Algorithm 9 splits every contribution into the same number of blocks, which it takes
// from the total size (block_count.h). With one rank holding 99% of the data the all-gather is
// in effect a broadcast of that block, and on a network whose links all ranks share a
// broadcast tree can move it faster than the circulant graph: at 1,152 ranks on SimGrid SMPI's
// `flat` platform the two-tree broadcast of 1 MiB took 904 us where the circulant broadcast took
// 1,280 and Algorithm 9 with rank 0 holding 99% of 1 MiB 1,190 (docs/sim/flat_1152.md). The other
// blocks are then a short all-gather, latency-bound. Rosched_Allgatherv times this against
// Algorithm 9 and the library's MPI_Allgatherv where the largest block is at least half of the
// data (allgatherv.cc); Rosched_Allgatherv_largest always runs it.
#include <vector>

#include "mpi_exec/allgatherv_circulant.h"
#include "mpi_exec/bcast_choice.h"
#include "mpi_exec/message_bytes.h"

namespace rosched::mpi {

void largest_bcast_allgatherv_on(const CommInfo& ci, const char* name, char* base,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                 const TypeInfo& rtype) {
  const int p = ci.p;
  if (p == 1) return;
  const int root = largest_block(recvcounts, p);
  chosen_bcast_on(ci, "Rosched_Allgatherv (the largest block's broadcast)",
                  base + static_cast<MPI_Aint>(displs[root]) * rtype.extent, recvcounts[root],
                  recvtype, rtype, root);
  thread_local std::vector<int> rest;  // its storage kept for the next call
  rest.assign(recvcounts, recvcounts + p);
  rest[static_cast<std::size_t>(root)] = 0;
  circulant_allgatherv_on(ci, name, base, rest.data(), displs, recvtype, rtype);
}

}  // namespace rosched::mpi
