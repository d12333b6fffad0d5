#include "mpi_exec/bcast_rounds.h"

#include <algorithm>
#include <string>

namespace rosched::mpi {

TypeInfo check_bcast_args(const CommInfo& comm, int count, MPI_Datatype datatype, int root) {
  Agreement agreement;
  agreement.same("root", root, MPI_ERR_ROOT)
      .same_bytes("message size in bytes (count * type size)", count, datatype,
                  MPI_ERR_TRUNCATE);
  return check_arguments(comm.c, agreement, [&] {
    check_count("count", count);
    check_root(root, comm.p);
    return check_type("datatype", datatype);
  });
}

}  // namespace rosched::mpi

namespace rosched::mpi {

Pipeline pipeline_for(const CommInfo& comm, double factor, int count, const TypeInfo& type,
                      std::int64_t extra_rounds, bool synchronous_allowed) {
  const double bytes = static_cast<double>(count) * type.size;
  const CostModel& model = cost_model(comm);
  const std::int64_t n = factor > 0 ? block_count(bytes, comm.p, factor, count)
                                    : pipeline_blocks(model, bytes, extra_rounds, count);
  const double block_bytes = bytes / static_cast<double>(n);
  if (synchronous_allowed && synchronous_sends(model, block_bytes)) {
    return {n, synchronous_window(model, block_bytes), true};
  }
  return {n, window_rounds(model, block_bytes), false};
}

BcastWindow::BcastWindow(void* buffer, int count, MPI_Datatype datatype, const TypeInfo& type,
                         std::int64_t n, bool holds_all, int window, bool synchronous,
                         MPI_Comm c)
    : buffer_(static_cast<char*>(buffer)),
      count_(count),
      datatype_(datatype),
      type_(type),
      n_(n),
      synchronous_(synchronous),
      c_(c),
      state_(static_cast<std::size_t>(n), holds_all ? kHave : kMissing),
      slots_(static_cast<std::size_t>(std::max(window, 1))) {}

void BcastWindow::arrive(Slot& slot) {
  check(PMPI_Wait(&slot.requests[1], MPI_STATUS_IGNORE), "MPI_Wait");
  if (slot.block >= 0) state_[slot.block] = kHave;
  slot.block = -1;
}

void BcastWindow::finish_send(Slot& slot) {
  check(PMPI_Wait(&slot.requests[0], MPI_STATUS_IGNORE), "MPI_Wait");
}

void BcastWindow::complete(Slot& slot) {
  arrive(slot);
  finish_send(slot);
}

void BcastWindow::post_recv(std::size_t index, const BcastRound& round) {
  if (!round.recv) return;
  Slot& slot = slots_[index];
  const std::int64_t b = round.recv->block;
  BlockSpan into = block_span(buffer_, b, count_, n_, type_.extent);
  if (state_[b] == kMissing) {
    state_[b] = static_cast<std::int64_t>(index);
    slot.block = b;
  } else {  // a second copy: received, and dropped
    const std::size_t need = static_cast<std::size_t>(type_.true_extent) +
                             static_cast<std::size_t>(type_.extent) * (into.count - 1);
    if (slot.scratch.size() < need) slot.scratch = PayloadBuffer(need);
    into.at = reinterpret_cast<char*>(slot.scratch.data()) - type_.true_lb;
  }
  check(PMPI_Irecv(into.at, into.count, datatype_, static_cast<int>(round.recv->peer),
                  tag::kBcastRound, c_, &slot.requests[1]),
        "MPI_Irecv");
}

void BcastWindow::post_send(std::int64_t i, std::size_t index, const BcastRound& round) {
  if (!round.send) return;
  const std::int64_t b = round.send->block;
  if (state_[b] == kMissing) {
    throw Error(MPI_ERR_INTERN, "schedule sends block " + std::to_string(b) +
                                    " before it arrives (round " + std::to_string(i) + ")");
  }
  if (state_[b] != kHave) arrive(slots_[static_cast<std::size_t>(state_[b])]);
  const BlockSpan from = block_span(buffer_, b, count_, n_, type_.extent);
  check((synchronous_ ? PMPI_Issend : PMPI_Isend)(from.at, from.count, datatype_,
                                                    static_cast<int>(round.send->peer),
                                                    tag::kBcastRound, c_,
                                                    &slots_[index].requests[0]),
        synchronous_ ? "MPI_Issend" : "MPI_Isend");
}

void BcastWindow::round(std::int64_t i, const BcastRound& round) {
  const std::size_t index = static_cast<std::size_t>(i) % slots_.size();
  complete(slots_[index]);
  post_recv(index, round);
  post_send(i, index, round);
}

void BcastWindow::post_receive(std::int64_t j, const BcastRound& round) {
  const std::size_t index = static_cast<std::size_t>(j) % slots_.size();
  arrive(slots_[index]);
  post_recv(index, round);
}

void BcastWindow::send(std::int64_t i, const BcastRound& round) {
  const std::size_t index = static_cast<std::size_t>(i) % slots_.size();
  finish_send(slots_[index]);
  post_send(i, index, round);
}

void BcastWindow::finish() {
  for (Slot& slot : slots_) complete(slot);
}

}  // namespace rosched::mpi
