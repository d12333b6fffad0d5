// The multi-lane reduction (reduce_lanes.cc): Träff 2020's full-lane decomposition of
// MPI_Reduce ("Decomposing MPI collectives for exploiting multi-lane communication").
#ifndef ROSCHED_MPI_EXEC_REDUCE_LANES_H_
#define ROSCHED_MPI_EXEC_REDUCE_LANES_H_

#include <mpi.h>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// Reduces every rank's contribution own (nullptr at an in-place root: in its recvbuf) into the
// root's recvbuf on nodes of equal size c (node_layout(ci).equal_nodes()): the vector cut into
// c parts; within every node the circulant reduce-scatter of the parts (node rank k ends with
// part k reduced over its node); every lane k (node rank k of every node) then reduces part k
// into its rank on the root's node, all lanes at once, each over the tree Rosched_Reduce would
// take for that part on the lane (reduce_tree_for); last, that node gathers the parts at the
// root (MPI_Gatherv of the library). Each node's link carries about the vector once each way,
// and the root's node receives it once, where the reduce-scatter + gather takes it in twice.
// Commutative operations; count >= 1. Collective over ci, its nodes and its lanes.
void lanes_reduce(const CommInfo& ci, const void* own, void* recvbuf, int count,
                  MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int root);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_REDUCE_LANES_H_
