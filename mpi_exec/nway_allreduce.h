// The n-way dissemination allreduce (End et al. 2015; sched/nway/nway_schedule.h) as a state
// machine over MPI point-to-point: each round posts its n MPI_Irecv and n MPI_Isend (one per
// port, tag from the round and port), and, once all have completed, copies and folds as the
// round says. progress() advances it without blocking (split phase: Rosched_Test), finish()
// blocks (Rosched_Wait, and Rosched_Allreduce_nway itself). It walks the very NwayRound
// objects the verifier simulates (sim/nway_run.h).
#ifndef ROSCHED_MPI_EXEC_NWAY_ALLREDUCE_H_
#define ROSCHED_MPI_EXEC_NWAY_ALLREDUCE_H_

#include <mpi.h>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"
#include "sched/nway/nway_schedule.h"

namespace rosched::mpi {

// The cost rule for n, over the communicator's cost model (mpi_exec/cost_model.h): the n in
// [1, min(64, p - 1)] that minimises
//     ceil(log_{n+1} p) * (time(m) + s bytes(n, m) + (n - 1) per_message)
// for vectors of m bytes: rounds times what n vectors leaving one rank cost, the bytes of the
// n - 1 further ones, bytes(n, m), taken from the model where they share the rank's path
// (s = fanout - 1 in [0, 1], or 1 on a crowded network: fan_share below; 1 where a rank's
// two messages at once take twice as long, 0 where each has a path of its own, as SimGrid's
// loopback within a node gives: there 31 ports cost the bytes of one; SMPI, 36 x 32 ranks,
// 16 KiB: the all-reduce of allreduce_lanes.h whose node steps take 31 ports by it, 30.7 us,
// with the one port that time(n m) alone chose, 62.8), plus the overhead of the n - 1 further
// messages (SMPI with 0.5 us per
// message, p = 64, 4 B: the k-nomial reduction with the 63 ports of the rule without it took
// 36.2 us, the binomial tree 30.2, MVAPICH2's selector 18.1).
//     bytes(n, m) = max(time(n m) - time(m), (n - 1) (further(m) - per_message)):
// n m bytes as one message of them moves them, or as n - 1 further messages of m in a burst do,
// whichever is dearer. The model is measured with every rank sending at once, so both hold what
// the traffic of every rank costs a shared network (a backbone narrower than all links);
// time(n m) also holds the protocol step above the eager limit, further(m) the rate at which a
// transport moves messages of m itself (SimGrid SMPI moves 257-1,425 B at 0.34 of a link's
// bandwidth, a message of 15.4-64 KiB at 0.70: on `flat288`, 288 ranks, an all-gather of 16 KiB
// on 16 ports, two rounds, the second of 16 messages of 965 B, took 36.1 us, on 7 ports in three
// rounds 28.8; by time(n m) alone the rule took the 16, with further(m) 6). On a linear model
// both are (n - 1) beta m. Below the eager limit on a model measured with its burst figures,
// further(m) alone and s = 1 (fan_time below).
// (Extrapolating from m along the model's segment, as time(m) + (n - 1) per_byte(m) m, chose
// n = 33 for 2 KiB at 1,152 ranks on the simulated flat platform, whose backbone then carried
// 78 MB per round: 1.21x slower than the best selector.) Small vectors get many ports (few
// rounds), large ones few; ties go to the smaller n. 1 for p <= 2.
int nway_ports_for(const CostModel& model, int p, double bytes);
// The n in [1, min(64, p - 1)] with the least cost(n), ties to the smaller n; 1 for p <= 2: the
// search of every port rule.
int least_cost_ports(int p, const std::function<double(int)>& cost);
// The rule's estimate for one n (above) for vectors of m = bytes.
double nway_time(const CostModel& model, int p, int n, double bytes);
// Its factor per round: what n messages of `bytes` leaving one rank at once cost,
// time(m) + s bytes(n, m) / spread + (n - 1) per_message, spread = 1 (also a tree
// level of n children; the k-nomial tree's rule, knomial_time below, divides by the model's
// crowding). On a measured model with its burst figures and messages below the eager limit
// (60 KiB), bytes(n, m) = (n - 1) (further(m) - per_message) and s = 1: each further message at
// the rate measured for its own size, one after the other on the rank's link. time(n m) there
// would carry steps that such messages never pay (on the paper's 36 x 1 the rendezvous step
// between 60 and 128 KiB, and one between 8 and 16 KiB): of SimGrid's times of the allgatherv on
// 36 x 1 on 3-35 ports, 4-64 KiB, 13 of 15 are within 4% of this estimate, where the other was
// up to 89% high (docs/sim/nport_allgather.md, "The rule on each message's own figure").
//
// s (fan_share): fanout - 1 in [0, 1] where some ranks send (a tree level, one rank's heavier
// message), and where every rank sends its n messages at once (FanSenders::kEveryRank: an n-port
// round, the n-way all-reduce's) on a network that is not crowded; 1 where every rank sends
// messages above the eager limit (60 KiB) on a crowded one (crowding, measured at 1 MiB, above
// 1.5). fanout is measured with the other ranks idle, so it holds what a rank's own path gives
// to messages to two peers (SimGrid caps each flow below its link's bandwidth); where one large
// message from every rank already fills what they share, a rank's further messages add no
// bandwidth, and their bytes cost their crowded time in full. (Below the eager limit, on a
// model with burst figures, each further message is charged in full anyway, above.) SimGrid
// SMPI, `flat288` (288 ranks, crowding 5.96), the n-port all-gather of 1 MiB on 7 ports with
// whole rounds: 730.03 us, estimated 732.0 with s = 1, 625.8 with s = fanout - 1 = 0.79; `flat`
// (1,152 ranks), 4 MiB on 29 / 31 ports: 2,714.70 / 2,715.66 us, estimated 2,720.3 / 2,719.8,
// were 2,192.0 / 2,188.8 (docs/sim/refinements.md, "Further bytes on a crowded network").
enum class FanSenders { kSome, kEveryRank };
double fan_share(const CostModel& model, double bytes, FanSenders senders);
double fan_time(const CostModel& model, int n, double bytes, double spread = 1,
                FanSenders senders = FanSenders::kSome);

// The k-nomial tree's cost rule: ceil(log_{n+1} p) levels of
//     time(m) + s bytes(n, m) / crowding + (n - 1) per_message
// for vectors of m bytes (fan_time with spread = the model's crowding, s from its fanout). At
// a level, n children send to each parent, so the parent's link takes n m bytes, but all ranks
// together put no more than one vector each on what they share (at the first level p n / (n + 1)
// ranks send, fewer above): the model's crowded time(m), measured with every rank sending m at
// once, holds that share, and the further (n - 1) m bytes cross only the parent's own link,
// which two ranks alone measure, crowding times faster than all at once. The n-way all-reduce's
// rule (nway_ports_for), where every rank sends n vectors in every round, takes bytes(n, m)
// whole; on a network that every rank's traffic crowds (SimGrid's `flat`, 1,152 ranks on a
// backbone of 2,000 GB/s, crowding about 6) it kept the tree at one port for 4 KiB, where three
// ports took 26.8 us, ten 23.6 and MVAPICH2's selector 26.3. Where crowding is 1 both rules are
// the same.
double knomial_time(const CostModel& model, int p, int n, double bytes);
// The n in [1, min(64, p - 1)] with the least knomial_time (ties to the smaller n); 1 for p <= 2.
int knomial_ports_for(const CostModel& model, int p, double bytes);

// What an ideal all-reduce of `bytes` costs by the model: the ceil(log2 p) latencies of
// recursive doubling plus the 2 (p - 1) / p m bytes per rank of a reduce-scatter and an
// all-gather.
double ideal_allreduce(const CostModel& model, int p, double bytes);
// Whether the n-way all-reduce with the n of its cost rule can pay for vectors of `bytes` on ci:
// its time by the rule at most twice the ideal all-reduce's (short vectors, whose n-way rounds
// are fewer than the census's; End et al. 2015: up to 255 elements). Collective at the
// communicator's first use of the model.
bool nway_can_pay(const CommInfo& ci, double bytes);

// The n a call uses: Rosched_Set_nway's if set, else ROSCHED_NWAY_N (read once), else the cost
// rule (collective over the communicator the first time: the model is measured then).
int nway_ports(const CommInfo& ci, double bytes);
// Rosched_Set_nway's n if set, else ROSCHED_NWAY_N's, else 0.
int forced_nway_ports();
NwayRule nway_rule();
// Rosched_Set_nway: n = 0 and rule = nullptr restore the defaults. Throws Error(MPI_ERR_ARG).
void set_nway(int n, const char* rule);

// One rank's rounds of an n-way schedule, walked once from NwaySchedule::round and kept: a
// program repeats its all-reduce, and each round's description holds vectors that would
// otherwise be built again at every call. rounds_of keeps the last two sets per thread (the
// node's and the lane's of a lane all-reduce, allreduce_lanes.h); a running
// operation holds its own reference, so a later call for other (p, n, rule, rank) cannot take
// it away.
struct NwayRounds {
  std::int64_t p = 0, n = 0, rank = 0;
  NwayRule rule = NwayRule::kCirculant;
  std::vector<NwayRound> rounds;
  std::uint8_t result = 0;
};
// Throws std::invalid_argument as NwayPlan does (the paper rule where its tuple does not exist).
std::shared_ptr<const NwayRounds> rounds_of(std::int64_t p, std::int64_t n, NwayRule rule,
                                            std::int64_t rank);

// The blocking n-way all-reduce of count > 0 elements on ci with n ports and nway_rule():
// Rosched_Allreduce_nway after its checks, and the step of the collectives built on it. Throws
// Error(MPI_ERR_ARG) where the rule has no schedule for (p, n) (the paper rule's tuples).
void nway_allreduce_on(const CommInfo& ci, const void* sendbuf, void* recvbuf, int count,
                       MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int n);

class NwayAllreduce {
 public:
  // Checked arguments; p, rank and the private communicator of ci. Copies this rank's
  // contribution (from recvbuf if sendbuf is MPI_IN_PLACE); progress() or finish() post the
  // rounds.
  NwayAllreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                const TypeInfo& type, MPI_Op op, const CommInfo& ci, int n, NwayRule rule);
  ~NwayAllreduce();
  NwayAllreduce(const NwayAllreduce&) = delete;
  NwayAllreduce& operator=(const NwayAllreduce&) = delete;

  // Advances as far as possible without blocking; true once the result is in recvbuf.
  bool progress();
  // Blocks until the result is in recvbuf.
  void finish();

 private:
  // Rounds until done or, unless block, until a round's messages have not all arrived.
  bool advance(bool block);
  void post_round();
  void write_result();
  void complete_round();
  // The combination of the accumulators in mask, as a pointer to count elements (in scratch
  // if it takes more than one).
  const void* combined(std::uint8_t mask, std::optional<ScratchBuffer>& scratch);
  void* acc(int a);
  // Accumulator a, owned and writable (kMain starts as a view of kOwn).
  void* own_acc(int a);
  void fold_into(int a, const void* part);

  int count_;
  MPI_Datatype datatype_;
  TypeInfo type_;
  MPI_Op op_;
  MPI_Comm c_;
  void* recvbuf_;
  int tag_base_;
  std::shared_ptr<const NwayRounds> schedule_;
  int round_ = 0;
  bool posted_ = false, done_ = false;
  const NwayRound* now_ = nullptr;
  std::array<std::optional<ScratchBuffer>, kNwayAccs> acc_;
  std::array<bool, kNwayAccs> has_{};
  bool main_is_own_ = true;  // kMain is x until its first fold
  // Per message of a round (at most n each way, n the ports): [0, n) what a send composed,
  // [n, 2n) what is received; the requests of the round, receives first. Sized once per call.
  std::optional<ScratchBuffer>& out(std::size_t m) { return blocks_[m]; }
  std::optional<ScratchBuffer>& in(std::size_t m) { return blocks_[ports_ + m]; }
  std::size_t ports_;
  std::vector<std::optional<ScratchBuffer>> blocks_;
  std::vector<MPI_Request> requests_;
  int request_count_ = 0;
};

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_NWAY_ALLREDUCE_H_
