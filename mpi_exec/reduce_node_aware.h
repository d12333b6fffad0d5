// The node-aware reduction of Rosched_Reduce_node_aware (reduce_node_aware.cc).
#ifndef ROSCHED_MPI_EXEC_REDUCE_NODE_AWARE_H_
#define ROSCHED_MPI_EXEC_REDUCE_NODE_AWARE_H_

#include <mpi.h>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// Whether the node-aware reduction applies: a commutative operation, ranks on several multicore
// nodes (the node layout is a collective at its first use on ci). The same on every rank.
bool node_aware_reduce_applies(const CommInfo& ci, MPI_Op op);

// Reduces every rank's contribution own (nullptr at an in-place root: in its recvbuf) into the
// root's recvbuf, node-aware, where the operation is commutative and the ranks sit on several
// multicore nodes; returns false, having done nothing, elsewhere (the same answer on every
// rank). Arguments already checked.
bool node_aware_reduce_on(const CommInfo& ci, const void* own, void* recvbuf, int count,
                          MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int root);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_REDUCE_NODE_AWARE_H_
