// The k-ary tree broadcast on a communicator already set up, for Rosched_Bcast's choice, and its
// one-block form for short messages on the sub-communicators of the node-aware collectives.
#ifndef ROSCHED_MPI_EXEC_BCAST_KARY_TREE_H_
#define ROSCHED_MPI_EXEC_BCAST_KARY_TREE_H_

#include <mpi.h>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// Broadcasts count elements of datatype from root over ci (arguments already checked) by the
// pipelined k-ary tree (bcast_kary_tree.cc), planned on the message's bytes and cut at them
// (bcast_planned, bcast_rounds.h); ROSCHED_VERBOSE reports it as `name`.
void kary_tree_bcast_on(const CommInfo& ci, const char* name, void* buffer, int count,
                        MPI_Datatype datatype, const TypeInfo& type, int root);

// Broadcasts count elements of datatype from root over ci as one block down the complete k-ary
// tree of the given degree (2 <= degree; BFS order from the root), every round in flight, so
// that a rank's sends to its children move at once: kary_depth(p, degree) levels of one message
// where the circulant broadcast of one block takes ceil(log2 p) rounds. Nothing for p = 1 or
// nothing to send.
void one_block_tree_bcast_on(const CommInfo& ci, void* buffer, int count, MPI_Datatype datatype,
                             const TypeInfo& type, int root, int degree);

// The degree for one_block_tree_bcast_on over p ranks for a message of `bytes`, by their cost
// model: the d in [2, min(p - 1, 64)] with the least kary_depth(p, d) fan_time(d) (levels times
// what d messages leaving one rank at once cost, with the model's fanout: nway_allreduce.h), if
// that is less than `against`, the predicted time of the broadcast it would replace (the
// circulant pipeline's, pipeline_time); else degree 1 (keep that one) and `against`. Degree 1
// for p <= 2 and for messages above the largest size the model measured (1 MiB), where its
// times are extrapolated and the pipeline's rounds in flight, which pipeline_time does not
// count, move blocks side by side on paths of their own (36 x 32 simulated ranks, the
// node-aware broadcast of 16 MiB: 3,227 us with a 31-ary tree of one block in the node, 2,777
// with the circulant pipeline). The same on every rank (the model is).
struct OneBlockTree {
  int degree;
  double seconds;  // predicted
};
OneBlockTree one_block_tree_for(const CostModel& model, int p, double bytes, double against);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_BCAST_KARY_TREE_H_
