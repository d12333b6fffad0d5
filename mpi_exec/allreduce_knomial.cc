// The all-reduce of short vectors as the k-nomial tree reduction to rank 0 (reduce_knomial.cc)
// followed by the k-nomial tree broadcast from it (bcast_knomial.cc): 2 ceil(log_{n+1} p)
// levels of n messages of the whole vector, against ceil(log_{n+1} p) rounds of the n-way
// all-reduce in which every rank sends n vectors at once. Where all ranks share a network
// narrower than their links, the trees put one vector per rank on it per phase where the n-way
// rounds put n (SimGrid's `flat` at 1,152 ranks, 1 / 4 KiB: the reduction and the broadcast
// each took about 19 / 24 us, the n-way all-reduce 52 / 68). Rank order is kept (the reduction
// to rank 0 combines x_0 op x_1 op ... op x_{p-1}), so any operation. Rosched_Allreduce_knomial
// always runs it; Rosched_Allreduce times it up to 64 KiB.
#include "mpi_exec/allreduce_knomial.h"

#include "mpi_exec/args.h"
#include "mpi_exec/bcast_knomial.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/reduce_trees.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/settings.h"

namespace rosched::mpi {

void knomial_allreduce_on(const CommInfo& ci, const char* name, const void* input, void* recvbuf,
                          int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op) {
  if (count == 0) return;
  if (ci.p == 1) {
    if (input != recvbuf) local_copy(input, recvbuf, count, datatype);
    return;
  }
  const double bytes = static_cast<double>(count) * type.size;
  const int ports = knomial_ports(settings().reduce_ports, cost_model(ci), ci.p, bytes);
  // recvbuf is every rank's accumulator: the broadcast overwrites it afterwards.
  knomial_reduce(input != recvbuf ? input : nullptr, recvbuf, count, datatype, type, op, ports, 0,
                 ci);
  knomial_bcast_on(ci, name, recvbuf, count, datatype, type, 0);
}

}  // namespace rosched::mpi

extern "C" int Rosched_Allreduce_knomial(const void* sendbuf, void* recvbuf, int count,
                                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective("Rosched_Allreduce_knomial", comm, [&](const CommInfo& ci) {
    const TypeInfo type = check_agreed_reduction(ci.c, sendbuf, recvbuf, count, datatype, op);
    knomial_allreduce_on(ci, "Rosched_Allreduce_knomial",
                         sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, count, datatype,
                         type, op);
  });
}
