#include "mpi_exec/cost_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "mpi_exec/clock.h"
#include "mpi_exec/payload.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"

namespace rosched::mpi {
namespace {

constexpr int kTrips = 4;                  // exchanges per size (the shortest counts)
constexpr int kBurst = 4;                  // messages of the burst that measures per_message
constexpr int kStream = 8;                 // messages of the stream that measures stream
constexpr int kBurstStream = 32;           // and of the one that measures burst (8 together)
constexpr double kTogetherMargin = 1e-3;   // seconds: burst's agreed instant after the latest
constexpr int kTogetherAttempts = 3;       // burst: margins tried, each 16 times the one before
constexpr double kWindowCover = 8;         // window_rounds: latencies covered by transfers
constexpr double kMaxWindow = 4;
constexpr double kOwnPaths = 1.25;  // fanout up to which a rank's messages do not share a path
constexpr double kSyncShare = 0.5;         // synchronous_sends: of a block's transfer time
constexpr double kFanPartsCut = 0.9;       // fan_parts: parts at most this of one message
constexpr double kLatencyOverTransfer = 1.1;  // synchronous_window: two rounds from this ratio
constexpr double kMaxCrowding = 1.5;       // synchronous_sends: only where crowding is below

}  // namespace

// What is cached on a communicator: its model, the memo of one decision and measured answers.
struct CommModel {
  CostModel model;
  std::array<DecisionMemo, kDecidedCount> memo;
  std::array<MeasuredChoices, kDecidedCount> measured;
};

namespace {

int free_model(MPI_Comm, int, void* attribute, void*) {
  delete static_cast<CommModel*>(attribute);
  return MPI_SUCCESS;
}
RecordKey model_key(free_model);

// The ranks that measure at once: those of comm; where `across` is set (lanes_model), those of
// every lane of a layout in step, comm this rank's lane and across its node. The lanes then agree
// through comm and then across (every node holds one rank of each lane), so a barrier or an
// instant they agree on spans every lane. Measured apart, each lane after its own barrier or at
// its own instant, the lanes overlap as their skew allows: at 36 x 32 simulated ranks the lanes'
// further 2 KiB message of a burst measured 4.56 us in one run (all 32 lanes in step) and
// 0.14-0.43 us in another (the lanes skewed by the calls before), so their n-port rule found 3
// ports for a 1 MiB all-reduce in one and 35 in the other (docs/sim/nport_allreduce.md, "The
// lanes measure in step").
struct Measuring {
  const CommInfo& comm;
  const CommInfo* across = nullptr;

  void barrier() const {
    check_on(comm.user, PMPI_Barrier(comm.user), "MPI_Barrier");
    if (across != nullptr) check_on(across->user, PMPI_Barrier(across->user), "MPI_Barrier");
  }
  // The largest of every measuring rank's x.
  double largest(double x) const {
    check_on(comm.user, PMPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, comm.c),
             "MPI_Allreduce");
    if (across != nullptr) {
      check_on(across->user, PMPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, across->c),
               "MPI_Allreduce");
    }
    return x;
  }
};

// The shortest of `trips` runs of `once`, each after a barrier (on the user's communicator, as
// every MPI collective of the library: mpi_call.h; for lanes in step over all lanes) and an
// untimed run (which absorbs the barrier's uneven release); its time is this rank's. On a global
// clock one run: a simulation (SimGrid SMPI sets MPI_WTIME_IS_GLOBAL), whose trips repeat to the
// nanosecond, as the trial of library_choice.h assumes too (the same model at 256 ranks on `flat`
// and 288 on `paper`; 512 ranks on `flat`: about 3 s of real time instead of 5,
// docs/simulation.md).
template <typename Once>
double shortest(const Measuring& m, int trips, Once&& once) {
  if (global_clock()) trips = 1;
  double best = 1e30;
  for (int t = 0; t < trips; ++t) {
    m.barrier();
    once();
    const double start = PMPI_Wtime();
    once();
    best = std::min(best, PMPI_Wtime() - start);
  }
  return best;
}

// Exchanges of `bytes`: every rank sends to rank + p / 2 and receives from rank - p / 2 at once,
// as every rank does in a round of a circulant schedule, so the figure includes what the traffic
// of all ranks together costs (a shared node link, a backbone that cannot carry every link at
// once).
double exchange(const Measuring& m, int to, int from, const PayloadBuffer& out,
                const PayloadBuffer& in, int bytes, int trips) {
  return shortest(m, trips, [&] {
    check(PMPI_Sendrecv(out.data(), bytes, MPI_BYTE, to, tag::kCostModel, in.data(), bytes,
                        MPI_BYTE, from, tag::kCostModel, m.comm.c, MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
  });
}

// Bursts of k messages of `bytes` (k bytes <= the buffers' size): every rank sends k to
// rank + p / 2 and receives k from rank - p / 2, all at once. A rank waits for one peer whatever
// k is, so the ranks' skew after a barrier counts alike for every k (a burst to k different
// peers waits for the last of them: SMPI, 1,152 ranks, no per-message costs, measured 0.57 us
// per message that way). synchronous: the sends are MPI_Issend.
//
// together (a global clock only): every rank starts at one agreed instant (clock.h) and the
// time runs from it, so the messages of all ranks meet in the network as an n-port round's do.
// From each rank's own start, as above, the ranks' bursts overlap less: SMPI on `flat288`, 288
// ranks, bursts of 8 messages of 512 B: 0.33 us per further message, 0.84 with bursts of 32,
// 0.93 from one instant (scripts/backbone_probe.sh, 8 or 31 messages).
double burst(const Measuring& m, int to, int from, int k, const PayloadBuffer& out,
             const PayloadBuffer& in, int trips, bool synchronous = false, int bytes = 8,
             bool together = false) {
  std::vector<MPI_Request> requests(2 * static_cast<std::size_t>(k));
  const MPI_Comm c = m.comm.c;
  const auto once = [&] {
    for (int j = 0; j < k; ++j) {
      check(PMPI_Irecv(in.data() + static_cast<std::size_t>(bytes) * j, bytes, MPI_BYTE, from,
                       tag::kCostModel, c, &requests[j]),
            "MPI_Irecv");
    }
    for (int j = 0; j < k; ++j) {
      check((synchronous ? PMPI_Issend : PMPI_Isend)(out.data(), bytes, MPI_BYTE, to,
                                                     tag::kCostModel, c, &requests[k + j]),
            synchronous ? "MPI_Issend" : "MPI_Isend");
    }
    check(PMPI_Waitall(2 * k, requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  };
  if (!together || !global_clock()) return shortest(m, trips, once);
  once();  // untimed, as in shortest
  // A rank that reaches the agreed instant after it starts late and stretches the burst: run
  // again with a longer margin, as the trial of library_choice.cc and bench's sync measure do.
  double margin = kTogetherMargin;
  for (int attempt = 0;; ++attempt) {
    bool mine_late = false;
    const double instant = wait_until(m.largest(PMPI_Wtime()) + margin, &mine_late);
    once();
    const double seconds = PMPI_Wtime() - instant;
    const bool late = m.largest(mine_late ? 1 : 0) > 0;
    if (!late || attempt == kTogetherAttempts - 1) return seconds;
    margin *= 16;
  }
}

// Rank 0 sends 1 MiB to each rank of `targets` at once, which receive it; the others idle.
double fan_out(const Measuring& m, std::initializer_list<int> targets, const PayloadBuffer& out,
               const PayloadBuffer& in, int trips) {
  const CommInfo& comm = m.comm;
  std::vector<MPI_Request> requests;
  const int bytes = static_cast<int>(kModelSizes.back());
  return shortest(m, trips, [&] {
    requests.clear();
    for (int t : targets) {
      if (comm.rank == 0) {
        requests.emplace_back();
        check(PMPI_Isend(out.data(), bytes, MPI_BYTE, t, tag::kCostModel, comm.c,
                         &requests.back()),
              "MPI_Isend");
      } else if (comm.rank == t) {
        requests.emplace_back();
        check(PMPI_Irecv(in.data(), bytes, MPI_BYTE, 0, tag::kCostModel, comm.c,
                         &requests.back()),
              "MPI_Irecv");
      }
    }
    check(PMPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
          "MPI_Waitall");
  });
}

CostModel build(const CommInfo& comm, const CommInfo* across = nullptr) {
  const Settings& s = settings();
  if (s.alpha > 0 && s.beta > 0) return CostModel::linear(s.alpha, s.beta);
  CostModel model = CostModel::linear(1e-6, 1e-10);  // what a p = 1 communicator reports
  model.measured = true;
  if (comm.p == 1) return model;
  const int shift = comm.p / 2;
  const int to = (comm.rank + shift) % comm.p, from = (comm.rank - shift + comm.p) % comm.p;
  // Payload memory (payload.h): shared between simulated ranks in SMPI timing runs.
  const PayloadBuffer out(static_cast<std::size_t>(kModelSizes.back())), in(out.size());
  const Measuring m{comm, across};
  exchange(m, to, from, out, in, 8, 2);              // warm-up
  constexpr int kStreamAt = CostModel::kPoints + 4;  // the stream figures' index in mine
  constexpr int kBurstAt = kStreamAt + CostModel::kStreamPoints;  // the burst figures'
  std::array<double, kBurstAt + CostModel::kBurstPoints> mine{}, slowest{};
  for (int i = 0; i < CostModel::kPoints; ++i) {
    const int bytes = static_cast<int>(kModelSizes[i]);
    mine[i] = exchange(m, to, from, out, in, bytes, bytes <= 32768 ? 2 * kTrips : kTrips);
  }
  // The cost of each further message of a burst.
  const double one = burst(m, to, from, 1, out, in, 2 * kTrips);
  mine[CostModel::kPoints] =
      std::max(0.0, (burst(m, to, from, kBurst, out, in, 2 * kTrips) - one) / (kBurst - 1));
  // What a synchronous send costs more.
  mine[CostModel::kPoints + 1] =
      std::max(0.0, burst(m, to, from, 1, out, in, 2 * kTrips, true) - one);
  // The largest exchange by ranks 0 and p / 2 alone; the others exchange with MPI_PROC_NULL
  // (nothing) and report 0, which leaves the pair's figure in the maximum.
  const bool paired = comm.rank == 0 || comm.rank == shift;
  const int partner = !paired ? MPI_PROC_NULL : comm.rank == 0 ? shift : 0;
  const double alone =
      exchange(m, partner, partner, out, in, static_cast<int>(kModelSizes.back()), kTrips);
  mine[CostModel::kPoints + 2] = paired ? alone : 0;
  // Rank 0's 1 MiB to p / 2 alone, then to p / 2 and p / 4 at once (fanout).
  if (comm.p >= 4) {
    const double single = fan_out(m, {shift}, out, in, kTrips);
    const double twice = fan_out(m, {shift, comm.p / 4}, out, in, kTrips);
    mine[CostModel::kPoints + 3] = comm.rank == 0 ? twice / std::max(single, 1e-9) : 0;
  }
  // A further message of a stream of kStream, every rank streaming; the same for the burst
  // sizes.
  const auto per_further_message = [&](double size, int k, bool together) {
    const int bytes = static_cast<int>(size);
    const double single = burst(m, to, from, 1, out, in, kTrips, false, bytes, together);
    const double many = burst(m, to, from, k, out, in, kTrips, false, bytes, together);
    return std::max(0.0, (many - single) / (k - 1));
  };
  for (int i = 0; i < CostModel::kStreamPoints; ++i) {
    mine[kStreamAt + i] = per_further_message(kStreamSizes[i], kStream, false);
  }
  // Bursts of 8 from one instant where the clock is global (a simulation, where 32 messages
  // from each of 1,152 ranks at once cost minutes of real time), else 32 from each rank's start.
  for (int i = 0; i < CostModel::kBurstPoints; ++i) {
    mine[kBurstAt + i] =
        per_further_message(kBurstSizes[i], global_clock() ? kStream : kBurstStream, true);
  }
  // The slowest rank's figures, the same on every rank.
  check_on(comm.user,
           PMPI_Allreduce(mine.data(), slowest.data(), static_cast<int>(mine.size()), MPI_DOUBLE,
                          MPI_MAX, comm.user),
           "MPI_Allreduce");
  std::copy(slowest.begin(), slowest.begin() + CostModel::kPoints, model.seconds.begin());
  model.per_message = slowest[CostModel::kPoints];
  model.sync_extra = slowest[CostModel::kPoints + 1];
  model.crowding = std::max(1.0, slowest[CostModel::kPoints - 1] /
                                     std::max(slowest[CostModel::kPoints + 2], 1e-9));
  if (comm.p >= 4) model.fanout = slowest[CostModel::kPoints + 3];
  for (int i = 0; i < CostModel::kStreamPoints; ++i) {
    model.stream[i] = std::max(slowest[kStreamAt + i], 1e-10);
  }
  for (int i = 0; i < CostModel::kBurstPoints; ++i) model.burst[i] = slowest[kBurstAt + i];
  // A message never takes longer than a larger one: a delayed trip at a small size (the
  // process descheduled) is clipped by the larger sizes' times; and a clock too coarse to
  // see a message still gives a positive time.
  for (int i = CostModel::kPoints - 2; i >= 0; --i) {
    model.seconds[i] = std::min(model.seconds[i], model.seconds[i + 1]);
  }
  for (double& t : model.seconds) t = std::max(t, 1e-8);
  return model;
}

// The segment (index of its left point) whose line serves `bytes`.
int segment(const CostModel& model, double bytes) {
  int i = 0;
  while (i + 2 < CostModel::kPoints && bytes > model.bytes[i + 1]) ++i;
  return i;
}

}  // namespace

CostModel CostModel::linear(double alpha, double beta) {
  CostModel model;
  model.bytes = kModelSizes;
  for (int i = 0; i < kPoints; ++i) model.seconds[i] = alpha + beta * kModelSizes[i];
  for (int i = 0; i < kStreamPoints; ++i) model.stream[i] = beta * kStreamSizes[i];
  for (int i = 0; i < kBurstPoints; ++i) model.burst[i] = beta * kBurstSizes[i];
  return model;
}

bool same_model(const CostModel& a, const CostModel& b) {
  return a.bytes == b.bytes && a.seconds == b.seconds && a.per_message == b.per_message &&
         a.sync_extra == b.sync_extra && a.crowding == b.crowding && a.fanout == b.fanout &&
         a.stream == b.stream && a.burst == b.burst && a.measured == b.measured;
}

double CostModel::further(double b) const {
  // The points (size, figure): 8 B's per_message, the bursts', the streams'.
  double at = 8, figure = per_message;
  const auto between = [&](double size, double next) {
    if (b > size) {
      at = size, figure = next;
      return false;
    }
    figure += (next - figure) * (b - at) / (size - at);
    return true;
  };
  if (b <= at) return figure;
  for (int i = 0; i < kBurstPoints; ++i) {
    if (between(kBurstSizes[i], burst[i])) return figure;
  }
  for (int i = 0; i < kStreamPoints; ++i) {
    if (between(kStreamSizes[i], stream[i])) return figure;
  }
  return stream[kStreamPoints - 1] * b / kStreamSizes[kStreamPoints - 1];
}

double CostModel::per_byte(double b) const {
  const int i = segment(*this, b);
  return std::max(0.0, (seconds[i + 1] - seconds[i]) / (bytes[i + 1] - bytes[i]));
}

double CostModel::time(double b) const {
  if (b <= bytes[0]) return seconds[0];
  const int i = segment(*this, b);
  return seconds[i] + per_byte(b) * (b - bytes[i]);
}

namespace {

// The record is an attribute of the private duplicate (freed with it); the communicator's
// CommCache keeps a pointer to it, so later calls need no lookup.
CommModel& comm_model(const CommInfo& comm) {
  return duplicate_record(comm, model_key, &CommCache::model, [&] {
    return new CommModel{build(comm), {}, {}};
  });
}

// The memo's word: bit 63 set, bits 59-62 the answer, bits 28-58 the count, bits 0-27 the size
// (below 2^28).
constexpr int kMemoSizeBits = 28;
constexpr int kMemoAnswerShift = kMemoSizeBits + 31;
static_assert(kMemoAnswerShift + 4 == 63 && kMaxAnswer < 16, "the memo's word holds an answer");
std::uint64_t memo_word(int count, int size, int answer) {
  return (std::uint64_t{1} << 63) | (static_cast<std::uint64_t>(answer) << kMemoAnswerShift) |
         (static_cast<std::uint64_t>(count) << kMemoSizeBits) | static_cast<std::uint64_t>(size);
}
constexpr int kMemoSizeLimit = 1 << kMemoSizeBits;

}  // namespace

const CostModel& cost_model(const CommInfo& comm) { return comm_model(comm).model; }

CostModel measure_lanes_model(const CommInfo& lane, const CommInfo& node) {
  return build(lane, &node);
}

DecisionMemo& decision_memo(const CommInfo& comm, Decided which) {
  return comm_model(comm).memo[static_cast<int>(which)];
}

bool DecisionMemo::find(int count, int size, int* answer) const {
  if (size >= kMemoSizeLimit) return false;
  const std::uint64_t word = word_.load(std::memory_order_relaxed);
  const int stored = static_cast<int>((word >> kMemoAnswerShift) & 15);
  if (word != memo_word(count, size, stored)) return false;
  *answer = stored;
  return true;
}

void DecisionMemo::store(int count, int size, int answer) {
  word_.store(size < kMemoSizeLimit ? memo_word(count, size, answer) : 0,
              std::memory_order_relaxed);
}

MeasuredChoices& measured_choices(const CommInfo& comm, Decided which) {
  return comm_model(comm).measured[static_cast<int>(which)];
}

int MeasuredChoices::size_class(std::int64_t bytes) {
  int k = 0;
  while (k < 62 && (bytes >> (k + 1)) > 0) ++k;
  return k;
}

bool MeasuredChoices::find(std::int64_t bytes, int* answer) const {
  const std::uint64_t bit = std::uint64_t{1} << size_class(bytes);
  if ((known_.load(std::memory_order_acquire) & bit) == 0) return false;
  *answer = 0;
  for (int j = 0; j < kAnswerBits; ++j) {
    if ((bits_[j].load(std::memory_order_relaxed) & bit) != 0) *answer |= 1 << j;
  }
  return true;
}

void MeasuredChoices::store(std::int64_t bytes, int answer) {
  const std::uint64_t bit = std::uint64_t{1} << size_class(bytes);
  const auto put = [bit](std::atomic<std::uint64_t>& word, bool set) {
    if (set) {
      word.fetch_or(bit, std::memory_order_relaxed);
    } else {
      word.fetch_and(~bit, std::memory_order_relaxed);
    }
  };
  for (int j = 0; j < kAnswerBits; ++j) put(bits_[j], (answer & (1 << j)) != 0);
  known_.fetch_or(bit, std::memory_order_release);
}

double pipeline_time(const CostModel& model, double bytes, std::int64_t extra_rounds,
                     std::int64_t n) {
  return static_cast<double>(n + extra_rounds) * model.time(bytes / static_cast<double>(n));
}

std::int64_t pipeline_blocks(const CostModel& model, double bytes, std::int64_t extra_rounds,
                             std::int64_t max_blocks) {
  const std::int64_t cap = std::clamp<std::int64_t>(max_blocks, 1, kMaxPipelineBlocks);
  const auto cost = [&](std::int64_t n) { return pipeline_time(model, bytes, extra_rounds, n); };
  std::int64_t best = 1;
  const auto consider = [&](double n) {
    if (!(n >= 1)) n = 1;  // also NaN
    const auto k = static_cast<std::int64_t>(std::min(n, static_cast<double>(cap)));
    if (cost(k) < cost(best)) best = k;
  };
  consider(cap);
  if (bytes <= 0) return best;
  // Blocks of b bytes fall on one segment of the model, time(b) = c + s b there, for the block
  // counts n with b = bytes / n in the segment's range (lo, hi]; there the time
  // (n + e)(c + s bytes / n) is convex in n with its least value at sqrt(e s bytes / c) (c > 0;
  // for c <= 0 it falls with n, least at the range's largest n). So the exact optimum is among
  // each segment's range ends and that point, rounded both ways: O(kPoints) evaluations.
  const double e = static_cast<double>(extra_rounds);
  for (int i = 0; i + 1 < CostModel::kPoints; ++i) {
    const double lo = model.bytes[i];
    const double hi = i + 2 == CostModel::kPoints ? 1e300 : model.bytes[i + 1];
    const double n_lo = std::ceil(bytes / hi), n_hi = std::ceil(bytes / lo) - 1;
    if (n_hi < 1 || n_lo > cap) continue;
    consider(n_lo);
    consider(n_hi);
    const double s = (model.seconds[i + 1] - model.seconds[i]) /
                     (model.bytes[i + 1] - model.bytes[i]);
    const double c = model.seconds[i] - s * model.bytes[i];
    if (c > 0 && s > 0) {
      const double n = std::clamp(std::sqrt(e * s * bytes / c), std::max(n_lo, 1.0), n_hi);
      consider(std::floor(n));
      consider(std::ceil(n));
    }
  }
  // Blocks of at most bytes[0] all take time(bytes[0]): the fewest such blocks are best.
  consider(std::ceil(bytes / model.bytes[0]));
  return best;
}

namespace {

// The stream figure of the smallest streamed size at least part_bytes (the largest's beyond),
// scaled to part_bytes: what each further part of a stream costs.
double stream_step(const CostModel& model, double part_bytes) {
  int i = 0;
  while (i + 1 < CostModel::kStreamPoints && kStreamSizes[i] < part_bytes) ++i;
  return std::max(model.stream[i] * part_bytes / kStreamSizes[i], 1e-12);
}

}  // namespace

std::int64_t stream_parts(const CostModel& model, double bytes, double lead, double shared,
                          std::int64_t max_parts, bool windowed) {
  const std::int64_t cap = std::clamp<std::int64_t>(max_parts, 1, kMaxPipelineBlocks);
  std::int64_t best_n = 1;
  if (!(bytes > 0)) return best_n;
  double best = lead * model.time(bytes);
  for (int i = 0; i < CostModel::kStreamPoints && kStreamSizes[i] < bytes; ++i) {
    const std::int64_t n =
        std::min<std::int64_t>(cap, static_cast<std::int64_t>(std::ceil(bytes / kStreamSizes[i])));
    const double part = bytes / static_cast<double>(n);
    double step = model.stream[i];
    if (windowed) {
      step += std::max(model.time(part) - stream_step(model, part), 0.0) /
              stream_window(model, part);
    }
    const double t = lead * model.time(part) + static_cast<double>(n - 1) * step * shared;
    if (t < best) best = t, best_n = n;
  }
  return best_n;
}

std::int64_t fan_parts(const CostModel& model, double bytes, std::int64_t max_parts) {
  const std::int64_t cap = std::clamp<std::int64_t>(max_parts, 1, kMaxPipelineBlocks);
  if (!(bytes > 0)) return 1;
  const double whole = model.further(bytes);
  std::int64_t best_n = 1;
  double best = whole;
  for (int i = 0; i < CostModel::kStreamPoints && kStreamSizes[i] < bytes; ++i) {
    const std::int64_t n =
        std::min<std::int64_t>(cap, static_cast<std::int64_t>(std::ceil(bytes / kStreamSizes[i])));
    const double t = static_cast<double>(n) * model.further(bytes / static_cast<double>(n));
    if (t < best) best = t, best_n = n;
  }
  return best <= kFanPartsCut * whole ? best_n : 1;
}

int stream_window(const CostModel& model, double part_bytes) {
  if (settings().window > 0) return settings().window;
  const double step = stream_step(model, part_bytes);
  const double latency = std::max(model.time(part_bytes) - step, 0.0);
  const double w = std::round(9 * latency / step);
  return static_cast<int>(std::clamp(w, static_cast<double>(kStreamInFlight), 64.0));
}

int window_rounds(const CostModel& model, double block_bytes) {
  if (settings().window > 0) return settings().window;
  if (model.fanout <= kOwnPaths) return static_cast<int>(kMaxWindow);
  const double latency = model.time(0);
  const double transfer = std::max(model.time(block_bytes) - latency, 1e-12);
  const double cover = std::round(kWindowCover * latency / transfer);
  return static_cast<int>(std::clamp(cover, 1.0, kMaxWindow));
}

bool synchronous_sends(const CostModel& model, double block_bytes) {
  switch (settings().sends) {
    case Settings::Sends::kSynchronous:
      return true;
    case Settings::Sends::kEager:
      return false;
    case Settings::Sends::kAuto:
      break;
  }
  if (model.crowding > kMaxCrowding) return false;
  const double transfer = model.time(block_bytes) - model.time(0);
  return model.sync_extra < kSyncShare * transfer;
}

int synchronous_window(const CostModel& model, double block_bytes) {
  if (settings().window > 0) return settings().window;
  if (model.fanout <= kOwnPaths) return static_cast<int>(kMaxWindow);
  // The slope from half the block to the block, not the slope of the block's own segment: a
  // block just above a measured point would take the segment across a protocol step (60 to
  // 128 KiB), whose steep slope says nothing about the block's transfer.
  const double transfer = 2 * (model.time(block_bytes) - model.time(block_bytes / 2));
  const double latency = model.time(block_bytes) - transfer;
  return latency >= kLatencyOverTransfer * transfer ? 2 : 1;
}

namespace {
thread_local bool choices_untold = false;  // ChoicesUntold
}  // namespace

ChoicesUntold::ChoicesUntold() : before_(choices_untold) { choices_untold = true; }
ChoicesUntold::~ChoicesUntold() { choices_untold = before_; }

void tell_choice(const CommInfo& comm, const char* name, const char* algorithm, std::int64_t n,
                 int window, double bytes) {
  if (!settings().verbose || comm.rank != 0 || choices_untold) return;
  // Only rank 0 gets here, so the model is shown only if made already (making it is collective).
  const CommModel* record = comm.cache != nullptr ? comm.cache->model : nullptr;
  static_assert(kModelSizes[0] == 8 && kModelSizes[1] == 4096 && kModelSizes[2] == 8192 &&
                    kModelSizes[3] == 16384 && kModelSizes[4] == 32768 &&
                    kModelSizes[5] == 61440 && kModelSizes[6] == 131072 &&
                    kModelSizes[7] == 1048576,
                "the sizes named below");
  static_assert(kStreamSizes[0] == 4096 && kStreamSizes[1] == 8192 &&
                    kStreamSizes[2] == 16384 && kStreamSizes[3] == 32768 &&
                    kStreamSizes[4] == 61440 && kStreamSizes[5] == 131072,
                "the stream sizes named below");
  static_assert(kBurstSizes[0] == 512 && kBurstSizes[1] == 1024 && kBurstSizes[2] == 2048,
                "the burst sizes named below");
  char figures[640] = " (no model made)";
  if (record != nullptr) {
    const CostModel& model = record->model;
    std::snprintf(figures, sizeof figures,
                  " (model%s: 8 B %.3g s, 4 KiB %.3g s, 8 KiB %.3g s, 16 KiB %.3g s,"
                  " 32 KiB %.3g s, 60 KiB %.3g s, 128 KiB %.3g s, 1 MiB %.3g s, per message %.3g s,"
                  " synchronous send %.3g s more, crowding %.3g, fanout %.3g; streamed 4 / 8 /"
                  " 16 / 32 / 60 / 128 KiB: %.3g / %.3g / %.3g / %.3g / %.3g / %.3g s; bursts of"
                  " 512 B / 1 / 2 KiB: %.3g / %.3g / %.3g s)",
                  model.measured ? " measured" : " of ROSCHED_ALPHA/BETA", model.seconds[0],
                  model.seconds[1], model.seconds[2], model.seconds[3], model.seconds[4],
                  model.seconds[5], model.seconds[6], model.seconds[7], model.per_message,
                  model.sync_extra, model.crowding, model.fanout, model.stream[0], model.stream[1],
                  model.stream[2], model.stream[3], model.stream[4], model.stream[5],
                  model.burst[0], model.burst[1], model.burst[2]);
  }
  char blocks[64] = "";  // not shown for what is not cut into blocks (n = 0)
  if (n > 0) {
    std::snprintf(blocks, sizeof blocks, ", %lld blocks, window %d", static_cast<long long>(n),
                  window);
  }
  char line[800];
  std::snprintf(line, sizeof line, "rosched %s: p = %d, %.0f bytes: %s%s%s\n", name, comm.p, bytes,
                algorithm, blocks, figures);
  thread_local std::map<std::string, std::string> last;  // per collective, under verbose only
  std::string& previous = last[name];
  if (previous == line) return;
  previous = line;
  std::fputs(line, stderr);
}

void tell_timing(const CommInfo& comm, const char* name, std::int64_t bytes, int candidates,
                 const char* const* names, const double* seconds, int chosen) {
  if (!settings().verbose || comm.rank != 0) return;
  const int k = MeasuredChoices::size_class(bytes);
  std::string times;
  for (int i = 0; i < candidates; ++i) {
    char one[160];
    if (seconds[i] >= 1e300) {  // kNotTimed (library_choice.h)
      std::snprintf(one, sizeof one, "%s%s not timed", i == 0 ? "" : ", ", names[i]);
    } else {
      std::snprintf(one, sizeof one, "%s%s %.3g s", i == 0 ? "" : ", ", names[i], seconds[i]);
    }
    times += one;
  }
  std::fprintf(stderr,
               "rosched %s: p = %d, %lld bytes timed: %s (slowest rank): %s for %lld to %lld "
               "bytes\n",
               name, comm.p, static_cast<long long>(bytes), times.c_str(), names[chosen], 1LL << k,
               (1LL << (k + 1)) - 1);
}

}  // namespace rosched::mpi
