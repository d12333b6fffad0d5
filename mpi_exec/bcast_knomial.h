// The k-nomial tree broadcast of one block (bcast_knomial.cc) on a communicator already set up,
// for Rosched_Bcast's choice and Rosched_Bcast_knomial.
#ifndef ROSCHED_MPI_EXEC_BCAST_KNOMIAL_H_
#define ROSCHED_MPI_EXEC_BCAST_KNOMIAL_H_

#include <mpi.h>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// The ports of the k-nomial broadcast of `bytes` over ci: ROSCHED_BCAST_PORTS if set, else the
// k-nomial tree's cost rule (knomial_ports_for, nway_allreduce.h; the reduction's rule, whose
// levels are the broadcast's backwards: n messages of m bytes leave a parent where they arrived
// at it, and all ranks together put one message each on what they share). 1 for p <= 2.
int knomial_bcast_ports(const CostModel& model, int p, double bytes);

// Broadcasts count elements of datatype from root over ci (arguments already checked) as one
// message down the k-nomial tree with knomial_bcast_ports ports (sched/knomial/knomial_bcast.h:
// ceil(log_{ports+1} p) levels), on the caller's own buffer and datatype, a level's sends after
// the level before has been taken (synchronous sends; ROSCHED_SENDS=eager: eager ones);
// ROSCHED_VERBOSE reports it as `name`. Nothing for p = 1 or nothing to send.
void knomial_bcast_on(const CommInfo& ci, const char* name, void* buffer, int count,
                      MPI_Datatype datatype, const TypeInfo& type, int root);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_BCAST_KNOMIAL_H_
