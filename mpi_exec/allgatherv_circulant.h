// The all-gathers of Rosched_Allgatherv and the node-aware one of Rosched_Allgather
// (allgatherv_circulant.cc, allgatherv_largest.cc, allgatherv_node_aware.cc), on a receive buffer
// that already holds this rank's own block.
#ifndef ROSCHED_MPI_EXEC_ALLGATHERV_CIRCULANT_H_
#define ROSCHED_MPI_EXEC_ALLGATHERV_CIRCULANT_H_

#include <mpi.h>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"
#include "sched/circulant/skips.h"

namespace rosched::mpi {

// The circulant graph's skips for p (Träff 2022, Alg. 1), kept per thread for the last p asked
// (a program repeats its collectives on one communicator); also the census all-reduce's.
const rosched::Skips& skips_of(int p);

// Träff 2022's irregular all-gather (Alg. 9) over all ranks of ci: block j (recvcounts[j]
// elements of recvtype at displs[j] of base) from rank j to every rank. Reported as `name`.
void circulant_allgatherv_on(const CommInfo& ci, const char* name, char* base,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                             const TypeInfo& rtype);

// The same all-gather as circulant_allgatherv_on: the largest block by Rosched_Bcast's choice of
// broadcast, then the others by Algorithm 9 (allgatherv_largest.cc).
void largest_bcast_allgatherv_on(const CommInfo& ci, const char* name, char* base,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                 const TypeInfo& rtype);

// The same, node-aware, where it applies (several multicore nodes, each node's ranks
// consecutive, the blocks one after the other in rank order): returns false, having done
// nothing, where it does not (the same answer on every rank).
bool node_aware_allgatherv_on(const CommInfo& ci, const char* name, char* base,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                              const TypeInfo& rtype);

// node_aware_allgatherv_on with every block recvcount elements, block j at j * recvcount (p *
// recvcount <= INT_MAX: Rosched_Allgather passes units of the result's bytes): Rosched_Allgather's
// node-aware path.
bool node_aware_allgather_on(const CommInfo& ci, const char* name, char* base, int recvcount,
                             MPI_Datatype recvtype, const TypeInfo& rtype);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ALLGATHERV_CIRCULANT_H_
