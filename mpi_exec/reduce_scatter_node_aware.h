// The node-aware reduce-scatter of Rosched_Reduce_scatter(_block) (reduce_scatter_node_aware.cc).
#ifndef ROSCHED_MPI_EXEC_REDUCE_SCATTER_NODE_AWARE_H_
#define ROSCHED_MPI_EXEC_REDUCE_SCATTER_NODE_AWARE_H_

#include <mpi.h>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// Whether node_aware_reduce_scatter_on applies on ci: several nodes of equal size c > 1 (the
// same answer on every rank; the first question makes the node layout, collectively).
bool node_aware_reduce_scatter_applies(const CommInfo& ci);

// The reduce-scatter on ci of the cut.n elements at input (this rank's contribution; p blocks
// as cut cuts them, block r for rank r) into recvbuf (block ci.rank), op commutative, where
// node_aware_reduce_scatter_applies(ci). Reported as `name`.
void node_aware_reduce_scatter_on(const CommInfo& ci, const char* name, const void* input,
                                  void* recvbuf, const BlockCut& cut, MPI_Datatype datatype,
                                  const TypeInfo& type, MPI_Op op);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_REDUCE_SCATTER_NODE_AWARE_H_
