// Rosched_Bcast_scatter_allgather: the broadcast of a scatter followed by an all-gather (van de
// Geijn's long-message broadcast, as in Barnett et al. 1994 and MPICH's MPI_Bcast for long
// messages): the message is cut into p blocks (block b: count / p elements, one more for
// b < count mod p), the root sends block b to rank b (root_blocks.h, all p - 1 sends at once),
// then Träff 2022's regular all-gather (Alg. 7 over the circulant graph, circulant_rounds.h:
// ceil(log2 p) rounds, streamed in parts where the cost model says so) gives every rank every
// block. The root's link carries the message once, and every rank receives (p - 1) / p of it
// twice over; where a message's latency outweighs its transfer (SimGrid SMPI's large messages),
// these streamed rounds beat the pipelined broadcasts' n - 1 + ceil(log2 p) rounds that each wait
// for the block before (docs/sim/reduce_scatter_gather.md).
#include "mpi_exec/bcast_scatter_allgather.h"

#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/circulant_rounds.h"
#include "mpi_exec/root_blocks.h"
#include "mpi_exec/rosched_mpi.h"

namespace rosched::mpi {

void scatter_allgather_bcast_on(const CommInfo& ci, void* buffer, int count,
                                MPI_Datatype datatype, const TypeInfo& type, int root) {
  if (ci.p == 1 || count == 0 || type.size == 0) return;
  const BlockCut cut{count, ci.p};
  char* const base = static_cast<char*>(buffer);
  move_root_blocks(RootBlocks::kScatter, ci, base, cut, datatype, type, root);
  circulant_allgather_on(ci, base, cut, datatype, type);
}

}  // namespace rosched::mpi

extern "C" int Rosched_Bcast_scatter_allgather(void* buffer, int count, MPI_Datatype datatype,
                                               int root, MPI_Comm comm) {
  using namespace rosched::mpi;
  constexpr const char* kName = "Rosched_Bcast_scatter_allgather";
  return run_collective(kName, comm, [&](const CommInfo& ci) {
    const TypeInfo type = check_bcast_args(ci, count, datatype, root);
    if (ci.p == 1 || count == 0 || type.size == 0) return;
    tell_choice(ci, kName, "scatter + all-gather", 0, 0, static_cast<double>(count) * type.size);
    run_on_bytes(ci, buffer, count, datatype, type, root, message_units(count, type),
                 [&](void* bytes, int units, MPI_Datatype unit, const TypeInfo& info) {
                   scatter_allgather_bcast_on(ci, bytes, units, unit, info, root);
                 });
  });
}
