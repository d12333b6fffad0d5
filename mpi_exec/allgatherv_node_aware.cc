// Rosched_Allgatherv (and Rosched_Allgather) on a cluster of multicore nodes: gather each node's
// blocks at its node rank 0, Träff 2022's irregular all-gather (Alg. 9, Sec. 2.4) among those (lane
// 0 of node_layout.h, one rank per node, each contributing its node's blocks as one block), then
// the circulant broadcast (Alg. 6) of the whole result within every node. Every block crosses each
// node's network link once. The flat all-gather sends every block to every rank through the
// links: on 36 nodes x 32 ranks (SimGrid SMPI), 1 MiB in all, 32 MiB entered every node through
// its 25 GB/s link, at least 1.3 ms; the flat circulant all-gather took 1.58 ms there, 1.02 of
// Open MPI's choice.
//
// It applies where the nodes' blocks are contiguous, so a node's blocks form one block of the
// leaders' all-gather and the result one message of the broadcast: every node's ranks
// consecutive in the communicator (ranks placed by node, as mpirun and SMPI do by default) and
// displs the running sum of recvcounts; the result at most INT_MAX elements. Elsewhere
// Rosched_Allgatherv runs the flat circulant all-gather. Each phase is a verified schedule (or
// one message per rank to its node's rank 0), on the node and lane communicators of the layout.
// Where the n-port all-gather's rule finds n ports worth it for the nodes' blocks, the leaders'
// all-gather is the n-port one (allgather_nway.h: Alg. 7 on n ports, ceil(log_(n+1) N) rounds;
// on the paper's 36 nodes, one rank each, 7.7 us for 1,820 B where Alg. 7 took 25.1).
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "mpi_exec/allgather_nway.h"
#include "mpi_exec/allgatherv_circulant.h"
#include "mpi_exec/bcast_node_aware.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/node_layout.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"

namespace rosched::mpi {
namespace {

// Whether the node-aware all-gather applies (see above); if so, *total is the result's element
// count. A function of the layout and the arrays, which every rank has alike.
bool applies(const NodeLayout& layout, int p, const int recvcounts[], const int displs[],
             std::int64_t* total) {
  if (!layout.hierarchical() || !layout.consecutive) return false;
  std::int64_t sum = recvcounts[0];
  for (int r = 1; r < p; ++r) {
    if (std::int64_t{displs[r]} != std::int64_t{displs[r - 1]} + recvcounts[r - 1]) return false;
    sum += recvcounts[r];
  }
  *total = sum;
  return sum <= INT_MAX;
}

MPI_Aint offset(const int displs[], int r, const TypeInfo& type) {
  return static_cast<MPI_Aint>(displs[r]) * type.extent;
}

// Phase 1: the node's blocks to its rank 0 (node ranks are ranks - first, first the node's
// lowest rank).
void gather_in_node(const CommInfo& node, int first, char* base, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, const TypeInfo& rtype) {
  if (node.rank != 0) {
    const int r = first + node.rank;
    if (recvcounts[r] > 0) {
      check(PMPI_Send(base + offset(displs, r, rtype), recvcounts[r], recvtype, 0,
                      tag::kAllgathervGather, node.c),
            "MPI_Send");
    }
    return;
  }
  std::vector<MPI_Request> requests;
  requests.reserve(static_cast<std::size_t>(node.p));
  for (int i = 1; i < node.p; ++i) {
    const int r = first + i;
    if (recvcounts[r] == 0) continue;
    requests.emplace_back();
    check(PMPI_Irecv(base + offset(displs, r, rtype), recvcounts[r], recvtype, i,
                     tag::kAllgathervGather, node.c, &requests.back()),
          "MPI_Irecv");
  }
  check(PMPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
        "MPI_Waitall");
}

// The ports of the leaders' all-gather of the nodes' blocks (blocks; the first at element
// starts[0], node x's at starts[x]): the n-port all-gather's rule on them (nway_allgather_ports),
// 0 (Alg. 9) where n ports are not worth it or the blocks do not lie one after the other in node
// order. The same on every rank of the lane; collective over it at the first use of its cost
// model.
int leader_ports(const CommInfo& lane, const BlockCut& blocks, const std::vector<int>& starts,
                 const TypeInfo& type) {
  for (std::int64_t x = 0; x < blocks.p; ++x) {
    if (starts[static_cast<std::size_t>(x)] - starts[0] != blocks.first(x)) return 0;
  }
  return nway_allgather_ports(lane, gather_blocks(blocks, type.size), NportRounds::kWhole);
}

}  // namespace

bool node_aware_allgatherv_on(const CommInfo& ci, const char* name, char* base,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                              const TypeInfo& rtype) {
  if (ci.p == 1) return false;
  const NodeLayout& layout = node_layout(ci);
  std::int64_t total = 0;
  if (!applies(layout, ci.p, recvcounts, displs, &total)) return false;
  if (total == 0 || rtype.size == 0) return true;
  const CommInfo node = comm_info(layout.node);
  gather_in_node(node, ci.rank - layout.node_rank, base, recvcounts, displs, recvtype, rtype);
  if (layout.node_rank == 0) {
    // Lane 0 has every node's rank 0, its ranks the node numbers; a node's block starts at its
    // first rank's.
    const CommInfo lane = comm_info(layout.lane);
    std::vector<int> counts(static_cast<std::size_t>(lane.p), 0), starts(counts.size(), 0);
    for (int r = 0; r < ci.p; ++r) {
      const auto x = static_cast<std::size_t>(layout.number_of[r]);
      if (layout.node_rank_of[r] == 0) starts[x] = displs[r];
      counts[x] += recvcounts[r];  // at most total <= INT_MAX
    }
    const std::vector<std::int64_t> cut = block_starts(counts.data(), lane.p);
    const BlockCut blocks{cut.back(), lane.p, cut.data()};
    if (const int ports = leader_ports(lane, blocks, starts, rtype)) {
      nway_allgather_on(lane, base + static_cast<MPI_Aint>(starts[0]) * rtype.extent, blocks,
                        recvtype, rtype, ports);
      if (settings().verbose) {
        const std::string what =
            "node-aware, the nodes' ranks 0 on " + std::to_string(ports) + " ports";
        tell_choice(lane, name, what.c_str(), 0, 0, static_cast<double>(total) * rtype.size);
      }
    } else {
      circulant_allgatherv_on(lane, name, base, counts.data(), starts.data(), recvtype, rtype);
    }
  }
  sub_bcast_on(layout.node, base + offset(displs, 0, rtype), static_cast<int>(total), recvtype,
               rtype, 0);
  return true;
}

bool node_aware_allgather_on(const CommInfo& ci, const char* name, char* base, int recvcount,
                             MPI_Datatype recvtype, const TypeInfo& rtype) {
  if (ci.p == 1) return false;
  const NodeLayout& layout = node_layout(ci);
  if (!layout.hierarchical() || !layout.consecutive) return false;  // no O(p) arrays then
  std::vector<int> counts(static_cast<std::size_t>(ci.p), recvcount), displs(counts.size());
  for (int j = 0; j < ci.p; ++j) displs[static_cast<std::size_t>(j)] = j * recvcount;
  return node_aware_allgatherv_on(ci, name, base, counts.data(), displs.data(), recvtype, rtype);
}

}  // namespace rosched::mpi
