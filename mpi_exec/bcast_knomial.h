// The k-nomial tree broadcast of one block (bcast_knomial.cc) on a communicator already set up,
// for Rosched_Bcast's choice and Rosched_Bcast_knomial.
#ifndef ROSCHED_MPI_EXEC_BCAST_KNOMIAL_H_
#define ROSCHED_MPI_EXEC_BCAST_KNOMIAL_H_

#include <mpi.h>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// Rosched_Bcast's and Rosched_Allreduce's trials time the k-nomial trees of one message (the
// broadcast, the reduction and broadcast) for messages up to this many bytes.
inline constexpr double kKnomialMaxBytes = 64 << 10;

// The ports of a k-nomial tree of `bytes` over p ranks: `set` (ROSCHED_BCAST_PORTS,
// ROSCHED_REDUCE_PORTS) where it is positive, at most p - 1, else the k-nomial tree's cost rule
// (knomial_ports_for, nway_allreduce.h: the reduction's rule, and the broadcast's, whose levels
// are the reduction's backwards: n messages of m bytes leave a parent where they arrived at it,
// and all ranks together put one message each on what they share). 1 for p <= 2.
int knomial_ports(int set, const CostModel& model, int p, double bytes);

// Broadcasts count elements of datatype from root over ci (arguments already checked) as one
// message down the k-nomial tree with the ports of knomial_ports and ROSCHED_BCAST_PORTS
// (sched/knomial/knomial_bcast.h: ceil(log_{ports+1} p) levels), on the caller's own buffer
// and datatype, a level's sends after the level before has been taken (synchronous sends;
// ROSCHED_SENDS=eager: eager ones); ROSCHED_VERBOSE reports it as `name`. Nothing for p = 1 or
// nothing to send.
void knomial_bcast_on(const CommInfo& ci, const char* name, void* buffer, int count,
                      MPI_Datatype datatype, const TypeInfo& type, int root);

// The same walk on `ports` ports (1 <= ports <= ci.p - 1), not reported: the phase between the
// nodes of the node-aware broadcast (bcast_node_aware.h), which reports itself.
void knomial_tree_bcast(const CommInfo& ci, int ports, void* buffer, int count,
                        MPI_Datatype datatype, const TypeInfo& type, int root);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_BCAST_KNOMIAL_H_
