// The n-port all-gather (allgather_nway.h) over MPI point-to-point: each round's messages of
// sched/nway/nway_allgather.h, the ones the verifier runs (sim/nway_allgather_run.h), to and
// from the peers nway_allgather_peers names, each a block range of the buffer that may wrap
// around its end (one or two pieces, add_cyclic_blocks), the round's messages sent whole or in
// parts by one walk (stream_ports_round, round_stream.h). A round's sends read the blocks the rank
// held at its start ([rank, rank + s_i)), its receives write the next ones, so they never meet.
// One tag: peers within a round are distinct (distances j s_i < p), and rounds complete in
// order. The n-port reduce-scatter walks the same messages backwards
// (sched/nway/nway_reduce_scatter.h): a round's sends read offsets [s, s') of the rank's blocks,
// its receives arrive in scratch and are combined into offsets [0, s) once all have come.
#include "mpi_exec/allgather_nway.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "mpi_exec/node_layout.h"
#include "mpi_exec/nway_allreduce.h"
#include "mpi_exec/round_stream.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"
#include "sched/nway/nway_allgather.h"
#include "sched/nway/nway_reduce_scatter.h"

namespace rosched::mpi {

GatherBlocks gather_blocks(const BlockCut& cut, int size) {
  std::int64_t largest = 0;
  for (std::int64_t b = 0; b < cut.p; ++b) largest = std::max(largest, cut.elements(b, 1));
  return {static_cast<double>(cut.n) * size / cut.p, static_cast<double>(largest) * size};
}

StreamPlan nport_round_plan(const CostModel& model, double mean_message, bool differ,
                            std::size_t messages) {
  return messages == 1 ? stream_plan(model, mean_message, differ)
                       : fan_stream_plan(model, mean_message, differ);
}

namespace {

// fan_time of `messages` messages of `bytes` each at once, or where plan streams them, of their
// parts: ceil(bytes / part) parts of each, every part one of the rank's messages.
double round_time(const CostModel& model, int messages, double bytes, double spread,
                  FanSenders senders, const StreamPlan& plan) {
  if (!plan.streamed() || bytes <= plan.part_bytes) {
    return fan_time(model, messages, bytes, spread, senders);
  }
  const double parts = std::ceil(bytes / plan.part_bytes);
  const double all = std::min(parts * messages, static_cast<double>(kMaxPipelineBlocks));
  return fan_time(model, static_cast<int>(all), bytes / parts, spread, senders);
}

// Whether rounds priced as `rounds` says are cut into parts anywhere: only kStreamed rounds, and
// only where the walk could stream them (rounds_could_stream on the result's bytes); elsewhere
// the streamed prices are the whole ones.
bool prices_streamed(int p, const GatherBlocks& blocks, NportRounds rounds) {
  return rounds == NportRounds::kStreamed && rounds_could_stream(p, blocks.mean * p);
}

}  // namespace

double nway_allgather_time(const CostModel& model, int p, int n, const GatherBlocks& blocks,
                           bool shared_nodes, NportRounds rounds) {
  if (p <= 1) return 0;
  const NwayPlan plan = rosched::nway_allgather_plan(p, n);
  const double above = std::max(0.0, blocks.largest - blocks.mean), whole = blocks.mean * p;
  const double spread =
      whole > 0 && !shared_nodes ? std::pow(model.crowding, 0.5 * (1 + above / whole)) : 1;
  const bool streams = prices_streamed(p, blocks, rounds);
  double total = 0;
  for (int i = 0; i < plan.rounds(); ++i) {
    const std::int64_t held = plan.skip(i), next = plan.skip(i + 1);
    const auto messages = static_cast<int>((next - 1) / held);  // ceil(next / held) - 1
    const double even = static_cast<double>(next - held) / messages * blocks.mean;
    const StreamPlan parts =
        streams ? nport_round_plan(model, even, above > 0, static_cast<std::size_t>(messages))
                : StreamPlan{};
    // Every rank sends the round's messages of the mean blocks; the heavier ones, where the
    // largest block rides, leave some ranks only.
    double round = round_time(model, messages, even, 1, FanSenders::kEveryRank, parts);
    if (above > 0) {
      round = std::max(round, round_time(model, messages, std::min(even + above, whole), spread,
                                         FanSenders::kSome, parts));
    }
    total += round;
  }
  return total;
}

int nway_allgather_ports_for(const CostModel& model, int p, const GatherBlocks& blocks,
                             bool shared_nodes, NportRounds rounds) {
  return least_cost_ports(
      p, [&](int n) { return nway_allgather_time(model, p, n, blocks, shared_nodes, rounds); });
}

namespace {

// The rule's answers for one question: the trial's n (nway_allgather_trial_ports) and the n a
// call that runs the form anyway takes (nway_allgather_ports_to_run's fallback), both priced at
// once, -1 until then.
struct PortsAnswer {
  int trial = -1;
  int run = -1;
};

// The trial's n and the run's: n from the prices `rounds` names (whole ones where the rounds
// cannot stream), worth a trial where its price is at most 0.9 of one port's whole rounds, each
// port count priced once. The gate weighs what the walk sends against one port's whole rounds:
// on a crowded network whole rounds on n ports cost about what one port's do (`flat288`, 1 MiB:
// 730.03 us on 7 ports, 802.42 on one), and streamed ones what one port's streamed rounds do
// (613.86 on 15, 670.14 on one), so a gate of whole against whole or streamed against streamed
// would keep the n-port form, the fastest there, out of the trial.
PortsAnswer ports_by_pricing(const CostModel& model, int p, const GatherBlocks& blocks,
                             bool shared_nodes, NportRounds rounds) {
  const NportRounds priced =
      prices_streamed(p, blocks, rounds) ? NportRounds::kStreamed : NportRounds::kWhole;
  std::array<double, kNwayMaxPorts + 1> time{};
  const int n = least_cost_ports(p, [&](int k) {
    return time[k] = nway_allgather_time(model, p, k, blocks, shared_nodes, priced);
  });
  const double one_whole = priced == NportRounds::kWhole
                               ? time[1]
                               : nway_allgather_time(model, p, 1, blocks, shared_nodes);
  const bool pays = n > 1 && time[n] <= 0.9 * one_whole;
  return {pays ? n : 0, n};
}

// The last questions asked of the rule on this thread, with their answers: the key is all that
// the answers depend on (the model's figures and ROSCHED_STREAM_PART too). The n-port forms ask
// at every call, and the rule prices up to 64 port counts (some 10 us; 40 where the rounds
// stream, on this machine).
struct KeptPorts {
  CostModel model;
  int p = 0;
  GatherBlocks blocks;
  bool shared_nodes = false;
  NportRounds rounds = NportRounds::kWhole;
  double stream_part = 0;
  PortsAnswer answer;
  bool used = false;
};

// The kept answers of this question (-1 where not yet priced): the last four questions are kept.
PortsAnswer& kept_ports(const CostModel& model, int p, const GatherBlocks& blocks,
                        bool shared_nodes, NportRounds rounds) {
  thread_local std::array<KeptPorts, 4> kept;
  thread_local std::size_t next = 0;
  const double part = settings().stream_part;
  for (KeptPorts& k : kept) {
    if (k.used && k.p == p && k.blocks.mean == blocks.mean && k.blocks.largest == blocks.largest &&
        k.shared_nodes == shared_nodes && k.rounds == rounds && k.stream_part == part &&
        same_model(k.model, model)) {
      return k.answer;
    }
  }
  KeptPorts& k = kept[next];
  next = (next + 1) % kept.size();
  k = {model, p, blocks, shared_nodes, rounds, part, PortsAnswer{}, true};
  return k.answer;
}

// The answers to this question: kept ones, else priced now and kept.
const PortsAnswer& priced_ports(const CostModel& model, int p, const GatherBlocks& blocks,
                                bool shared_nodes, NportRounds rounds) {
  PortsAnswer& answer = kept_ports(model, p, blocks, shared_nodes, rounds);
  if (answer.trial < 0) answer = ports_by_pricing(model, p, blocks, shared_nodes, rounds);
  return answer;
}

}  // namespace

int nway_allgather_trial_ports(const CostModel& model, int p, const GatherBlocks& blocks,
                               bool shared_nodes, NportRounds rounds) {
  return priced_ports(model, p, blocks, shared_nodes, rounds).trial;
}

namespace {

// Whether ranks of ci share nodes, where it matters: only for blocks of unequal sizes (the same
// on every rank, so the layout, collective at its first use, is made on all of them or none).
bool shares_nodes(const CommInfo& ci, const GatherBlocks& blocks) {
  return blocks.largest > blocks.mean && node_layout(ci).max_node_size > 1;
}

// The answer that needs no model: the forced n, or 0 for p <= 2; -1 where the rule decides.
int ports_without_model(const CommInfo& ci) {
  if (const int forced = forced_nway_ports()) return forced;
  return ci.p <= 2 ? 0 : -1;
}

// The rule's answer by `model` (nway_allgather_ports, allgather_nway.h), for p > 2 unforced.
int ports_by_rule(const CommInfo& ci, const GatherBlocks& blocks, const CostModel& model,
                  NportRounds rounds) {
  return nway_allgather_trial_ports(model, ci.p, blocks, shares_nodes(ci, blocks), rounds);
}

}  // namespace

int nway_allgather_ports(const CommInfo& ci, const GatherBlocks& blocks, NportRounds rounds) {
  const int known = ports_without_model(ci);  // without measuring a model not needed
  return known >= 0 ? known : ports_by_rule(ci, blocks, cost_model(ci), rounds);
}

int nway_allgather_ports(const CommInfo& ci, const GatherBlocks& blocks, const CostModel& model,
                         NportRounds rounds) {
  const int known = ports_without_model(ci);
  return known >= 0 ? known : ports_by_rule(ci, blocks, model, rounds);
}

int nway_allgather_ports_to_run(const CommInfo& ci, const GatherBlocks& blocks,
                                NportRounds rounds) {
  const int n = nway_allgather_ports(ci, blocks, rounds);
  if (n > 0) return n;
  if (ci.p <= 2) return 2;  // the rule's one port, raised to 2
  const CostModel& model = cost_model(ci);
  const bool shared = shares_nodes(ci, blocks);
  return std::max(2, priced_ports(model, ci.p, blocks, shared, rounds).run);
}

std::string nway_allgather_name(int n) {
  return n > 0 ? "n-port all-gather, n = " + std::to_string(n) : "n-port all-gather";
}

void tell_nway_allgather(const CommInfo& ci, const char* name, int n, double bytes) {
  if (settings().verbose) tell_choice(ci, name, nway_allgather_name(n).c_str(), 0, 0, bytes);
}

namespace {

// The block sizes a call's rounds are planned by (nway_round_plan): read once per call, since
// gather_blocks scans every block; not needed (zero) without a stream model.
GatherBlocks planned_blocks(const CostModel* model, const BlockCut& cut, int size) {
  return model ? gather_blocks(cut, size) : GatherBlocks{};
}

// A round's messages streamed in parts (round_stream.h), where `model` says so for the round's
// mean message, n_blocks blocks of the call's `blocks` over `messages` ports (the same figure on
// every rank; nport_round_plan); whole (plan not streamed) without a model.
StreamPlan nway_round_plan(const CostModel* model, const GatherBlocks& blocks,
                           std::int64_t n_blocks, std::size_t messages) {
  if (!model || messages == 0) return StreamPlan{};
  return nport_round_plan(*model, blocks.mean * static_cast<double>(n_blocks) / messages,
                          blocks.largest > blocks.mean, messages);
}

// The blocks of a round's messages in all (each message's count), for nway_round_plan.
std::int64_t round_blocks(const std::vector<rosched::NwayAllgatherMessage>& round) {
  std::int64_t blocks = 0;
  for (const auto& message : round) blocks += message.count;
  return blocks;
}

// One round's ports: the messages of each and their StreamPorts, sent whole or in parts.
struct PortStreams {
  std::vector<RoundMessage> sends, recvs;
  std::vector<StreamPort> ports;
  void reset(std::size_t m) {
    sends.resize(m);
    recvs.resize(m);
    for (std::size_t j = 0; j < m; ++j) sends[j].clear(), recvs[j].clear();
    ports.assign(m, StreamPort{});
  }
};

}  // namespace

void nway_allgather_on(const CommInfo& ci, char* base, const BlockCut& cut, MPI_Datatype datatype,
                       const TypeInfo& type, int n, const CostModel* stream_model) {
  if (ci.p == 1) return;
  const NwayPlan plan = rosched::nway_allgather_plan(ci.p, n);
  const std::int64_t rank = ci.rank;
  PortStreams streams;
  const GatherBlocks sizes = planned_blocks(stream_model, cut, type.size);
  for (int i = 0; i < plan.rounds(); ++i) {
    const std::vector<rosched::NwayAllgatherMessage> round = rosched::nway_allgather_round(plan, i);
    const std::size_t m = round.size();
    // Port j receives blocks from.. of its peer and sends this rank's first blocks: whole, or in
    // parts where the plan streams the round.
    streams.reset(m);
    for (std::size_t j = 0; j < m; ++j) {
      const rosched::NwayAllgatherPeers peers = rosched::nway_allgather_peers(plan, rank, round[j]);
      add_cyclic_blocks(streams.recvs[j], cut, peers.from, round[j].count, type.extent);
      add_cyclic_blocks(streams.sends[j], cut, rank, round[j].count, type.extent);
      streams.ports[j] = StreamPort{&streams.sends[j],          base,
                                    &streams.recvs[j],          base,
                                    static_cast<int>(peers.to), static_cast<int>(peers.from)};
    }
    stream_ports_round(streams.ports.data(), static_cast<int>(m), datatype, type,
                       nway_round_plan(stream_model, sizes, round_blocks(round), m),
                       tag::kNwayAllgatherRound, ci.c);
  }
}

void nway_reduce_scatter_on(const CommInfo& ci, char* acc, const BlockCut& cut,
                            MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int n,
                            const CostModel* stream_model) {
  if (ci.p == 1) return;
  const NwayPlan plan = rosched::nway_allgather_plan(ci.p, n);
  const std::int64_t rank = ci.rank;
  // Scratch for the largest round's receives: each port's blocks rank .. rank + count - 1.
  std::int64_t most = 0;
  for (int j = 0; j < plan.rounds(); ++j) {
    std::int64_t round_elements = 0;
    for (const auto& m : rosched::nway_reduce_scatter_round(plan, j)) {
      round_elements += cut.elements(rank, m.count);
    }
    most = std::max(most, round_elements);
  }
  ScratchBuffer scratch(type, static_cast<int>(most));
  char* const in = static_cast<char*>(scratch.data());
  std::vector<std::int64_t> at;  // each receive's first element in scratch
  PortStreams streams;
  const GatherBlocks sizes = planned_blocks(stream_model, cut, type.size);
  for (int j = 0; j < plan.rounds(); ++j) {
    const std::vector<rosched::NwayAllgatherMessage> round =
        rosched::nway_reduce_scatter_round(plan, j);
    const std::size_t m = round.size();
    at.assign(m + 1, 0);
    for (std::size_t k = 0; k < m; ++k) at[k + 1] = at[k] + cut.elements(rank, round[k].count);
    // Port k receives its blocks into scratch and sends offsets [distance, distance + count):
    // blocks rank + distance ..., the receiver's own; whole, or in parts where the plan streams
    // the round.
    streams.reset(m);
    for (std::size_t k = 0; k < m; ++k) {
      const rosched::NwayAllgatherPeers peers =
          rosched::nway_reduce_scatter_peers(plan, rank, round[k]);
      streams.recvs[k].add(static_cast<MPI_Aint>(at[k]) * type.extent, at[k + 1] - at[k]);
      add_cyclic_blocks(streams.sends[k], cut, peers.to, round[k].count, type.extent);
      streams.ports[k] = StreamPort{&streams.sends[k],          acc,
                                    &streams.recvs[k],          in,
                                    static_cast<int>(peers.to), static_cast<int>(peers.from)};
    }
    stream_ports_round(streams.ports.data(), static_cast<int>(m), datatype, type,
                       nway_round_plan(stream_model, sizes, round_blocks(round), m),
                       tag::kNwayReduceScatterRound, ci.c);
    for (std::size_t k = 0; k < m; ++k) {
      // Into offsets [0, count): elements from this rank's block on, wrapping at the end.
      reduce_into_cyclic(in + at[k] * type.extent, acc, cut.first(rank), at[k + 1] - at[k], cut.n,
                         datatype, type.extent, op);
    }
  }
}

}  // namespace rosched::mpi
