// The all-reduce of a reduce-scatter and an all-gather over the circulant graph, or on n ports
// (allreduce_scatter_gather.cc): Rosched_Allreduce_scatter_gather and Rosched_Allreduce_nport, and
// two of Rosched_Allreduce's candidates.
#ifndef ROSCHED_MPI_EXEC_ALLREDUCE_SCATTER_GATHER_H_
#define ROSCHED_MPI_EXEC_ALLREDUCE_SCATTER_GATHER_H_

#include <mpi.h>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// The all-reduce of `count` > 0 elements on ci, op commutative (checked by the caller);
// sendbuf may be MPI_IN_PLACE (the input is recvbuf). Reported as `name` (ROSCHED_VERBOSE).
void scatter_gather_allreduce(const CommInfo& ci, const char* name, const void* sendbuf,
                              void* recvbuf, int count, MPI_Datatype datatype, const TypeInfo& type,
                              MPI_Op op);

// The same with the n-port reduce-scatter and the n-port all-gather (allgather_nway.h), n =
// nport_reduce_scatter_ports_to_run: 2 ceil(log_(n+1) p) rounds.
void nport_scatter_gather_allreduce(const CommInfo& ci, const char* name, const void* sendbuf,
                                    void* recvbuf, int count, MPI_Datatype datatype,
                                    const TypeInfo& type, MPI_Op op);
// The ports of the n-port reduce-scatter of a vector of `bytes` cut into p blocks, which the
// n-port all-reduce, the n-port reduce-scatter + gather (reduce_trees.h) and the node-aware
// reductions' lanes share. Whether the n-port all-gather's rule finds n ports at least 10%
// faster than Algorithm 7 for blocks of `bytes` / p (nway_allgather_ports): where
// Rosched_Allreduce times the n-port form, and Rosched_Reduce the n-port reduce-scatter +
// gather.
// Collective at the communicator's first use of the cost model.
bool nport_reduce_scatter_pays(const CommInfo& ci, double bytes);
// Its n: nway_allgather_ports for blocks of `bytes` / p, 0 where the n-port form does not pay.
// Collective as nport_reduce_scatter_pays.
int nport_reduce_scatter_ports(const CommInfo& ci, double bytes);
// The n the n-port reduce-scatter of a `bytes` vector runs on without a trial, or after one
// (nway_allgather_ports_to_run for blocks of `bytes` / p: at least 2). Collective as
// nport_reduce_scatter_pays.
int nport_reduce_scatter_ports_to_run(const CommInfo& ci, double bytes);
// The rule's estimate for the n-port reduce-scatter of `bytes` on p ranks and n ports: the n-port
// all-gather's of blocks of bytes / p (nway_allgather_time; the same rounds run backwards).
double nport_reduce_scatter_time(const CostModel& model, int p, int n, double bytes);
// The same for the n-port reduce-scatter + all-gather: twice nport_reduce_scatter_time (n = 1 is
// the circulant reduce-scatter + all-gather).
double nport_allreduce_time(const CostModel& model, int p, int n, double bytes);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ALLREDUCE_SCATTER_GATHER_H_
