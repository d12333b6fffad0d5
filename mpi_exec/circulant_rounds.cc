// The circulant all-gather and reduce-scatter, round by round (circulant_rounds.h). Round j of
// the all-gather (Träff 2022, Alg. 7): a rank sends the blocks it has gathered so far that its
// to-rank lacks and receives those of its from-rank, as one message each (a block range that
// wraps around the vector's end as a two-piece datatype). The reduce-scatter walks the same
// rounds backwards with sender and receiver swapped (reduce_scatter_round): it sends partial
// results of the blocks its to-rank will combine and adds what it receives into its own.
#include "mpi_exec/circulant_rounds.h"

#include <algorithm>

#include "mpi_exec/allgatherv_circulant.h"
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
  for (MPI_Request& r : requests_) {
    if (r == MPI_REQUEST_NULL) continue;
    PMPI_Cancel(&r);
    PMPI_Request_free(&r);
  }
}

CirculantRounds::Peers CirculantRounds::next_round() {
  const std::int64_t rank = comm_.rank;
  std::int64_t to = 0, from = 0, send_block = 0, send_count = 0, recv_block = 0, recv_count = 0;
  if (kind_ == kAllgather) {
    const rosched::AllgatherRound round = rosched::allgather_round(skips_, rank, round_);
    to = round.to, from = round.from, send_count = round.send_count, recv_count = round.recv_count;
    send_block = skips_.mod(rank + round.send_offset);
    recv_block = skips_.mod(rank + round.recv_offset);
  } else {
    const rosched::ReduceScatterRound round = rosched::reduce_scatter_round(skips_, rank, round_);
    to = round.to, from = round.from, send_count = round.send_count, recv_count = round.recv_count;
    send_block = skips_.mod(rank + round.send_offset);
    recv_block = skips_.mod(rank + round.recv_offset);
  }
  send_ = cyclic_blocks(base_, cut_, send_block, send_count, datatype_, type_.extent);
  if (kind_ == kAllgather) {
    recv_ = cyclic_blocks(base_, cut_, recv_block, recv_count, datatype_, type_.extent);
  } else {
    recv_first_ = cut_.first(recv_block);
    recv_got_ = cut_.elements(recv_block, recv_count);
    recv_ = CyclicBlocks{};  // the plain elements into the receive buffer
    recv_.at = static_cast<char*>(in_->data());
    recv_.count = static_cast<int>(recv_got_);
    recv_.type = datatype_;
  }
  ++round_;
  return {static_cast<int>(to), static_cast<int>(from)};
}

bool CirculantRounds::start_round() {
  if (round_ == skips_.q()) return false;
  const Peers peers = next_round();
  check(PMPI_Irecv(recv_.at, recv_.count, recv_.type, peers.from, tag_, comm_.c, &requests_[0]),
        "MPI_Irecv");
  check(PMPI_Isend(send_.at, send_.count, send_.type, peers.to, tag_, comm_.c, &requests_[1]),
        "MPI_Isend");
  return true;
}

void CirculantRounds::end_round() {
  if (kind_ != kReduceScatter) return;
  // Combined into the blocks received, which wrap around the vector's end at most once.
  char* const in = static_cast<char*>(in_->data());
  const std::int64_t head = std::min(recv_got_, cut_.n - recv_first_);
  if (head > 0) {
    check(PMPI_Reduce_local(in, base_ + recv_first_ * type_.extent, static_cast<int>(head),
                            datatype_, op_),
          "MPI_Reduce_local");
  }
  if (recv_got_ > head) {
    check(PMPI_Reduce_local(in + head * type_.extent, base_, static_cast<int>(recv_got_ - head),
                            datatype_, op_),
          "MPI_Reduce_local");
  }
}

// One MPI_Sendrecv per round (Open MPI's costs less than a receive, a send and a wait: at p = 2
// the forced circulant all-gather of 4 B took 1.41x the library's time with them, 1.33x so).
void CirculantRounds::run() {
  while (round_ < skips_.q()) {
    const Peers peers = next_round();
    check(PMPI_Sendrecv(send_.at, send_.count, send_.type, peers.to, tag_, recv_.at, recv_.count,
                        recv_.type, peers.from, tag_, comm_.c, MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
    end_round();
  }
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
