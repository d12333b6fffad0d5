// Rosched_Bcast_knomial: the k-nomial tree broadcast of one block, binomial for one port
// (Träff's lecture notes, "Binomial tree broadcast" and "Final remark: binomial and k-nomial
// trees"; sched/knomial/knomial_bcast.h), walking that schedule with one level's rounds in
// flight and synchronous sends (MPI_Issend): a rank's n sends of a level leave at once, and a
// level's sends wait until those of the level before have been taken. The whole message in
// each send, on the caller's buffer: the broadcast for messages too short to pipeline, where
// the ceil(log_{n+1} p) levels of n ports are fewer than the k-ary tree's (about log_n p) or
// the binomial tree's (ceil(log2 p)).
//
// Why synchronous: the root holds the message from the start, so with eager sends all its
// n L sends leave at once and share its link, and the children of the top level, whose subtrees
// are the largest, get it late. Measured in SimGrid SMPI (`flat`, 1,152 ranks, Open MPI's
// selector 30.7 / 38.4 / 121.4 us): eager 26.1 / 36.3 / 131.9 us at 1 / 4 / 16 KiB, synchronous
// 19.0 / 24.0 / 77.4 (docs/sim/knomial_bcast.md). ROSCHED_SENDS=eager sends eagerly.
#include "mpi_exec/bcast_knomial.h"

#include <algorithm>
#include <cstdio>

#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/nway_allreduce.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/settings.h"
#include "sched/knomial/knomial_bcast.h"

namespace rosched::mpi {
namespace {

// Synchronous sends unless ROSCHED_SENDS=eager (the file's comment says why).
bool knomial_synchronous() { return settings().sends != Settings::Sends::kEager; }

}  // namespace

int knomial_ports(int set, const CostModel& model, int p, double bytes) {
  if (set > 0) return std::min(set, std::max(p - 1, 1));
  return knomial_ports_for(model, p, bytes);
}

void knomial_bcast_on(const CommInfo& ci, const char* name, void* buffer, int count,
                      MPI_Datatype datatype, const TypeInfo& type, int root) {
  if (ci.p == 1 || count == 0 || type.size == 0) return;
  const double bytes = static_cast<double>(count) * type.size;
  const int ports = knomial_ports(settings().bcast_ports, cost_model(ci), ci.p, bytes);
  if (settings().verbose) {
    char tree[80];
    const char* sends = knomial_synchronous() ? "synchronous sends" : "eager sends";
    if (ports == 1) {
      std::snprintf(tree, sizeof tree, "binomial tree, %s", sends);
    } else {
      std::snprintf(tree, sizeof tree, "%d-nomial tree (%d ports), %s", ports + 1, ports, sends);
    }
    tell_choice(ci, name, tree, 1, ports, bytes);
  }
  knomial_tree_bcast(ci, ports, buffer, count, datatype, type, root);
}

void knomial_tree_bcast(const CommInfo& ci, int ports, void* buffer, int count,
                        MPI_Datatype datatype, const TypeInfo& type, int root) {
  walk_bcast(KnomialBcastSchedule(ci.p, ports, ci.rank, root), buffer, count, datatype, type,
             ci.rank == root, Pipeline{1, ports, knomial_synchronous(), true}, ci.c);
}

}  // namespace rosched::mpi

extern "C" int Rosched_Bcast_knomial(void* buffer, int count, MPI_Datatype datatype, int root,
                                     MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective("Rosched_Bcast_knomial", comm, [&](const CommInfo& ci) {
    const TypeInfo type = check_bcast_args(ci, count, datatype, root);
    knomial_bcast_on(ci, "Rosched_Bcast_knomial", buffer, count, datatype, type, root);
  });
}
