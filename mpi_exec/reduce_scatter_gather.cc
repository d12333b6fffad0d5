// The reduction of a reduce-scatter followed by a gather to the root (Rabenseifner 2004,
// "Optimization of collective reduction operations", the reduce-scatter/gather algorithm; MPICH's
// MPI_Reduce for long vectors): the vector is cut into p blocks (block b: count / p elements, one
// more for b < count mod p), the reduce-scatter over the circulant graph (Träff 2022's Alg. 7 run
// backwards, circulant_rounds.h: ceil(log2 p) rounds, its rounds streamed in parts where the cost
// model says so) leaves block b reduced at rank b, and every rank sends its block to the root,
// which receives them all at once. Each rank sends (p - 1) / p of the vector in the
// reduce-scatter and the root receives as much in the gather: twice the bytes of the pipelined
// reductions' critical path, but in ceil(log2 p) + 1 steps whose messages stream, where a
// pipelined reduction pays a latency in each of its n - 1 + ceil(log2 p) rounds.
//
// The same with the n-port reduce-scatter (allgather_nway.h: Träff 2022's Alg. 7 on the skips of
// n ports run backwards, as Rosched_Allreduce_nport's first half): ceil(log_(n+1) p) rounds of n
// messages, then the gather: for short vectors, where a round costs its latency, the pipelined
// reductions pay one in each of their rounds, and the k-nomial tree's parents receive n whole
// vectors at each of its levels.
//
// For commutative operations: the MPI entry point (argument checks, the choice) is in reduce.cc.
#include <string>

#include "mpi_exec/allgather_nway.h"
#include "mpi_exec/allreduce_scatter_gather.h"
#include "mpi_exec/circulant_rounds.h"
#include "mpi_exec/nway_allreduce.h"
#include "mpi_exec/reduce_trees.h"
#include "mpi_exec/root_blocks.h"
#include "mpi_exec/round_stream.h"

namespace rosched::mpi {

void scatter_gather_reduce(void* acc, int count, MPI_Datatype datatype, const TypeInfo& type,
                           MPI_Op op, int root, const CommInfo& comm) {
  if (comm.p == 1 || count == 0) return;
  tell_choice(comm, "reduction", "reduce-scatter + gather", 0, 0,
              static_cast<double>(count) * type.size);
  const BlockCut cut{count, comm.p};
  char* const base = static_cast<char*>(acc);
  circulant_reduce_scatter_on(comm, base, cut, datatype, type, op);
  move_root_blocks(RootBlocks::kGather, comm, base, cut, datatype, type, root);
}

void nport_scatter_gather_reduce(void* acc, int count, MPI_Datatype datatype, const TypeInfo& type,
                                 MPI_Op op, int root, const CommInfo& comm) {
  if (comm.p == 1 || count == 0) return;
  const double bytes = static_cast<double>(count) * type.size;
  const int n = nport_reduce_scatter_ports_to_run(comm, bytes);
  tell_choice(comm, "reduction",
              ("n-port reduce-scatter + gather, n = " + std::to_string(n)).c_str(), 0, 0, bytes);
  const BlockCut cut{count, comm.p};
  char* const base = static_cast<char*>(acc);
  nway_reduce_scatter_on(comm, base, cut, datatype, type, op, n, round_stream_model(comm, bytes));
  move_root_blocks(RootBlocks::kGather, comm, base, cut, datatype, type, root);
}

double nport_reduce_time(const CostModel& model, int p, int n, double bytes) {
  return nport_reduce_scatter_time(model, p, n, bytes) + fan_time(model, p - 1, bytes / p);
}

}  // namespace rosched::mpi
