// The environment variables of the collectives, read once: at the first call that needs them,
// then cached for the life of the process (a collective never calls getenv).
#ifndef ROSCHED_MPI_EXEC_SETTINGS_H_
#define ROSCHED_MPI_EXEC_SETTINGS_H_

#include <atomic>
#include <cstddef>
#include <string>

#include "sched/nway/nway_plan.h"

namespace rosched::mpi {

struct Settings {
  bool debug = false;          // ROSCHED_DEBUG: set, non-empty and not "0"
  double bcast_f = 0;          // ROSCHED_BCAST_F: block-size factor of Rosched_Bcast (0: unset,
                               // blocks from the cost model, cost_model.h)
  double alpha = 0, beta = 0;  // ROSCHED_ALPHA, ROSCHED_BETA: the cost model (0: measure it)
  int window = 0;              // ROSCHED_WINDOW: rounds in flight, and parts in flight of a
                               // streamed all-gather round (0: from the cost model)
  // ROSCHED_SENDS: how the pipelined broadcasts send their blocks (cost_model.h,
  // synchronous_sends): auto (the cost model decides), sync (MPI_Issend) or eager (MPI_Isend).
  enum class Sends { kAuto, kSynchronous, kEager };
  Sends sends = Sends::kAuto;
  int node_size = 0;           // ROSCHED_NODE_SIZE: k consecutive ranks form a node
                               // (node_layout.h; 0: MPI_COMM_TYPE_SHARED decides)
  bool verbose = false;        // ROSCHED_VERBOSE: rank 0 tells which algorithm was chosen
  // ROSCHED_BCAST, ROSCHED_REDUCE, ROSCHED_ALLREDUCE, ROSCHED_ALLGATHER, ROSCHED_ALLGATHERV,
  // ROSCHED_REDUCE_SCATTER, ROSCHED_ALLTOALL, ROSCHED_ALLTOALLV, ROSCHED_ALLMERGE: whether
  // Rosched_Bcast, Rosched_Reduce, Rosched_Allreduce, Rosched_Allgather, Rosched_Allgatherv,
  // Rosched_Reduce_scatter_block, Rosched_Alltoall, Rosched_Alltoallv and Rosched_Allmerge
  // (ROSCHED_ALLMERGE_AUTO; the library's: MPI_Allgatherv and a merge) run rosched's algorithm
  // or the MPI library's (library_choice.h): auto (a
  // prediction, then a timed trial), model (the prediction alone), rosched (also "circulant")
  // or native.
  enum class Choice { kAuto, kModel, kRosched, kNative };
  Choice bcast = Choice::kAuto, reduce = Choice::kAuto, allreduce = Choice::kAuto,
         allgather = Choice::kAuto, allgatherv = Choice::kAuto, reduce_scatter = Choice::kAuto,
         alltoall = Choice::kAuto, alltoallv = Choice::kAuto, allmerge = Choice::kAuto;
  double twotree_f = 0;        // ROSCHED_TWOTREE_F: the two-tree broadcast and reductions
  double hypercube_f = 0;      // ROSCHED_HYPERCUBE_F: Rosched_Bcast_hypercube
  double kary_f = 0;           // ROSCHED_KARY_F: Rosched_Bcast_kary_tree (kary_tree_plan.h)
  int kary_degree = 0;         // ROSCHED_KARY_DEGREE: its degree, 2..64 (0: from the cost model)
  double allgatherv_g = 2000;  // ROSCHED_ALLGATHERV_G: Rosched_Allgatherv
  // ROSCHED_STREAM_PART: bytes of the parts the all-gathers' and the reduce-scatters' rounds
  // go in, the n-port ones' too (0: from the cost model, stream_parts of cost_model.h; a round
  // of at most this many is one message, so 1e18 sends every round whole).
  double stream_part = 0;
  int nway_n = 0;              // ROSCHED_NWAY_N: ports of the n-way allreduce, 1..64 (0: cost rule)
  NwayRule nway_rule = NwayRule::kCirculant;  // ROSCHED_NWAY_RULE: nway_rule_listing()
  int bcast_ports = 0;         // ROSCHED_BCAST_PORTS: ports of the k-nomial broadcast, 1..64
                               // (0: its cost rule, bcast_knomial.h)
  int reduce_ports = 0;        // ROSCHED_REDUCE_PORTS: ports of Rosched_Reduce's k-nomial tree,
                               // 1..64, the tree for every short vector (0: its cost rule)
  int lane_chunks = 0;         // ROSCHED_LANE_CHUNKS: chunks of the pipelined multi-lane
                               // all-reduce and node-aware reduce-scatter, 1..64 (0: from the
                               // vector's size, allreduce_lanes.cc, reduce_scatter_node_aware.cc)
  // ROSCHED_NODE_REDUCE: the form of Rosched_Reduce_node_aware on equal nodes from 24 KiB,
  // "lanes" (every lane reduces its part: reduce_lanes.h) or "gather" (Rabenseifner's
  // reduce-scatter + gather); unset or "auto": by the vector's size (reduce_node_aware.cc).
  enum class NodeReduce { kBySize, kLanes, kGather };
  NodeReduce node_reduce = NodeReduce::kBySize;
  // ROSCHED_ALLTOALL_VARIANT: the algorithm of Rosched_Alltoall(v) ("" or "auto": the cost
  // rule; else a Bruck variant name or "linear"), checked at the call.
  std::string alltoall_variant;
  // ROSCHED_SCRATCH_KEEP: the most bytes of scratch buffers a thread keeps from one call for the
  // next (ScratchBuffer, datatype.h): a whole number of bytes, or with a suffix K, M or G
  // (KiB, MiB, GiB); 0 keeps none, every buffer is made and freed in its call. Default 144 MiB:
  // 16 MiB of buffers up to 1 MiB, 128 MiB of larger ones.
  std::size_t scratch_keep = kDefaultScratchKeep;
  static constexpr std::size_t kDefaultScratchKeep = std::size_t{144} << 20;
};

// The settings; a factor that is unset, not a number or not positive keeps its default, as
// does an n outside 1..64 or an unknown rule.
const Settings& settings();

// The environment read afresh, as settings() reads it once: each value that cannot be read keeps
// its default, with a line on stderr that names the variable, its text and what it takes.
Settings settings_from_environment();

// A byte count as ROSCHED_SCRATCH_KEEP takes it: digits, then optionally K, M or G (powers of
// 1024); false for anything else (empty, a sign, a fraction, another suffix, or more than 2^60).
bool parse_bytes(const char* text, std::size_t* bytes);

// Whether the environment variable `name` is set, non-empty and not "0" (how every on/off
// variable of the library is read, ROSCHED_PMPI_REPORT of the interposer too).
bool env_flag(const char* name);

// Whether the debug checks are on: the last Rosched_Set_debug if it was called, else
// settings().debug. Asked on every call of every collective, so one relaxed load: debug_state
// is -1 until the first question (which reads settings().debug, unless Rosched_Set_debug came
// first), then 0 or 1.
extern std::atomic<int> debug_state;
bool debug_checks_first();
inline bool debug_checks() {
  const int on = debug_state.load(std::memory_order_relaxed);
  return on < 0 ? debug_checks_first() : on == 1;
}

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_SETTINGS_H_
