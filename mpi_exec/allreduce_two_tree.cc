// Rosched_Allreduce_two_tree: MPI_Allreduce as the two-tree reduction to rank 0 followed by the
// two-tree broadcast from rank 0 (seeds/004, "Two (pipelined) binary trees"): any operation,
// commutative or not (rank order is kept), any size; about twice the two-tree broadcast time.
// The lecture's doubly pipelined variant, which overlaps the two phases, is not done here.
#include <string>

#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/two_tree_reduce.h"
#include "sched/two_tree/two_tree_schedule.h"

extern "C" int Rosched_Allreduce_two_tree(const void* sendbuf, void* recvbuf, int count,
                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective("Rosched_Allreduce_two_tree", comm, [&] {
    const auto [p, rank] = comm_info(comm);
    if (count < 0) throw Error(MPI_ERR_COUNT, "count " + std::to_string(count) + " is negative");
    if (op == MPI_OP_NULL) throw Error(MPI_ERR_OP, "operation is MPI_OP_NULL");
    const TypeInfo type = type_info(datatype);
    if (debug_checks()) check_same_on_all(comm, count, MPI_ERR_COUNT, "count");
    if (count == 0) return;
    if (sendbuf != MPI_IN_PLACE) local_copy(sendbuf, recvbuf, count, datatype);
    if (p == 1) return;
    const MPI_Comm c = private_comm(comm);
    two_tree_reduce(recvbuf, count, datatype, type, op, 0, c, p, rank);
    walk_bcast(rosched::TwoTreeBcastSchedule(p, two_tree_blocks(count, type, p), rank, 0),
               recvbuf, count, datatype, type.extent, c);
  });
}
