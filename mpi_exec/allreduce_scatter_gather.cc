// Rosched_Allreduce_scatter_gather: an all-reduce as a reduce-scatter followed by an all-gather,
// both over the circulant graph: Träff 2022's regular all-gather (Alg. 7, Sec. 2.3) run backwards
// (circulant_rounds.h), then Alg. 7 itself
// (sched/circulant/allgather_schedule.h). The vector is cut into p blocks (block b: count / p
// elements, one more for b < count mod p), block b is reduced at rank b and then gathered by all.
// 2 ceil(log2 p) rounds, and each rank sends 2 (p - 1) / p of the vector: the bandwidth of the
// ring's 2 (p - 1) rounds and of recursive halving and doubling, whose two extra rounds of the
// whole vector where p is not a power of two this does without. For commutative operations.
//
// Rosched_Allreduce_nport: the same two halves on n ports (allgather_nway.h: Träff 2022's Alg. 7
// on the skips of n ports, Bruck et al. 1997's k-port dissemination, and the reduce-scatter that
// runs it backwards), 2 ceil(log_(n+1) p) rounds of n messages each: fewer rounds where the
// vector is short enough that a round costs its latency.
#include "mpi_exec/allreduce_scatter_gather.h"

#include "mpi_exec/allgather_nway.h"
#include "mpi_exec/allgatherv_circulant.h"
#include "mpi_exec/args.h"
#include "mpi_exec/circulant_rounds.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/round_stream.h"
#include "mpi_exec/settings.h"

namespace rosched::mpi {

void scatter_gather_allreduce(const CommInfo& ci, const char* name, const void* sendbuf,
                              void* recvbuf, int count, MPI_Datatype datatype, const TypeInfo& type,
                              MPI_Op op) {
  const int p = ci.p;
  char* acc = static_cast<char*>(recvbuf);  // the partial results, then the result
  if (sendbuf != MPI_IN_PLACE) local_copy(sendbuf, recvbuf, count, datatype, type);
  if (p == 1) return;
  tell_choice(ci, name, "reduce-scatter + all-gather", 0, 0,
              static_cast<double>(count) * type.size);
  const BlockCut cut{count, p};
  circulant_reduce_scatter_on(ci, acc, cut, datatype, type, op);
  circulant_allgather_on(ci, acc, cut, datatype, type);
}

namespace {

GatherBlocks even_blocks(const CommInfo& ci, double bytes) {
  const double mean = bytes / ci.p;
  return {mean, mean};
}

}  // namespace

bool nport_reduce_scatter_pays(const CommInfo& ci, double bytes) {
  return nport_reduce_scatter_ports(ci, bytes) > 0;
}

int nport_reduce_scatter_ports(const CommInfo& ci, double bytes) {
  return nway_allgather_ports(ci, even_blocks(ci, bytes), NportRounds::kStreamed);
}

int nport_reduce_scatter_ports_to_run(const CommInfo& ci, double bytes) {
  return nway_allgather_ports_to_run(ci, even_blocks(ci, bytes), NportRounds::kStreamed);
}

double nport_reduce_scatter_time(const CostModel& model, int p, int n, double bytes) {
  const double mean = bytes / p;
  return nway_allgather_time(model, p, n, {mean, mean});
}

double nport_allreduce_time(const CostModel& model, int p, int n, double bytes) {
  return 2 * nport_reduce_scatter_time(model, p, n, bytes);
}

void nport_scatter_gather_allreduce(const CommInfo& ci, const char* name, const void* sendbuf,
                                    void* recvbuf, int count, MPI_Datatype datatype,
                                    const TypeInfo& type, MPI_Op op) {
  char* acc = static_cast<char*>(recvbuf);
  if (sendbuf != MPI_IN_PLACE) local_copy(sendbuf, recvbuf, count, datatype, type);
  if (ci.p == 1) return;
  const double bytes = static_cast<double>(count) * type.size;
  const int n = nport_reduce_scatter_ports_to_run(ci, bytes);
  if (settings().verbose) {
    tell_choice(ci, name, ("n-port reduce-scatter + all-gather, n = " + std::to_string(n)).c_str(),
                0, 0, bytes);
  }
  const BlockCut cut{count, ci.p};
  const CostModel* const stream_model = round_stream_model(ci, bytes);
  nway_reduce_scatter_on(ci, acc, cut, datatype, type, op, n, stream_model);
  nway_allgather_on(ci, acc, cut, datatype, type, n, stream_model);
}

}  // namespace rosched::mpi

extern "C" int Rosched_Allreduce_scatter_gather(const void* sendbuf, void* recvbuf, int count,
                                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  using namespace rosched::mpi;
  constexpr const char* kName = "Rosched_Allreduce_scatter_gather";
  return run_collective(kName, comm, [&](const CommInfo& ci) {
    const TypeInfo type = check_agreed_reduction(ci.c, sendbuf, recvbuf, count, datatype, op,
                                                      "the reduce-scatter/all-gather all-reduce");
    if (count > 0) {
      scatter_gather_allreduce(ci, kName, sendbuf, recvbuf, count, datatype, type, op);
    }
  });
}

extern "C" int Rosched_Allreduce_nport(const void* sendbuf, void* recvbuf, int count,
                                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  using namespace rosched::mpi;
  constexpr const char* kName = "Rosched_Allreduce_nport";
  return run_collective(kName, comm, [&](const CommInfo& ci) {
    const TypeInfo type = check_agreed_reduction(ci.c, sendbuf, recvbuf, count, datatype, op,
                                                 "the n-port reduce-scatter/all-gather all-reduce");
    if (count > 0) {
      nport_scatter_gather_allreduce(ci, kName, sendbuf, recvbuf, count, datatype, type, op);
    }
  });
}
