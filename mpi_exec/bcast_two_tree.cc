// Rosched_Bcast_two_tree: the pipelined two-tree broadcast (Sanders, Speck, Träff 2009, as
// presented in Träff's lecture notes, section "Two (pipelined) binary trees"), walking
// sched/two_tree/two_tree_schedule.h: the root sends block b in round b to the tree that carries
// b's parity; every other rank receives one block and forwards one block per round, on the edge
// colours of the EdgeColor 2-colouring. Block count as for Rosched_Bcast_circulant (cost model,
// ROSCHED_TWOTREE_F to tune).
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/rosched_mpi.h"
#include "sched/two_tree/two_tree_schedule.h"

extern "C" int Rosched_Bcast_two_tree(void* buffer, int count, MPI_Datatype datatype, int root,
                                      MPI_Comm comm) {
  return rosched::mpi::pipelined_bcast<rosched::TwoTreeBcastSchedule>(
      "Rosched_Bcast_two_tree", &rosched::mpi::Settings::twotree_f, false, buffer, count,
      datatype, root, comm);
}
