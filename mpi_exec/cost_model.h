// The cost model the collectives decide by. Träff 2022 (Sec. 3, Theorem 2) and Träff's lecture
// notes ("cost models") take one message of m bytes to cost alpha + beta m. Real transports
// switch protocols with the size (eager below a limit, rendezvous above; SimGrid SMPI models
// the same with size-dependent latency and bandwidth factors), so the latency a pipelined
// broadcast pays per round depends on its block size: a single alpha measured with tiny
// messages makes blocks too small. The model is therefore piecewise linear: the measured time
// of messages of a few sizes, linearly interpolated between them (and extrapolated beyond the
// largest with the last segment's slope). From it: the number of blocks of a pipelined
// broadcast, how many rounds it keeps in flight, and whether a pipelined schedule pays at all.
//
// Where the figures come from (decided once per communicator, at the first collective that
// needs them, identically on every rank):
//  - ROSCHED_ALPHA and ROSCHED_BETA (seconds, seconds per byte), if both are set and valid:
//    the linear model alpha + beta m;
//  - else measured: every rank exchanges messages with rank + p / 2 and rank - p / 2 at once
//    (sends to one, receives from the other, as in a round of a circulant schedule, so the
//    figures include what all ranks' traffic together costs: node links shared by the ranks of
//    a node, a backbone narrower than all links), 8 B, 4, 8, 16, 32, 60 and 128 KiB and 1 MiB
//    (8 and 16 KiB since 2026-11-29: SMPI's calibrated model moves 5,776-9,375 B at 1.09 of a
//    link's bandwidth and 15,424-65,471 B at 0.70, so a line from 4 to 32 KiB made 16 KiB
//    blocks look cheaper than 8 KiB ones), the shortest of a few trips (each after a barrier and an
//    untimed exchange that absorbs the barrier's uneven release); the slowest rank's figures, by
//    one MPI_Allreduce, so every rank computes the same block counts. Also per_message: every
//    rank sends four messages of 8 B to rank + p / 2 and receives four from rank - p / 2 at
//    once (a burst), and one; the difference over 3. And sync_extra: the same single exchange
//    of 8 B with MPI_Issend, less the one with MPI_Isend. And crowding: the 1 MiB exchange
//    of ranks 0 and p / 2 alone, the others idle, against the one of all ranks. And fanout
//    (p >= 4): rank 0 sending 1 MiB to ranks p / 2 and p / 4 at once against to p / 2 alone,
//    the others idle. And stream: every rank sends 8 messages of each stream size to rank + p / 2
//    at once and receives 8 from rank - p / 2 (all in flight), against one: what a further
//    message of a stream costs, its latency hidden behind the others, as a tree's pipeline
//    pays it. And burst: the same for 512 B, 1 and 2 KiB, with every rank starting at one
//    agreed instant where the clock is global (a simulation; 8 messages), else with 32
//    messages from each rank's own start, so that what all ranks' messages cost the network
//    outweighs how unevenly the ranks start (8 that way gave 0.33 us per further message of
//    512 B on SMPI's `flat288`, 32 gave 0.84, and 288 ranks sending 8 or 31 from one instant
//    pay 0.93: scripts/backbone_probe.sh). About 500 messages and 8 MiB per rank, once per
//    communicator; cached on its private duplicate.
#ifndef ROSCHED_MPI_EXEC_COST_MODEL_H_
#define ROSCHED_MPI_EXEC_COST_MODEL_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

struct CostModel {
  static constexpr int kPoints = 8;
  // Message sizes (bytes, increasing) and their times (seconds, not decreasing).
  std::array<double, kPoints> bytes{}, seconds{};
  // What each further message costs when a rank sends and receives several small ones at once
  // (seconds): per-message overheads that one message at a time hides in the latency. 0 for the
  // linear model.
  double per_message = 0;
  // What a synchronous send (MPI_Issend, complete only once the receive has matched it) of a
  // short message costs over an eager one (MPI_Isend) in an exchange (seconds): the
  // acknowledgement a transport sends back. 0 for the linear model.
  double sync_extra = 0;
  // How many times longer the largest exchange takes with every rank exchanging at once than
  // with two ranks alone (>= 1): above 1, something the ranks share (a backbone narrower than
  // all links, a node's link) limits, not each rank's own link. 1 for the linear model.
  double crowding = 1;
  // How many times longer a rank's 1 MiB to two ranks at once takes than to one (about 1..2):
  // near 2 its messages share its link; near 1 each has a path of its own (SimGrid's loopback
  // within a node, single-copy shared memory), so several blocks in flight do not slow each
  // other. 2 for the linear model and below 4 ranks.
  double fanout = 2;
  // What a further message of each of the kStreamSizes costs in a stream of them (seconds),
  // every rank streaming at once: the per-block time of a pipeline that keeps
  // several blocks in flight on every edge. Per byte it is not monotone: transports (and SMPI's
  // calibrated model) move some sizes faster per byte than larger ones. beta s for the linear
  // model.
  static constexpr int kStreamPoints = 6;
  std::array<double, kStreamPoints> stream{};
  // The same for the kBurstSizes, smaller messages, every rank sending 8 at once: what a rank's
  // n messages of one size cost beyond the first, as an n-port round sends them. Each message
  // moves at its own size's rate: SimGrid SMPI's calibrated model moves 257-1,425 B at 0.34 of
  // a link's bandwidth and 1,426-3,483 B at 0.61, where one message of their n-fold size moves
  // at 0.70 (15,424-65,471 B). beta s for the linear model.
  static constexpr int kBurstPoints = 3;
  std::array<double, kBurstPoints> burst{};
  bool measured = false;
  // (A field added here belongs in same_model too.)

  // alpha + beta m, as points of the same sizes.
  static CostModel linear(double alpha, double beta);
  // The time of one message of `bytes`.
  double time(double bytes) const;
  // The slope (seconds per byte) of the segment that serves `bytes`.
  double per_byte(double bytes) const;
  // What each further message of `bytes` costs where every rank sends several at once
  // (seconds): per_message at 8 B, the burst and stream figures at their sizes, linear between
  // them, and beyond the largest streamed size the largest's figure in proportion to the bytes.
  double further(double bytes) const;
};

// The sizes the model is measured at.
// 60 KiB sits below the eager limit of many transports (64 KiB for Open MPI's TCP and SimGrid
// SMPI), 128 KiB above it, so the model sees the step to the rendezvous protocol.
inline constexpr std::array<double, CostModel::kPoints> kModelSizes = {
    8, 4096, 8192, 16384, 32768, 61440, 131072, 1048576};
// The index of 60 KiB, the largest size measured below that eager limit.
inline constexpr int kEagerPoint = 5;
// The most blocks a pipeline splits a message into: more are never better.
inline constexpr std::int64_t kMaxPipelineBlocks = 1 << 20;
// The sizes streamed (8 of each fit in the 1 MiB the model's buffers hold).
inline constexpr std::array<double, CostModel::kStreamPoints> kStreamSizes = {
    4096, 8192, 16384, 32768, 61440, 131072};
// The smaller sizes sent in bursts (CostModel::burst), one in each of the size classes of
// SimGrid SMPI's calibrated model below 4 KiB that an n-port round's messages fall in.
inline constexpr std::array<double, CostModel::kBurstPoints> kBurstSizes = {512, 1024, 2048};

// The model of the communicator; collective over it the first time (then a cached lookup).
const CostModel& cost_model(const CommInfo& comm);

// The model of `lane` measured now as cost_model makes it (ROSCHED_ALPHA/BETA's where set), not
// kept, with every lane of a layout of equal nodes (node_layout.h) measuring in step: each
// barrier and each agreed instant of the measures spans every lane (through the lane, then
// through `node`, which holds one rank of every lane), so that all lanes' messages meet as in a
// full-lane step. Collective over every lane and node of the layout.
CostModel measure_lanes_model(const CommInfo& lane, const CommInfo& node);

// Per figure (each time, per_message, sync_extra, crowding, fanout, each stream and burst
// figure) the median of the models' (the upper one of an even count); the sizes and `measured`
// of the first. Where every model's times grow with the size, so do the medians' (the k-th
// smallest of figures each at most its model's next). models not empty.
CostModel median_model(const std::vector<CostModel>& models);

// Whether a and b hold the same sizes, figures and `measured` (every field): a cache's key.
bool same_model(const CostModel& a, const CostModel& b);

// The model of `lane` for collectives in which every lane of a layout of equal nodes
// (node_layout.h) sends at once: the full-lane steps (lane_pipeline.h). Every lane measures its
// model as cost_model does, all lanes at once and in step (measure_lanes_model: as they then
// run, their ranks sharing the nodes' links), and every lane takes the median of all lanes' models
// (median_model), so that all lanes decide alike. The lanes are alike (one rank on every node
// each), yet their models, when each lane measured after its own barrier amid the others' traffic,
// were not: at 36 x 32 simulated ranks the lanes' own models found from 0 to 35 ports for the alike
// blocks of a 1 MiB all-reduce (docs/sim/nport_allreduce.md, "The lanes' models disagree");
// measured in step, the lanes' figures agree to three digits at 36 x 8, 16 and 32 ("The lanes
// measure in step"). Every node holds one rank of each lane, so one MPI_Allgather in each node
// gathers the same models everywhere. Collective over every lane and node of the layout the first
// time; kept on the lane apart from cost_model(lane), the model of a lane sending alone (a
// node-aware broadcast's carrier lane). lanes_model.cc.
const CostModel& lanes_model(const CommInfo& lane, const CommInfo& node);

// An answer of a decision between the MPI library's collective and rosched's (library_choice.h):
// 0 the library's, k >= 1 rosched's candidate k (the broadcast has eight: the circulant, the
// hypercube, the two-tree and the k-ary tree broadcast, the circulant one with three other
// windows, and the scatter + all-gather; the reduction three; the all-gather of one large block
// two; the others one), at most kMaxAnswer.
inline constexpr int kMaxAnswer = 15;

// The last answer of a decision that depends only on the communicator and (count, element
// size), such as Rosched_Bcast's choice. It is kept with the communicator's model, so it goes
// when the communicator is freed: a later communicator that reuses the handle never sees an old
// answer (which could differ between its ranks and make them run different algorithms). One
// atomic word, so threads may share it.
class DecisionMemo {
 public:
  // Whether the last answer stored is for (count, size) (both >= 0); if so, *answer is it.
  bool find(int count, int size, int* answer) const;
  // Keeps answer (0..kMaxAnswer) for (count, size); an element of 2^28 bytes or more is not
  // kept (the word has no room for it): find then says no.
  void store(int count, int size, int answer);

 private:
  std::atomic<std::uint64_t> word_{0};
};

// The collectives that choose between the MPI library's own and rosched's (library_choice.h):
// each has a memo and measured answers of its own on every communicator.
// Rosched_Allgatherv decides apart for distributions whose largest block is at least half of
// the data (kAllgathervLargest) and for the others (allgatherv.cc); Rosched_Alltoallv once for
// every call on the communicator (kAlltoallvAtAll: whether to look at a call's sizes at all),
// then per call (alltoallv.cc). Rosched_Allmerge's "library" is the MPI library's
// MPI_Allgatherv followed by a merge, and it too decides apart where the largest block is at
// least half of the data (kAllmergeLargest; allmerge_choice.cc).
enum class Decided {
  kBcast, kReduce, kAllreduce, kAllgather, kAllgatherv, kAllgathervLargest, kReduceScatter,
  kReduceScatterV, kAlltoall, kAlltoallv, kAlltoallvAtAll, kAllmerge, kAllmergeLargest
};
inline constexpr int kDecidedCount = 13;

// The memo of collective `which` on the communicator; collective the first time, like
// cost_model.
DecisionMemo& decision_memo(const CommInfo& comm, Decided which);

// Answers (0..kMaxAnswer) found by timing the candidates of a decision (Rosched_Bcast: the
// library's MPI_Bcast against rosched's broadcasts), one per size class: messages of 2^k to
// 2^(k+1) - 1 bytes share the answer of the first of them timed. Kept with the communicator's
// model, like the memo; atomic words, so threads may share them (an answer is written before
// its class is marked known).
class MeasuredChoices {
 public:
  // floor(log2 bytes) for bytes >= 1, else 0: 0..62.
  static int size_class(std::int64_t bytes);
  // Whether the class of `bytes` has an answer; if so, *answer is it.
  bool find(std::int64_t bytes, int* answer) const;
  void store(std::int64_t bytes, int answer);

 private:
  static constexpr int kAnswerBits = 4;  // answers 0..15
  static_assert(kMaxAnswer < (1 << kAnswerBits), "an answer fits in the bits");
  std::atomic<std::uint64_t> known_{0};
  std::array<std::atomic<std::uint64_t>, kAnswerBits> bits_{};  // bit j of each class's answer
};

// The measured answers of collective `which` on the communicator; collective the first time,
// like cost_model.
MeasuredChoices& measured_choices(const CommInfo& comm, Decided which);

// The time of a pipelined broadcast of `bytes` in n blocks over a schedule of n + extra_rounds
// rounds (n - 1 + ceil(log2 p) for the circulant and hypercube broadcasts: extra_rounds =
// q - 1), one block per round on the critical path: (n + extra_rounds) time(bytes / n).
double pipeline_time(const CostModel& model, double bytes, std::int64_t extra_rounds,
                     std::int64_t n);

// The n in [1, max(1, max_blocks)] with the least pipeline_time (max_blocks: whole elements,
// no element is split; at most 2^20). For the linear model this is
// n = sqrt(extra_rounds beta bytes / alpha) (Träff 2022, Theorem 2), rounded to the better
// neighbour; for the piecewise model the same on each segment, O(kPoints) work.
std::int64_t pipeline_blocks(const CostModel& model, double bytes, std::int64_t extra_rounds,
                             std::int64_t max_blocks);

// Messages of a stream in flight on each edge (a k-ary tree's, an all-gather round's): the
// receiver posts this many receives ahead. Measured in SMPI (`flat288`: 288 ranks sharing a
// 500 GB/s backbone, the k-ary tree broadcast of 1 MiB in 128 blocks, degree 5): 804 / 764 /
// 732 / 722 / 721 / 724 us with 3 / 4 / 6 / 8 / 10 / 12 blocks per edge; 1,163 us with 1.
inline constexpr int kStreamInFlight = 8;

// How many equal parts (whole elements: at most max(1, max_parts), and at most 2^20) `bytes`
// cost least in when sent as a stream, one after the other with several in flight: lead
// time(bytes / n) + (n - 1) stream(s) shared, for parts cut to each streamed size s
// (kStreamSizes) smaller than bytes (n = ceil(bytes / s)), against lead time(bytes) for one
// message (n = 1). The first part pays a message's full time `lead` times (once on an edge, the
// depth of a tree), each further one a step of the stream, `shared` (>= 1) streams on a rank's
// link at once. Where a transport moves some sizes faster per byte than larger messages (SimGrid
// SMPI's calibrated model: 5,776-9,375 B at 1.09 of the link's bandwidth, from 65,472 B at
// 0.94), the stream figures show it; on a linear model a stream of the smallest streamed size
// never beats one message at shared = 1.
//
// windowed: each part's stream step taken as step + L / stream_window (below: parts in flight
// refilled a window at a time), for a stream paced by its receiver's window; else the step
// alone, the latencies hidden (the k-ary tree, kStreamInFlight blocks on each edge, measured).
std::int64_t stream_parts(const CostModel& model, double bytes, double lead, double shared,
                          std::int64_t max_parts, bool windowed = false);

// How many equal parts (at most max(1, max_parts), at most 2^20) a message of `bytes` costs
// least in where it is one of several a rank sends at once (an n-port round's): those messages
// overlap each other's latency, so what parts can change is the rate per byte. Parts of s bytes
// are taken at the figure `further` gives a message of that size among several (CostModel):
// k parts of bytes / k cost k further(bytes / k), for k = 1 and k = ceil(bytes / s) for each
// streamed size s (kStreamSizes) below bytes; the least, taken where it is at most 0.9 of one
// message's (else 1: parts that save less are not worth the calls). On a linear model parts
// never pay (each costs the bytes it carries). Measured in SimGrid SMPI, `paper` 36 x 1, an
// n-port all-gather on 35 ports: 7.3 KiB messages in two parts of 3.6 KiB (SMPI moves
// 3,484-5,775 B at 0.77 of a link's bandwidth, 5,776-9,375 B at 1.09) took 17.7 us against 14.3
// whole; stream_parts, which weighs a stream over one edge alone, had cut them.
std::int64_t fan_parts(const CostModel& model, double bytes, std::int64_t max_parts);

// Parts of part_bytes a stream over one edge keeps in flight (an all-gather round's, the
// receiver posting this many receives ahead). Parts posted together move together and end
// together (a network shares its bandwidth among them), so each refill of the window pays a
// part's latency L = time(part) - step again, step the stream figure of the smallest streamed
// size at least part_bytes (scaled to part_bytes): W parts move at W step / (L + W step) of
// the stream's rate. W = 9 L / step (rounded) keeps about 90% of it, at least kStreamInFlight,
// at most 64. Measured in SMPI on `paper`, 36 x 1 (the allgatherv of 16 MiB with the (r mod 3)
// counts in parts of 8 KiB, L 14 times the step there, so this rule's 64): 1,946 / 1,357 /
// 1,112 / 1,013 us with 8 / 16 / 32 / 64 parts in flight (1,089 sending each round whole); on
// `flat` at 1,152 ranks (L 0.9 times the step, a backbone shared by every rank) 8. ROSCHED_WINDOW
// overrides.
int stream_window(const CostModel& model, double part_bytes);

// Rounds kept in flight by a pipelined walk with blocks of `block_bytes`: 8 small-message
// latencies (time(0)) over the rest of a block's time (time(block_bytes) - time(0)), rounded,
// within [1, 4]. An empirical rule: more rounds in flight hide the latency and the neighbours'
// skew while blocks are short, but once a block's transfer is long a second send in flight
// shares the rank's bandwidth with the block the next rank waits for. Measured in SMPI (paper
// platform, p = 36, ROSCHED_WINDOW = 1, 2, 4, 8): best 2-4 for blocks of 16-100 KB (1 MiB in
// 11 blocks: 440 us with 1, 325 with 4), 1 for 0.7-1.4 MB (8-17% slower with 2).
// Where a rank's messages do not share its bandwidth (fanout at most 1.25), the most rounds,
// 4, whatever the block: measured in SMPI on the paper platform's nodes, whose loopback gives
// every message its own 10 GB/s: the node-aware allgatherv of 16 MiB with equal counts, 36 x 32
// ranks, took 2,325 us with 4 rounds in flight everywhere against 3,101 with the rule above
// (one round for its 0.5 MiB blocks in the node's broadcast). ROSCHED_WINDOW overrides (>= 1).
int window_rounds(const CostModel& model, double block_bytes);

// Whether a pipelined broadcast with blocks of `block_bytes` sends them synchronously
// (MPI_Issend) with synchronous_window rounds in flight, instead of eagerly (MPI_Isend) with
// window_rounds in flight. An eager block leaves when its sender is ready, whether or not the receiver is still
// taking the previous round's block; the two then share the receiver's link and the block the
// receiver must pass on next arrives late, and the delay spreads along the schedule. With
// synchronous sends a block moves only once its receive is posted, so each rank takes one block
// at a time, as the schedule's rounds assume. Measured in SMPI (flat platform, non-blocking
// backbone, 1 MiB in 17 blocks of 60 KiB, below SMPI's eager limit): per round 14.6 us
// synchronous and one round in flight at p = 36..256, which is the time of one message
// (time(60 KiB) = 14.1 us), against 18.8 us (p = 32), 25 us (p = 256) and 28.6 us (p = 1,152)
// eager with 1-4 rounds in flight; two and four synchronous rounds in flight took 23% and 55%
// longer than one at p = 256. The price is sync_extra per round, so: synchronous where
// sync_extra is below half the transfer time of a block (time(block) - time(0)), where an
// early block could have cost more. And only where the ranks' own links limit (crowding at
// most 1.5): where a shared resource does, eager sends with several rounds in flight keep it
// busy, and a block that arrives early costs little more (SMPI, flat platform, 2,000 GB/s
// backbone, crowding 6, p = 1,152: 64 KiB / 256 KiB / 1 MiB took 110.8 / 253.1 / 1,279.7 us
// eager, 138.8 / 389.7 / 1,604.8 synchronous). ROSCHED_SENDS=sync|eager overrides.
bool synchronous_sends(const CostModel& model, double block_bytes);

// Rounds kept in flight by a walk with synchronous sends: 2 where the latency of a block is at
// least 1.1 times its transfer time, so that the next block's latency passes while this one
// moves; else 1, where a second block in flight would share the receiver's link. The transfer
// time of b bytes is taken as 2 (time(b) - time(b / 2)), the latency as time(b) less that (on a
// linear model: beta b and alpha). Measured in
// SMPI: 1 MiB in 17 blocks at p = 36 on the paper's 25 GB/s links (this ratio 1.65): 224 us
// with 2, 234 with 1; at p = 256 on flatnb's 12.5 GB/s (0.94): 421 with 2, 343 with 1; 64 KiB
// in 4 blocks at p = 36, paper (1.17): 61.3 with 2, 71.5 with 1; on flatnb at p = 1,152: 105.0
// with 2, 108.8 with 1, at p = 256 (6 blocks, 1.27) the other way: 96.9 with 2, 87.2 with 1.
// Where a rank's messages do not share its bandwidth (fanout at most 1.25): 4, as
// window_rounds. ROSCHED_WINDOW overrides. Rosched_Bcast's trial also times the circulant
// pipeline with 1, 3 and 4 rounds in flight (bcast_circulant.cc): no rule from the model's
// figures found the best of them on both of SMPI's `paper` 36 x 1 and `flatnb`.
int synchronous_window(const CostModel& model, double block_bytes);

// With ROSCHED_VERBOSE set, rank 0 prints to stderr what collective `name` chose for a message
// of `bytes`: the algorithm, its blocks n and window (neither shown for n = 0: not cut into
// blocks) and the model's figures where the communicator's model has been made (never
// collective), each time the line differs from the previous one printed for `name`.
void tell_choice(const CommInfo& comm, const char* name, const char* algorithm, std::int64_t n,
                 int window, double bytes);

// While one lives, tell_choice prints nothing on this thread: a trial's timed runs (time_choices),
// whose candidates' times tell_timing reports.
class ChoicesUntold {
 public:
  ChoicesUntold();
  ~ChoicesUntold();
  ChoicesUntold(const ChoicesUntold&) = delete;
  ChoicesUntold& operator=(const ChoicesUntold&) = delete;

 private:
  bool before_;
};

// With ROSCHED_VERBOSE set, rank 0 prints to stderr the times (slowest rank) of the candidates
// timed for a message of `bytes` (names[0] the library's collective), and which runs for the
// message's size class (MeasuredChoices) from now on.
void tell_timing(const CommInfo& comm, const char* name, std::int64_t bytes, int candidates,
                 const char* const* names, const double* seconds, int chosen);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_COST_MODEL_H_
