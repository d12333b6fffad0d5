// The circulant all-gather and reduce-scatter, round by round (circulant_rounds.h). Round j of
// the all-gather (Träff 2022, Alg. 7): a rank sends the blocks it has gathered so far that its
// to-rank lacks and receives those of its from-rank, as one message each (a block range that
// wraps around the vector's end as a two-piece datatype). The reduce-scatter walks the same
// rounds backwards with sender and receiver swapped (reduce_scatter_round): it sends partial
// results of the blocks its to-rank will combine and adds what it receives into its own.
#include "mpi_exec/circulant_rounds.h"

#include <algorithm>

#include "mpi_exec/allgatherv_circulant.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/round_stream.h"
#include "mpi_exec/tags.h"
#include "sched/circulant/allgather_schedule.h"
#include "sched/circulant/reduce_scatter_schedule.h"

namespace rosched::mpi {

CirculantRounds::CirculantRounds(Kind kind, const CommInfo& comm, char* base, const BlockCut& cut,
                                 MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int tag)
    : kind_(kind),
      comm_(comm),
      base_(base),
      cut_(cut),
      datatype_(datatype),
      type_(type),
      op_(op),
      tag_(tag),
      skips_(skips_of(comm.p)) {
  if (kind_ != kReduceScatter || comm.p == 1) return;
  std::int64_t most = 0;  // the largest receive: its buffer
  for (int j = 0; j < skips_.q(); ++j) {
    const rosched::ReduceScatterRound round = rosched::reduce_scatter_round(skips_, comm.rank, j);
    most =
        std::max(most, cut.elements(skips_.mod(comm.rank + round.recv_offset), round.recv_count));
  }
  in_.emplace(type, static_cast<int>(most));
}

CirculantRounds::~CirculantRounds() {
  cancel_requests(requests_.data(), static_cast<int>(requests_.size()));
}

CirculantRounds::RoundBlocks CirculantRounds::round_blocks() const {
  const std::int64_t rank = comm_.rank;
  const auto blocks = [&](const auto& round) {
    return RoundBlocks{round.to,
                       round.from,
                       skips_.mod(rank + round.send_offset),
                       round.send_count,
                       skips_.mod(rank + round.recv_offset),
                       round.recv_count};
  };
  return kind_ == kAllgather ? blocks(rosched::allgather_round(skips_, rank, round_))
                             : blocks(rosched::reduce_scatter_round(skips_, rank, round_));
}

CirculantRounds::Peers CirculantRounds::next_round(const RoundBlocks& b) {
  send_ = cyclic_blocks(base_, cut_, b.send_block, b.send_count, datatype_, type_.extent);
  if (kind_ == kAllgather) {
    recv_ = cyclic_blocks(base_, cut_, b.recv_block, b.recv_count, datatype_, type_.extent);
  } else {
    recv_first_ = cut_.first(b.recv_block);
    recv_got_ = cut_.elements(b.recv_block, b.recv_count);
    recv_ = CyclicBlocks{};  // the plain elements into the receive buffer
    recv_.at = static_cast<char*>(in_->data());
    recv_.count = static_cast<int>(recv_got_);
    recv_.type = datatype_;
  }
  ++round_;
  return {static_cast<int>(b.to), static_cast<int>(b.from)};
}

bool CirculantRounds::start_round() {
  if (round_ == skips_.q()) return false;
  const Peers peers = next_round(round_blocks());
  check(PMPI_Irecv(recv_.at, recv_.count, recv_.type, peers.from, tag_, comm_.c, &requests_[0]),
        "MPI_Irecv");
  check(PMPI_Isend(send_.at, send_.count, send_.type, peers.to, tag_, comm_.c, &requests_[1]),
        "MPI_Isend");
  return true;
}

void CirculantRounds::end_round() {
  if (kind_ == kReduceScatter) combine(0, recv_got_);
}

void CirculantRounds::combine(std::int64_t lo, std::int64_t hi) {
  // Elements lo .. hi - 1 of what came, into the vector's elements recv_first_ + lo .. (mod n):
  // at most two runs, the second from the vector's start.
  const char* const in = static_cast<char*>(in_->data());
  reduce_into_cyclic(in + lo * type_.extent, base_, recv_first_ + lo, hi - lo, cut_.n, datatype_,
                     type_.extent, op_);
}

// One MPI_Sendrecv per round (Open MPI's costs less than a receive, a send and a wait: at p = 2
// the forced circulant all-gather of 4 B took 1.41x the library's time with them, 1.33x so);
// a round streamed in parts where stream_plan says so for the round's nominal size (its blocks'
// share of the vector, the same on every rank); a reduce-scatter then combines each part as it
// arrives, while its sends are still on their way: they read other blocks than it writes (in
// round k both move skips[k+1] - skips[k] <= skips[k] blocks, those sent starting skips[k]
// blocks after those received, Träff 2022, Lemma 1).
void CirculantRounds::run() {
  const double bytes = static_cast<double>(cut_.n) * type_.size;
  const std::int64_t p = skips_.p();
  const CostModel* model = round_stream_model(comm_, bytes);
  while (round_ < skips_.q()) {
    const RoundBlocks b = round_blocks();
    if (model != nullptr) {
      const double blocks = static_cast<double>(b.send_count);
      const StreamPlan plan =
          stream_plan(*model, bytes * blocks / static_cast<double>(p), cut_.starts != nullptr);
      if (plan.streamed()) {
        stream_next_round(b, plan);
        continue;
      }
    }
    const Peers peers = next_round(b);
    check(PMPI_Sendrecv(send_.at, send_.count, send_.type, peers.to, tag_, recv_.at, recv_.count,
                        recv_.type, peers.from, tag_, comm_.c, MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
    end_round();
  }
}

void CirculantRounds::stream_next_round(const RoundBlocks& b, const StreamPlan& plan) {
  thread_local RoundMessage send, recv;  // their vectors' storage kept for the next round
  // Blocks b .. b + c - 1 (mod p): one piece, or two where they wrap around the vector's end.
  const auto blocks = [&](RoundMessage& m, std::int64_t first, std::int64_t count) {
    m.clear();
    add_cyclic_blocks(m, cut_, first, count, type_.extent);
  };
  blocks(send, b.send_block, b.send_count);
  const int to = static_cast<int>(b.to), from = static_cast<int>(b.from);
  if (kind_ == kAllgather) {
    blocks(recv, b.recv_block, b.recv_count);
    stream_round(send, base_, recv, base_, datatype_, type_, plan, to, from, tag_, comm_.c);
  } else {  // into the receive buffer, combined part by part
    recv_first_ = cut_.first(b.recv_block);
    recv_got_ = cut_.elements(b.recv_block, b.recv_count);
    recv.clear();
    recv.add(0, recv_got_);
    stream_round(send, base_, recv, static_cast<char*>(in_->data()), datatype_, type_, plan, to,
                 from, tag_, comm_.c,
                 [this](std::int64_t lo, std::int64_t hi) { combine(lo, hi); });
  }
  ++round_;
}

void circulant_allgather_on(const CommInfo& ci, char* base, const BlockCut& cut,
                            MPI_Datatype datatype, const TypeInfo& type) {
  CirculantRounds(CirculantRounds::kAllgather, ci, base, cut, datatype, type, MPI_OP_NULL,
                  tag::kAllgatherRound)
      .run();
}

void circulant_reduce_scatter_on(const CommInfo& ci, char* acc, const BlockCut& cut,
                                 MPI_Datatype datatype, const TypeInfo& type, MPI_Op op) {
  CirculantRounds(CirculantRounds::kReduceScatter, ci, acc, cut, datatype, type, op,
                  tag::kReduceScatterRound)
      .run();
}

}  // namespace rosched::mpi
