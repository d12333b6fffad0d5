// The multi-lane all-reduce (Träff, "Decomposing MPI collectives for exploiting multi-lane
// communication", 2020: the full-lane all-reduce) on nodes of c ranks each:
//  1. within every node, the ring reduce-scatter (Patarasuk and Yuan 2009, Sec. 4;
//     sched/ring/ring_reduce_scatter.h): node rank k ends with segment k of the vector (1/c of
//     it) reduced over its node;
//  2. in every lane k at once (node rank k of every node), segment k all-reduced over the nodes:
//     the n-way dissemination all-reduce (End et al. 2015, circulant rule) or the doubly
//     pipelined two-tree all-reduce, whichever the lane's cost model predicts faster;
//  3. within every node, Träff 2022's irregular all-gather (Alg. 9) of the c segments.
// Each node's network link carries the vector about twice in all (c lanes of 1/c each, out and
// back), where a reduction to one rank and a broadcast from it send it through one lane rank's
// link twice one after the other and flat algorithms send it once per rank of the node.
// Commutative operations only (segments are combined in ring and lane order).
#include "mpi_exec/allreduce_lanes.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "mpi_exec/allgatherv_circulant.h"
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/node_layout.h"
#include "mpi_exec/nway_allreduce.h"
#include "mpi_exec/tags.h"
#include "mpi_exec/two_tree_reduce.h"
#include "sched/ring/ring_reduce_scatter.h"
#include "sched/two_tree/two_tree_schedule.h"

namespace rosched::mpi {
namespace {

// A vector of count elements cut into `parts` segments as the ring cuts it (in elements).
struct Segments {
  Segments(int count, int parts) : counts(parts), displs(parts) {
    for (int k = 0; k < parts; ++k) {
      displs[k] = static_cast<int>(rosched::ring_segment_begin(count, parts, k));
      counts[k] = static_cast<int>(rosched::ring_segment_begin(count, parts, k + 1)) - displs[k];
    }
  }
  std::vector<int> counts, displs;
};

// The ring reduce-scatter over the ranks of comm on the vector at base (this rank's
// contribution): segment comm.rank of it reduced over comm on return.
void ring_reduce_scatter_on(const CommInfo& comm, char* base, const Segments& seg,
                            MPI_Datatype datatype, const TypeInfo& type, MPI_Op op) {
  if (comm.p == 1) return;
  const auto at = [&](std::int64_t k) { return base + seg.displs[k] * type.extent; };
  TypedBuffer in(type, *std::max_element(seg.counts.begin(), seg.counts.end()));
  for (int s = 0; s + 1 < comm.p; ++s) {
    const rosched::RingStep step = rosched::ring_reduce_scatter_step(comm.p, comm.rank, s);
    check(PMPI_Sendrecv(at(step.send_segment), seg.counts[step.send_segment], datatype,
                        static_cast<int>(step.to), tag::kAllreduceRing, in.data(),
                        seg.counts[step.recv_segment], datatype, static_cast<int>(step.from),
                        tag::kAllreduceRing, comm.c, MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
    check(PMPI_Reduce_local(in.data(), at(step.recv_segment), seg.counts[step.recv_segment],
                            datatype, op),
          "MPI_Reduce_local");
  }
}

// Step 2 on lane `lane` for the count elements at seg (this rank's reduced segment on entry,
// the lane's reduction on return). Lane 0 tells its choice (ROSCHED_VERBOSE).
void allreduce_lane(const char* name, const CommInfo& lane, bool lane0, void* seg, int count,
                    MPI_Datatype datatype, const TypeInfo& type, MPI_Op op) {
  if (lane.p == 1 || count == 0) return;
  const double bytes = static_cast<double>(count) * type.size;
  const CostModel& model = cost_model(lane);
  const int n = nway_ports(lane, bytes);
  const double nway_estimate = nway_time(model, lane.p, n, bytes);
  const Pipeline pipe = two_tree_pipeline(lane, count, type);
  const double two_tree_time =
      pipeline_time(model, bytes, 2 * extra_rounds<rosched::TwoTreeBcastSchedule>(lane.p), pipe.n);
  if (nway_estimate <= two_tree_time) {
    if (lane0) tell_choice(lane, name, "multi-lane, lane 0 n-way", n, 0, bytes);
    NwayAllreduce(MPI_IN_PLACE, seg, count, datatype, type, op, lane, n, NwayRule::kCirculant)
        .finish();
    return;
  }
  if (lane0) tell_choice(lane, name, "multi-lane, lane 0 two-tree", pipe.n, pipe.window, bytes);
  std::optional<TypedBuffer> acc;  // every lane rank but 0 reduces in a copy
  if (lane.rank != 0) {
    acc.emplace(type, count);
    local_copy(seg, acc->data(), count, datatype);
  }
  two_tree_allreduce(acc ? acc->data() : seg, seg, count, datatype, type, op, lane);
}

}  // namespace

bool lane_allreduce_on(const CommInfo& ci, const char* name, const void* input, void* recvbuf,
                       int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op) {
  int commutative = 0;
  check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
  if (!commutative || ci.p == 1) return false;
  const NodeLayout& layout = node_layout(ci);
  if (!layout.hierarchical() || layout.min_node_size != layout.max_node_size ||
      count < layout.min_node_size) {
    return false;
  }
  if (input != recvbuf) local_copy(input, recvbuf, count, datatype);
  const CommInfo node = comm_info(layout.node);
  const Segments seg(count, node.p);
  char* base = static_cast<char*>(recvbuf);
  const int me = node.rank;
  // 1. Ring reduce-scatter within the node.
  ring_reduce_scatter_on(node, base, seg, datatype, type, op);
  // 2. Segment `me` over the nodes, in lane `me`.
  allreduce_lane(name, comm_info(layout.lane), me == 0, base + seg.displs[me] * type.extent,
                 seg.counts[me], datatype, type, op);
  // 3. The segments within the node.
  circulant_allgatherv_on(node, name, base, seg.counts.data(), seg.displs.data(), datatype, type);
  return true;
}

}  // namespace rosched::mpi
