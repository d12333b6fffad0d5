// Rosched_Allreduce_two_tree: MPI_Allreduce as the two-tree reduction to rank 0 followed by the
// two-tree broadcast from rank 0 (Sanders, Speck, Träff 2009, as presented in Träff's lecture
// notes, section "Two (pipelined) binary trees"): any operation, commutative or not (rank order
// is kept), any size; about twice the two-tree broadcast time. The lecture's doubly pipelined
// variant, which overlaps the two phases, is not done here.
#include "mpi_exec/args.h"
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/two_tree_reduce.h"
#include "sched/two_tree/two_tree_schedule.h"

extern "C" int Rosched_Allreduce_two_tree(const void* sendbuf, void* recvbuf, int count,
                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective("Rosched_Allreduce_two_tree", comm, [&](const CommInfo& ci) {
    const auto [p, rank, c] = ci;
    Agreement agreement;
    agreement.same("count", count, MPI_ERR_COUNT);
    const TypeInfo type =
        check_arguments(c, agreement, [&] { return check_reduction(count, datatype, op); });
    if (count == 0) return;
    if (sendbuf != MPI_IN_PLACE) local_copy(sendbuf, recvbuf, count, datatype);
    if (p == 1) return;
    two_tree_reduce(recvbuf, count, datatype, type, op, 0, ci);
    const Pipeline pipe = two_tree_pipeline(ci, count, type);
    walk_bcast(rosched::TwoTreeBcastSchedule(p, pipe.n, rank, 0), recvbuf, count, datatype, type,
               rank == 0, pipe.window, c);
  });
}
