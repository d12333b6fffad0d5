// The full-lane steps over circulant walks, chunks in flight together (lane_pipeline.h).
#include "mpi_exec/lane_pipeline.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "mpi_exec/allgather_nway.h"
#include "mpi_exec/circulant_rounds.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"

namespace rosched::mpi {
namespace {

class LanePipeline {
 public:
  LanePipeline(const CommInfo& node, const CommInfo& lane, const std::vector<LaneChunk>& chunks,
               LaneSteps steps, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op)
      : node_(node),
        lane_(lane),
        datatype_(datatype),
        type_(type),
        op_(op),
        last_(steps == LaneSteps::kAllreduce ? kNodeAllgather : kLaneReduceScatter) {
    for (const LaneChunk& c : chunks) chunks_.emplace_back(c);
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
        throw Error(MPI_ERR_INTERN, "full-lane pipeline: no round to wait for");
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
    explicit Chunk(const LaneChunk& c) : base(c.base), parts(c.parts), blocks(c.blocks) {}
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
        c.step = c.step == last_ ? kDone : static_cast<Step>(c.step + 1);
      }
    }
  }

  const CommInfo node_, lane_;
  MPI_Datatype datatype_;
  TypeInfo type_;
  MPI_Op op_;
  Step last_;                  // the last step every chunk passes
  std::deque<Chunk> chunks_;   // (a deque: chunks do not move)
  std::array<int, 4> turn_{};  // per step, the chunk whose turn it is
};

}  // namespace

int lane_chunks(LaneSteps steps, double bytes, std::int64_t most) {
  const int later_steps = steps == LaneSteps::kAllreduce ? 3 : 1;
  const int wanted =
      settings().lane_chunks > 0
          ? settings().lane_chunks
          : static_cast<int>(std::lround(std::sqrt(later_steps * bytes / (192 * 1024))));
  return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>({wanted, 64, most})));
}

namespace {

bool has_empty_block(const BlockCut& blocks) {
  for (std::int64_t b = 0; b < blocks.p; ++b) {
    if (blocks.elements(b, 1) < 1) return true;
  }
  return false;
}

// Lanes' n: lane_ports by a made model, -1 where a block has no element; lanes whose blocks are
// alike asked once (what the rule reads of them, GatherBlocks and whether a block is empty, and
// its answer kept for each kind of lane seen).
class LaneAnswers {
 public:
  int of(const CostModel& model, const CommInfo& lane, const BlockCut& blocks,
         const TypeInfo& type) {
    const bool empty = has_empty_block(blocks);
    const GatherBlocks read = gather_blocks(blocks, type.size);
    for (const Seen& s : seen_) {
      if (s.empty == empty && s.read.mean == read.mean && s.read.largest == read.largest) {
        return s.n;
      }
    }
    seen_.push_back(
        {empty, read, empty ? -1 : nway_allgather_ports(lane, read, model, NportRounds::kWhole)});
    return seen_.back().n;
  }

 private:
  struct Seen {
    bool empty;
    GatherBlocks read;
    int n;
  };
  std::vector<Seen> seen_;
};

}  // namespace

int lane_ports(const CommInfo& node, const CommInfo& lane, const BlockCut& blocks,
               const TypeInfo& type) {
  // Collective over every lane the first time: before what differs between the lanes.
  return std::max(0, LaneAnswers().of(lanes_model(lane, node), lane, blocks, type));
}

double one_chunk_on_ports_up_to(LaneSteps steps) {
  return steps == LaneSteps::kReduceScatter ? 4 << 20 : 1 << 20;
}

bool one_chunk_allowed(LaneSteps steps, double bytes) {
  return settings().lane_chunks == 0 && bytes <= one_chunk_on_ports_up_to(steps);
}

bool may_go_as_one_chunk(int chunks, LaneSteps steps, double bytes) {
  return chunks > 1 && one_chunk_allowed(steps, bytes);
}

int one_chunk_ports(const CommInfo& ci, const char* name, const CommInfo& node,
                    const CommInfo& lane, const std::function<BlockCut(int)>& lane_blocks,
                    const TypeInfo& type, double bytes) {
  const CostModel& model = lanes_model(lane, node);  // collective the first time
  std::vector<int> lanes(static_cast<std::size_t>(node.p));
  LaneAnswers answers;  // the rule's O(64 log p) work once for all alike lanes
  for (int k = 0; k < node.p; ++k) {
    lanes[static_cast<std::size_t>(k)] = answers.of(model, lane, lane_blocks(k), type);
  }
  std::sort(lanes.begin(), lanes.end());
  const int ports = lanes.front() < 0 ? 0 : lanes[lanes.size() / 2];
  if (settings().verbose) {
    const std::string what = "one chunk where the lanes take n ports: the lanes' n " +
                             std::to_string(lanes.front()) + " to " + std::to_string(lanes.back()) +
                             ", median " + std::to_string(ports);
    tell_choice(ci, name, what.c_str(), 0, 0, bytes);
  }
  return ports;
}

int run_lane_steps(const CommInfo& node, const CommInfo& lane, const LaneChunk& chunk,
                   LaneSteps steps, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op,
                   int ports) {
  // The node's steps the same on every rank of the node, whatever its lane takes.
  circulant_reduce_scatter_on(node, chunk.base, chunk.parts, datatype, type, op);
  char* const part = chunk.base + chunk.parts.first(node.rank) * type.extent;
  if (ports < 0) ports = lane_ports(node, lane, chunk.blocks, type);
  if (ports > 0) {
    nway_reduce_scatter_on(lane, part, chunk.blocks, datatype, type, op, ports);
  } else {
    circulant_reduce_scatter_on(lane, part, chunk.blocks, datatype, type, op);
  }
  if (steps == LaneSteps::kAllreduce) {
    if (ports > 0) {
      nway_allgather_on(lane, part, chunk.blocks, datatype, type, ports);
    } else {
      circulant_allgather_on(lane, part, chunk.blocks, datatype, type);
    }
    circulant_allgather_on(node, chunk.base, chunk.parts, datatype, type);
  }
  return ports;
}

void tell_lane_ports(const CommInfo& ci, const char* name, LaneSteps steps, int ports,
                     double bytes) {
  if (ports <= 0 || !settings().verbose) return;
  const std::string what = (steps == LaneSteps::kAllreduce ? "lane steps on " : "lane step on ") +
                           std::to_string(ports) + " ports";
  tell_choice(ci, name, what.c_str(), 0, 0, bytes);
}

void run_lane_pipeline(const CommInfo& node, const CommInfo& lane,
                       const std::vector<LaneChunk>& chunks, LaneSteps steps, MPI_Datatype datatype,
                       const TypeInfo& type, MPI_Op op) {
  LanePipeline(node, lane, chunks, steps, datatype, type, op).run();
}

}  // namespace rosched::mpi
