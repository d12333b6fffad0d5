// Rosched_Allreduce_scatter_gather: an all-reduce as a reduce-scatter followed by an all-gather,
// both over the circulant graph: Träff 2022's regular all-gather (Alg. 7, Sec. 2.3) run backwards
// (reduce_scatter_circulant.h), then Alg. 7 itself
// (sched/circulant/allgather_schedule.h). The vector is cut into p blocks (block b: count / p
// elements, one more for b < count mod p), block b is reduced at rank b and then gathered by all.
// 2 ceil(log2 p) rounds, and each rank sends 2 (p - 1) / p of the vector: the bandwidth of the
// ring's 2 (p - 1) rounds and of recursive halving and doubling, whose two extra rounds of the
// whole vector where p is not a power of two this does without. For commutative operations.
#include "mpi_exec/allreduce_scatter_gather.h"

#include <algorithm>
#include <cstdint>

#include "mpi_exec/allgatherv_circulant.h"
#include "mpi_exec/args.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/reduce_scatter_circulant.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/tags.h"
#include "sched/circulant/allgather_schedule.h"

namespace rosched::mpi {

void scatter_gather_allreduce(const CommInfo& ci, const char* name, const void* sendbuf,
                              void* recvbuf, int count, MPI_Datatype datatype, const TypeInfo& type,
                              MPI_Op op) {
  const int p = ci.p, rank = ci.rank;
  char* acc = static_cast<char*>(recvbuf);  // the partial results, then the result
  if (sendbuf != MPI_IN_PLACE) local_copy(sendbuf, recvbuf, count, datatype, type);
  if (p == 1) return;
  tell_choice(ci, name, "reduce-scatter + all-gather", 0, 0,
              static_cast<double>(count) * type.size);
  const rosched::Skips& s = skips_of(p);
  const BlockCut cut{count, p};
  circulant_reduce_scatter_on(ci, acc, cut, datatype, type, op);
  for (int k = 0; k < s.q(); ++k) {
    const rosched::AllgatherRound round = rosched::allgather_round(s, rank, k);
    const std::int64_t send_block = s.mod(rank + round.send_offset);
    const std::int64_t recv_block = s.mod(rank + round.recv_offset);
    const CyclicBlocks send =
        cyclic_elements(acc, cut.first(send_block), cut.elements(send_block, round.send_count),
                        count, datatype, type.extent);
    const CyclicBlocks recv =
        cyclic_elements(acc, cut.first(recv_block), cut.elements(recv_block, round.recv_count),
                        count, datatype, type.extent);
    check(
        PMPI_Sendrecv(send.at, send.count, send.type, static_cast<int>(round.to),
                      tag::kAllgatherRound, recv.at, recv.count, recv.type,
                      static_cast<int>(round.from), tag::kAllgatherRound, ci.c, MPI_STATUS_IGNORE),
        "MPI_Sendrecv");
  }
}

}  // namespace rosched::mpi

extern "C" int Rosched_Allreduce_scatter_gather(const void* sendbuf, void* recvbuf, int count,
                                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  using namespace rosched::mpi;
  constexpr const char* kName = "Rosched_Allreduce_scatter_gather";
  return run_collective(kName, comm, [&](const CommInfo& ci) {
    const TypeInfo type = check_commutative_reduction(ci.c, count, datatype, op,
                                                      "the reduce-scatter/all-gather all-reduce");
    if (count > 0) {
      scatter_gather_allreduce(ci, kName, sendbuf, recvbuf, count, datatype, type, op);
    }
  });
}
