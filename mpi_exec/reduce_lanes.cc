// The multi-lane reduction: Träff 2020's full-lane decomposition of MPI_Reduce ("Decomposing MPI
// collectives for exploiting multi-lane communication", Reduce as Reduce_scatter within the
// nodes, Reduce on every lane at once, Gather within the root's node), over this library's
// pieces: the circulant reduce-scatter in the nodes (Träff 2022's Alg. 7 run backwards,
// circulant_rounds.h), the lanes' reductions over the tree Rosched_Reduce would take for a
// lane's part (reduce_trees.h: the k-nomial tree or the pipelined circulant reduction), the
// library's MPI_Gatherv in the root's node.
//
// Against Rabenseifner's reduce-scatter + gather over the nodes (reduce_node_aware.cc), which
// the root's node link takes the vector in twice for (once in the lanes' reduce-scatter, once in
// their gather), the lanes' reductions deliver each part to the root's node once: the node links
// carry about the vector once each way, the price being the lanes' pipeline rounds.
#include "mpi_exec/reduce_lanes.h"

#include <optional>
#include <vector>

#include "mpi_exec/circulant_rounds.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/node_layout.h"
#include "mpi_exec/reduce_trees.h"

namespace rosched::mpi {

void lanes_reduce(const CommInfo& ci, const void* own, void* recvbuf, int count,
                  MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int root) {
  const NodeLayout& layout = node_layout(ci);
  const int c = layout.min_node_size, k = layout.node_rank;
  const int home = layout.number_of[root], top = layout.node_rank_of[root];
  const CommInfo node = comm_info(layout.node), lane = comm_info(layout.lane);
  tell_choice(ci, "Rosched_Reduce_node_aware",
              "multi-lane reduction (reduce-scatter in the nodes, reductions in the lanes)", 0, 0,
              static_cast<double>(count) * type.size);
  std::optional<ScratchBuffer> scratch;
  char* const acc = static_cast<char*>(accumulator(ci, root, recvbuf, count, type, scratch));
  if (own != nullptr) local_copy(own, acc, count, datatype, type);
  const BlockCut parts{count, c};
  circulant_reduce_scatter_on(node, acc, parts, datatype, type, op);
  char* const part = acc + parts.first(k) * type.extent;
  const int part_count = static_cast<int>(parts.elements(k, 1));
  {
    std::optional<ChoicesUntold> quiet;  // lane 0 tells its tree, the others alike stay silent
    if (k != 0) quiet.emplace();
    tree_reduce(reduce_tree_for(lane, part_count, type, true), nullptr, part, part_count, datatype,
                type, op, home, lane);
  }
  if (layout.node_number != home) return;
  std::vector<int> counts(c), displs(c);
  for (int q = 0; q < c; ++q) {
    displs[q] = static_cast<int>(parts.first(q));
    counts[q] = static_cast<int>(parts.elements(q, 1));
  }
  const bool at_root = ci.rank == root;  // whose part is in place: acc is recvbuf there
  check(PMPI_Gatherv(at_root ? MPI_IN_PLACE : part, part_count, datatype, recvbuf, counts.data(),
                     displs.data(), datatype, top, node.c),
        "MPI_Gatherv");
}

}  // namespace rosched::mpi
