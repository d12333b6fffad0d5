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
// Pipelined form, for long vectors: the vector is cut into S chunks that pass the three steps one
// after the other, step 3 then being the ring all-gather (Patarasuk and Yuan 2009, Sec. 4) and
// step 2 the n-way all-reduce; while lane k all-reduces chunk j over the network, the node
// reduce-scatters chunk j + 1 and all-gathers chunk j - 1 (each step serves the chunks in
// order, one at a time), so the node's network link and its memory work at once. The rounds of
// all chunks in flight are waited for together (MPI_Waitany).
#include "mpi_exec/allreduce_lanes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <deque>
#include <optional>
#include <vector>

#include "mpi_exec/allgatherv_circulant.h"
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/node_layout.h"
#include "mpi_exec/nway_allreduce.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"
#include "mpi_exec/reduce_trees.h"
#include "sched/ring/ring_allgather.h"
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
  ScratchBuffer in(type, *std::max_element(seg.counts.begin(), seg.counts.end()));
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

// The pipelined multi-lane all-reduce (see the top of this file) of the count elements at base
// in `chunks` chunks of at least node.p elements each, lanes by n-way all-reduces of `ports`.
class LanePipeline {
 public:
  LanePipeline(const CommInfo& node, const CommInfo& lane, char* base, int count, int chunks,
               MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int ports)
      : node_(node), lane_(lane), datatype_(datatype), type_(type), op_(op), ports_(ports) {
    int largest = 0;
    for (int j = 0; j < chunks; ++j) {
      const auto begin = rosched::ring_segment_begin(count, chunks, j);
      const auto end = rosched::ring_segment_begin(count, chunks, j + 1);
      const Chunk& c = chunks_.emplace_back(base + begin * type.extent, static_cast<int>(end - begin), node.p);
      largest = std::max(largest, *std::max_element(c.seg.counts.begin(), c.seg.counts.end()));
    }
    scratch_.emplace(type, largest);
  }

  // Only after an error: cancel and release the ring rounds still in flight (a lane's n-way
  // all-reduce does so for its own).
  ~LanePipeline() {
    for (Chunk& c : chunks_) {
      for (MPI_Request& r : c.ring) {
        if (r == MPI_REQUEST_NULL) continue;
        PMPI_Cancel(&r);
        PMPI_Request_free(&r);
      }
    }
  }
  LanePipeline(const LanePipeline&) = delete;
  LanePipeline& operator=(const LanePipeline&) = delete;

  void run() {
    std::vector<MPI_Request> requests;
    for (;;) {
      for (std::size_t j = 0; j < chunks_.size(); ++j) start(j);
      requests.clear();
      for (std::size_t j = 0; j < chunks_.size(); ++j) {
        if (!chunks_[j].posted) continue;
        const auto [r, n] = round_requests(chunks_[j]);
        requests.insert(requests.end(), r, r + n);
      }
      if (std::none_of(chunks_.begin(), chunks_.end(), [](const Chunk& c) { return c.posted; })) {
        if (std::all_of(chunks_.begin(), chunks_.end(),
                        [](const Chunk& c) { return c.phase == kDone; })) {
          return;
        }
        throw Error(MPI_ERR_INTERN, "pipelined multi-lane all-reduce: no round to wait for");
      }
      if (!requests.empty()) {
        // MPI_Waitany, not MPI_Waitsome: SimGrid SMPI's MPI_Waitsome polls with MPI_Testsome,
        // which it charges simulated time for (100 us by default), 70x slower at 128 ranks.
        int index = 0;
        check(PMPI_Waitany(static_cast<int>(requests.size()), requests.data(), &index,
                           MPI_STATUS_IGNORE),
              "MPI_Waitany");
      }
      // Back to the chunks (completed requests are MPI_REQUEST_NULL now); end finished rounds.
      std::size_t i = 0;
      for (std::size_t j = 0; j < chunks_.size(); ++j) {
        if (!chunks_[j].posted) continue;
        const auto [r, n] = round_requests(chunks_[j]);
        bool open = false;
        for (int m = 0; m < n; ++m, ++i) {
          r[m] = requests[i];
          open = open || r[m] != MPI_REQUEST_NULL;
        }
        if (!open) end(chunks_[j]);
      }
    }
  }

 private:
  enum Phase { kReduceScatter = 0, kLane = 1, kAllgather = 2, kDone = 3 };
  struct Chunk {
    Chunk(char* at, int count, int parts) : base(at), seg(count, parts) {}
    char* base;
    Segments seg;
    Phase phase = kReduceScatter;
    int step = 0;         // ring step within the phase
    bool posted = false;  // a round of the phase is in flight
    std::array<MPI_Request, 2> ring{MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    std::optional<NwayAllreduce> lane;
  };

  char* at(const Chunk& c, std::int64_t k) const { return c.base + c.seg.displs[k] * type_.extent; }

  std::pair<MPI_Request*, int> round_requests(Chunk& c) {
    if (c.phase == kLane) return {c.lane->round_requests(), c.lane->round_request_count()};
    return {c.ring.data(), 2};
  }

  // Posts chunk j's next round where its phase is free for it; moves on through phases that
  // have nothing left to send.
  void start(std::size_t j) {
    Chunk& c = chunks_[j];
    while (!c.posted && c.phase != kDone && turn_[c.phase] == static_cast<int>(j)) {
      const int me = node_.rank;
      if (c.phase == kLane) {
        if (!c.lane) {
          c.lane.emplace(MPI_IN_PLACE, at(c, me), c.seg.counts[me], datatype_, type_, op_, lane_,
                         ports_, NwayRule::kCirculant);
        }
        if (c.lane->start_round()) {
          c.posted = true;
        } else {
          c.lane.reset();
          next_phase(c);
        }
        continue;
      }
      if (c.step == node_.p - 1) {
        next_phase(c);
        continue;
      }
      const bool gather = c.phase == kAllgather;
      const rosched::RingStep step = gather ? rosched::ring_allgather_step(node_.p, me, c.step)
                                            : rosched::ring_reduce_scatter_step(node_.p, me, c.step);
      const int tag = gather ? tag::kAllreduceRingGather : tag::kAllreduceRing;
      void* into = gather ? at(c, step.recv_segment) : scratch_->data();
      check(PMPI_Irecv(into, c.seg.counts[step.recv_segment], datatype_,
                       static_cast<int>(step.from), tag, node_.c, &c.ring[0]),
            "MPI_Irecv");
      check(PMPI_Isend(at(c, step.send_segment), c.seg.counts[step.send_segment], datatype_,
                       static_cast<int>(step.to), tag, node_.c, &c.ring[1]),
            "MPI_Isend");
      c.posted = true;
    }
  }

  // The round in flight of c has completed.
  void end(Chunk& c) {
    c.posted = false;
    if (c.phase == kLane) {
      c.lane->end_round();
      return;
    }
    if (c.phase == kReduceScatter) {
      const rosched::RingStep step = rosched::ring_reduce_scatter_step(node_.p, node_.rank, c.step);
      check(PMPI_Reduce_local(scratch_->data(), at(c, step.recv_segment),
                              c.seg.counts[step.recv_segment], datatype_, op_),
            "MPI_Reduce_local");
    }
    ++c.step;
  }

  void next_phase(Chunk& c) {
    ++turn_[c.phase];
    c.phase = static_cast<Phase>(c.phase + 1);
    c.step = 0;
  }

  const CommInfo node_, lane_;
  MPI_Datatype datatype_;
  TypeInfo type_;
  MPI_Op op_;
  int ports_;
  std::optional<ScratchBuffer> scratch_;  // a reduce-scatter step's incoming segment
  std::deque<Chunk> chunks_;  // (NwayAllreduce does not move)
  std::array<int, 3> turn_{};  // per phase, the chunk whose turn it is
};

// Bytes of a ring segment (a chunk's share per node rank) the pipelined all-reduce aims at:
// measured in SimGrid SMPI on the paper's cluster of 32-core nodes (4 x 32 ranks, 1 MiB: 466 us
// not pipelined, 393 / 248 / 327 us in 2 / 4 / 8 chunks; 4 MiB: 1,586 us, then 1,025 / 774 us in
// 8 / 16 chunks; 64 KiB: 55 us, 99 us in 2 chunks): about 8 KiB per segment, 256 KiB per chunk.
constexpr double kLaneSegmentBytes = 8192;

// How many chunks the pipelined all-reduce cuts count elements into (1: not pipelined):
// ROSCHED_LANE_CHUNKS, or segments of about kLaneSegmentBytes; at most 64, and every chunk's
// segments at least one element.
int lane_chunks(int count, int node_size, const TypeInfo& type) {
  const double bytes = static_cast<double>(count) * type.size;
  const int wanted = settings().lane_chunks > 0
                         ? settings().lane_chunks
                         : static_cast<int>(std::lround(bytes / (node_size * kLaneSegmentBytes)));
  return std::max(1, std::min({wanted, 64, count / node_size}));
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
  char* base = static_cast<char*>(recvbuf);
  const int me = node.rank;
  const int chunks = lane_chunks(count, node.p, type);
  if (chunks > 1) {
    const CommInfo lane = comm_info(layout.lane);
    const double bytes = static_cast<double>(count) / (chunks * node.p) * type.size;
    const int n = nway_ports(lane, bytes);
    if (me == 0 && settings().verbose) {
      char what[96];
      std::snprintf(what, sizeof what, "multi-lane pipelined (blocks: chunks), lanes n-way, %d ports", n);
      tell_choice(lane, name, what, chunks, 1, bytes);
    }
    LanePipeline(node, lane, base, count, chunks, datatype, type, op, n).run();
    return true;
  }
  const Segments seg(count, node.p);
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
