// The multi-lane all-reduce (Träff, "Decomposing MPI collectives for exploiting multi-lane
// communication", 2020: the full-lane all-reduce) on N nodes of c ranks each, over circulant
// graphs: the vector is cut into S chunks, each chunk into c parts (part k for lane k, node rank
// k of every node), and every chunk passes four steps:
//  1. within every node, the circulant reduce-scatter of the c parts (Träff 2022's regular
//     all-gather, Alg. 7, run backwards; circulant_rounds.h): node rank k ends with part k
//     reduced over its node, in ceil(log2 c) rounds;
//  2. in every lane k at once, part k cut into N blocks and reduce-scattered over the nodes the
//     same way: node n's rank k ends with block n of part k reduced over all ranks;
//  3. in every lane, the circulant all-gather of those blocks (Alg. 7): part k reduced over all
//     ranks at every rank of lane k;
//  4. within every node, the circulant all-gather of the c parts.
// Each node's link carries 2 (N - 1) / N of the vector in all (c lanes of 1/c each, out and
// back), where flat algorithms send it once per rank of the node. Each step serves the chunks in
// order, one round at a time, and the steps run at once: while lane k works on chunk j, the node
// reduce-scatters chunk j + 1 and all-gathers chunk j - 1, so the node's link and its memory
// work together. The rounds of all chunks in flight are waited for together (MPI_Waitany).
// Commutative operations only (contributions are combined in schedule order).
// This replaced (2026-11-27) ring steps within the node (c - 1 of them per chunk) and an n-way
// or two-tree all-reduce of each lane (the n-way one sends the part once per round): 1.52x /
// 1.82x faster at 1 / 4 MiB on 36 x 32 simulated ranks (docs/simulation.md).
#include "mpi_exec/allreduce_lanes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <optional>
#include <vector>

#include "mpi_exec/circulant_rounds.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/node_layout.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"

namespace rosched::mpi {
namespace {

// The four steps of every chunk over node and lane (see the top of this file).
class LanePipeline {
 public:
  // The count elements at base in `chunks` chunks (each with at least node.p elements).
  LanePipeline(const CommInfo& node, const CommInfo& lane, char* base, int count, int chunks,
               MPI_Datatype datatype, const TypeInfo& type, MPI_Op op)
      : node_(node), lane_(lane), datatype_(datatype), type_(type), op_(op) {
    const BlockCut cut{count, chunks};
    for (int j = 0; j < chunks; ++j) {
      const BlockCut parts{cut.elements(j, 1), node.p};
      chunks_.emplace_back(base + cut.first(j) * type.extent, parts,
                           BlockCut{parts.elements(node.rank, 1), lane.p});
    }
  }

  void run() {
    std::vector<MPI_Request> requests;
    constexpr int kPerRound = CirculantRounds::round_request_count();
    for (;;) {
      for (std::size_t j = 0; j < chunks_.size(); ++j) start(j);
      requests.clear();
      for (Chunk& c : chunks_) {
        if (!c.posted) continue;
        const MPI_Request* r = c.walk->round_requests();
        requests.insert(requests.end(), r, r + kPerRound);
      }
      if (requests.empty()) {
        if (std::all_of(chunks_.begin(), chunks_.end(),
                        [](const Chunk& c) { return c.step == kDone; })) {
          return;
        }
        throw Error(MPI_ERR_INTERN, "pipelined multi-lane all-reduce: no round to wait for");
      }
      // MPI_Waitany, not MPI_Waitsome: SimGrid SMPI's MPI_Waitsome polls with MPI_Testsome,
      // which it charges simulated time for (100 us by default), 70x slower at 128 ranks.
      int index = 0;
      check(PMPI_Waitany(static_cast<int>(requests.size()), requests.data(), &index,
                         MPI_STATUS_IGNORE),
            "MPI_Waitany");
      // Back to the chunks (completed requests are MPI_REQUEST_NULL now); end finished rounds.
      std::size_t i = 0;
      for (Chunk& c : chunks_) {
        if (!c.posted) continue;
        MPI_Request* r = c.walk->round_requests();
        bool open = false;
        for (int m = 0; m < kPerRound; ++m, ++i) {
          r[m] = requests[i];
          open = open || r[m] != MPI_REQUEST_NULL;
        }
        if (!open) {
          c.posted = false;
          c.walk->end_round();
        }
      }
    }
  }

 private:
  enum Step { kNodeReduceScatter, kLaneReduceScatter, kLaneAllgather, kNodeAllgather, kDone };
  struct Chunk {
    Chunk(char* at, const BlockCut& p, const BlockCut& b) : base(at), parts(p), blocks(b) {}
    char* base;
    BlockCut parts;   // the chunk in node.p parts, part k lane k's
    BlockCut blocks;  // this rank's part in lane.p blocks
    Step step = kNodeReduceScatter;
    bool posted = false;                  // a round of the step is in flight
    std::optional<CirculantRounds> walk;  // the step's rounds (CirculantRounds does not move)
  };

  // Posts chunk j's next round where its step is free for it; moves on past finished steps.
  void start(std::size_t j) {
    Chunk& c = chunks_[j];
    while (!c.posted && c.step != kDone && turn_[c.step] == static_cast<int>(j)) {
      if (!c.walk) {
        const bool in_node = c.step == kNodeReduceScatter || c.step == kNodeAllgather;
        const bool reduce = c.step == kNodeReduceScatter || c.step == kLaneReduceScatter;
        char* const at = in_node ? c.base : c.base + c.parts.first(node_.rank) * type_.extent;
        c.walk.emplace(reduce ? CirculantRounds::kReduceScatter : CirculantRounds::kAllgather,
                       in_node ? node_ : lane_, at, in_node ? c.parts : c.blocks, datatype_, type_,
                       op_, reduce ? tag::kReduceScatterRound : tag::kAllgatherRound);
      }
      if (c.walk->start_round()) {
        c.posted = true;
      } else {
        c.walk.reset();
        ++turn_[c.step];
        c.step = static_cast<Step>(c.step + 1);
      }
    }
  }

  const CommInfo node_, lane_;
  MPI_Datatype datatype_;
  TypeInfo type_;
  MPI_Op op_;
  std::deque<Chunk> chunks_;   // (a deque: chunks do not move)
  std::array<int, 4> turn_{};  // per step, the chunk whose turn it is
};

// How many chunks: ROSCHED_LANE_CHUNKS, or round(sqrt(bytes / 64 KiB)): S chunks through four
// steps take about (S + 3) (a + b m / S), least at S = sqrt(3 b m / a), a the fixed cost of a
// chunk's step and b m / S its transfers; the constant measured in SimGrid SMPI on the paper's
// 36 x 32 ranks (docs/simulation.md), µs: 1 MiB in 2 / 4 / 8 / 32 chunks 320.9 / 291.8 / 367.6 /
// 935.4, 4 MiB in 4 / 8 / 16 / 32 chunks 872.6 / 754.7 / 826.8 / 1,260.2. At most 64, and every
// chunk at least one element per node rank.
int lane_chunks(int count, int node_size, const TypeInfo& type) {
  const double bytes = static_cast<double>(count) * type.size;
  const int wanted = settings().lane_chunks > 0
                         ? settings().lane_chunks
                         : static_cast<int>(std::lround(std::sqrt(bytes / 65536)));
  return std::max(1, std::min({wanted, 64, count / node_size}));
}

}  // namespace

bool lane_allreduce_applies(const CommInfo& ci, int count) {
  if (ci.p == 1) return false;
  const NodeLayout& layout = node_layout(ci);
  return layout.hierarchical() && layout.min_node_size == layout.max_node_size &&
         count >= layout.min_node_size;
}

void lane_allreduce_on(const CommInfo& ci, const char* name, const void* input, void* recvbuf,
                       int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op) {
  const NodeLayout& layout = node_layout(ci);
  if (input != recvbuf) local_copy(input, recvbuf, count, datatype);
  const CommInfo node = comm_info(layout.node), lane = comm_info(layout.lane);
  const int chunks = lane_chunks(count, node.p, type);
  tell_choice(ci, name, "multi-lane (blocks: chunks; circulant in the nodes and the lanes)", chunks,
              1, static_cast<double>(count) * type.size);
  LanePipeline(node, lane, static_cast<char*>(recvbuf), count, chunks, datatype, type, op).run();
}

}  // namespace rosched::mpi
