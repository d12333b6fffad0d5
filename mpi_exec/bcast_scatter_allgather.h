// The scatter + all-gather broadcast (bcast_scatter_allgather.cc): Rosched_Bcast_scatter_allgather,
// and one of Rosched_Bcast's candidates.
#ifndef ROSCHED_MPI_EXEC_BCAST_SCATTER_ALLGATHER_H_
#define ROSCHED_MPI_EXEC_BCAST_SCATTER_ALLGATHER_H_

#include <mpi.h>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// Broadcasts count elements of datatype from root over ci (arguments already checked): the root
// scatters p blocks, then the circulant all-gather. Rosched_Bcast runs it as a variant of the
// phase over all ranks or between the nodes (bcast_node_aware.h, PhaseVariant).
void scatter_allgather_bcast_on(const CommInfo& ci, void* buffer, int count,
                                MPI_Datatype datatype, const TypeInfo& type, int root);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_BCAST_SCATTER_ALLGATHER_H_
