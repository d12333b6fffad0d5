// Rosched_Allgather's n-port all-gather (sched/nway/nway_allgather.h: Algorithm 7 of Träff 2022
// on the skips of n ports, Bruck et al. 1997's k-port dissemination): ceil(log_{n+1} p) rounds
// against Algorithm 7's ceil(log2 p), each a rank's messages on up to n ports at once, posted
// together (MPI_Irecv, MPI_Isend) and completed together before the next round. Short results,
// whose rounds cost their latency, are where it pays; the cost rule below picks n and says
// where.
#ifndef ROSCHED_MPI_EXEC_ALLGATHER_NWAY_H_
#define ROSCHED_MPI_EXEC_ALLGATHER_NWAY_H_

#include <mpi.h>

#include <cstddef>
#include <string>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/round_stream.h"

namespace rosched::mpi {

// The sizes of the blocks an n-port all-gather moves, in bytes: their mean and the largest
// (the same for Rosched_Allgather's; Rosched_Allgatherv's may differ by far: Träff 2022's
// (r mod 3) counts give the last of 1,152 ranks 16% of a 16 KiB result).
struct GatherBlocks {
  double mean = 0;
  double largest = 0;
};

// The GatherBlocks of a vector cut into blocks (cut), of elements of `size` bytes.
GatherBlocks gather_blocks(const BlockCut& cut, int size);

// How an n-port all-gather's rounds go, for the rule that prices them: every message whole, or
// streamed in parts as nway_allgather_on streams them with a stream model.
enum class NportRounds { kWhole, kStreamed };

// The plan of an n-port round of `messages` messages of about mean_message bytes (the same
// figure on every rank), differ where messages differ between ranks: one message as Algorithm
// 7's rounds (stream_plan, round_stream.h), several by fan_stream_plan.
StreamPlan nport_round_plan(const CostModel& model, double mean_message, bool differ,
                            std::size_t messages);

// The model's time for the n-port all-gather of these blocks over p ranks: over the rounds i,
// the round's c_i messages at once, each of the round's (s_(i+1) - s_i) blocks shared out
// evenly among them, k_i = (s_(i+1) - s_i) / c_i blocks a message:
//  - all ranks' messages of k_i mean blocks: fan_time (nway_allreduce.h) of c_i messages of
//    k_i mean bytes (every rank sends them at once, so the model's time of c_i times as many
//    bytes and its figure for c_i - 1 further messages of that size, both measured with every
//    rank sending, hold what a shared network costs);
//  - where the largest block is above the mean, the ranks that hold it send it in every one of
//    their c_i messages (a rank sends all it holds to each peer): c_i messages of
//    k_i mean + (largest - mean) bytes (at most the whole result) from one rank, fan_time with
//    spread crowding^((1 + share) / 2), share = (largest - mean) / (p mean), the part of the
//    result the largest block holds above a mean one. Only some ranks send those messages, so
//    the network is less crowded for them than for all ranks' at once; how much less depends on
//    the other ranks' traffic alongside. Measured at 1,152 ranks in SimGrid
//    (docs/sim/nport_allgather.md, "One large block"): where the block is all of the result (a
//    broadcast, share 1) the ports ranked as with spread crowding (the k-nomial tree's rule's);
//    where it is 16% of it, amid every rank's messages, as with spread sqrt(crowding); the
//    exponent is linear in share between the two. With shared_nodes (ranks share nodes,
//    node_layout.h) the spread is 1: a block's holders are consecutive ranks, so they share
//    their node's link (36 x 32 ranks in SimGrid, all 4 KiB on the last rank: 33 ports took
//    232 us, where spread 1 says 281 and the spread above 31);
// the round takes the longer of the two. For n = 1 it is Algorithm 7's rounds one after the
// other. With rounds = kStreamed a round that nway_allgather_on would stream is priced as it
// runs: its messages cut into parts (nport_round_plan on the mean message; the larger messages
// of the second case into as many parts of that size as they need), every part one of the
// rank's messages in fan_time. SimGrid SMPI, 36 x 1, all-gather of 1 MiB streamed: 52.6 us on
// n = 5, 11 or 17 ports, 48.3 on 35, where whole-message prices ranked 11 first (60.2 us
// against 68.3 on 35) and streamed ones put 35 first (45.7 against 48.6 on 11).
double nway_allgather_time(const CostModel& model, int p, int n, const GatherBlocks& blocks,
                           bool shared_nodes = false, NportRounds rounds = NportRounds::kWhole);
// The n in [1, min(64, p - 1)] with the least nway_allgather_time (ties to the smaller n); 1
// for p <= 2.
int nway_allgather_ports_for(const CostModel& model, int p, const GatherBlocks& blocks,
                             bool shared_nodes = false, NportRounds rounds = NportRounds::kWhole);
// The n of the n-port all-gather's trial candidate by `model`: the rule's on rounds priced as
// `rounds` says (how the caller runs them: kStreamed where it passes round_stream_model, as the
// entry points' n-port forms do, kWhole where it passes none, as the node-aware lanes do); 0
// where the form is not worth a trial: where the rule's estimate for its n (on the rounds as
// the walk sends them) is not at least 10% below Algorithm 7's (n = 1) with whole rounds, or the
// rule takes one port. One port's rounds are weighed whole: Algorithm 7's and 9's rounds
// stream too, so streamed prices bring n ports and one together (Allgatherv of (r mod 3)
// counts, 4 MiB, 36 x 1: 206.1 us on 2 ports against 214.9 on one), where SimGrid measured the
// n-port form 11% faster than the entry point's own (219.3 us on 3 ports against Algorithm 9's
// 246.5); and on a crowded network (fan_share, nway_allreduce.h) whole rounds on n ports cost
// about what one port's do (`flat288`, 1 MiB: 730.03 us on 7 ports, 802.42 on one), where the
// streamed n-port form is the fastest measured (613.86 on 15). Each port count is priced
// once per pricing; the answers of the last four questions are kept per thread, keyed on all
// they depend on (every figure of the model, same_model, and ROSCHED_STREAM_PART).
int nway_allgather_trial_ports(const CostModel& model, int p, const GatherBlocks& blocks,
                               bool shared_nodes, NportRounds rounds);
// The n for Rosched_Allgather's and Rosched_Allgatherv's candidate: ROSCHED_NWAY_N (or
// Rosched_Set_nway's n) where set, else nway_allgather_trial_ports by ci's model, ranks sharing
// nodes as ci's do. Collective at the communicator's first use of the model, and (for blocks of
// unequal sizes) of its node layout.
int nway_allgather_ports(const CommInfo& ci, const GatherBlocks& blocks, NportRounds rounds);
// The same by `model` instead of ci's own (lanes_model, cost_model.h, for the lanes of the
// full-lane steps).
int nway_allgather_ports(const CommInfo& ci, const GatherBlocks& blocks, const CostModel& model,
                         NportRounds rounds);
// The n for a call that runs the n-port all-gather without a trial (its own entry point, or a
// trial's earlier answer): nway_allgather_ports where that is not 0, else the rule's n
// (nway_allgather_ports_for on the same pricing, found and kept with the trial's answer), at
// least 2.
int nway_allgather_ports_to_run(const CommInfo& ci, const GatherBlocks& blocks, NportRounds rounds);

// "n-port all-gather, n = N" (without ", n = N" for n = 0, not run): its name in a trial's and a
// choice's report.
std::string nway_allgather_name(int n);
// ROSCHED_VERBOSE: tells that `name` runs the n-port all-gather with n ports on `bytes` of result
// (tell_choice, so not inside a trial's timed runs, which the trial reports).
void tell_nway_allgather(const CommInfo& ci, const char* name, int n, double bytes);

// The n-port all-gather on ci over the buffer at base cut as `cut` (p blocks, block j rank j's;
// this rank's own block in place), n ports (1..64). With a stream_model (round_stream_model,
// round_stream.h) a round whose mean message that model would cut (fan_stream_plan, fan_parts of
// cost_model.h; a round of one message as Algorithm 7's, stream_plan; blocks of unequal sizes as
// messages that differ) goes as one stream of parts on each port at once (stream_ports_round):
// SimGrid SMPI moves messages of 5,776-9,375 B at 1.09 of a link's bandwidth and large ones at
// 0.94, which on a shared backbone is the time of the round. Without one (the lanes of the
// node-aware collectives, which have a model of their own) every message goes whole.
void nway_allgather_on(const CommInfo& ci, char* base, const BlockCut& cut, MPI_Datatype datatype,
                       const TypeInfo& type, int n, const CostModel* stream_model = nullptr);

// The n-port reduce-scatter (sched/nway/nway_reduce_scatter.h: the n-port all-gather run
// backwards) on ci over the buffer at acc cut as `cut`: this rank's contribution on entry; block
// ci.rank reduced with op over all ranks on return (the other blocks hold partial results). op
// commutative (a block's partial results are combined in the order they arrive). n ports (1..64;
// n = 1 is the circulant reduce-scatter's rounds). stream_model as for nway_allgather_on: a
// round's receives then arrive in parts, and are combined once all have come.
void nway_reduce_scatter_on(const CommInfo& ci, char* acc, const BlockCut& cut,
                            MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int n,
                            const CostModel* stream_model = nullptr);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ALLGATHER_NWAY_H_
