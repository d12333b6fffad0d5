// ReduceWindow (reduce_window.h): a pipelined reduction's rounds in flight, as nonblocking
// receives into buffers of their own and sends, combined into the accumulator in round order.
#include "mpi_exec/reduce_window.h"

#include <algorithm>

#include "mpi_exec/tags.h"

namespace rosched::mpi {

ReduceWindow::ReduceWindow(void* acc, int count, std::int64_t n, MPI_Datatype datatype,
                           const TypeInfo& type, MPI_Op op, int window, std::int64_t rounds,
                           MPI_Comm c, const void* own)
    : acc_(acc), count_(count), n_(n), datatype_(datatype), type_(type), op_(op), c_(c), own_(own) {
  if (own_ != nullptr) own_pending_.assign(static_cast<std::size_t>(n), true);
  int commutative = 0;
  check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
  commutative_ = commutative != 0;
  const int largest = static_cast<int>((count + n - 1) / n);
  const int slots =
      static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(window, rounds)));
  slots_.reserve(static_cast<std::size_t>(slots));
  for (int k = 0; k < slots; ++k) slots_.emplace_back(type, largest);
}

ReduceWindow::Slot& ReduceWindow::slot_of(std::int64_t k) {
  return slots_[static_cast<std::size_t>(k % static_cast<std::int64_t>(slots_.size()))];
}

void ReduceWindow::round(const ReduceRound& r) {
  post(r);
  send_next();
}

void ReduceWindow::post(const ReduceRound& r) {
  const std::int64_t k = posted_++;
  Slot& slot = slot_of(k);
  if (k >= static_cast<std::int64_t>(slots_.size())) {  // the slot's previous round
    combine_through(k - static_cast<std::int64_t>(slots_.size()));
    check(PMPI_Wait(&slot.send, MPI_STATUS_IGNORE), "MPI_Wait");
  }
  slot.block = -1;
  slot.to_send = r.send;
  if (!r.recv) return;
  const std::int64_t b = r.recv->block;
  slot.block = b;
  slot.mine = block_span(acc_, b, count_, n_, type_.extent);
  slot.recv_before_own = r.recv_before_own;
  slot.own_at = nullptr;
  void* into = slot.in.data();
  if (own_ != nullptr && own_pending_[static_cast<std::size_t>(b)]) {
    own_pending_[static_cast<std::size_t>(b)] = false;
    if (commutative_ || !r.recv_before_own) {  // own op received: lands in acc itself
      slot.own_at = own_block(b);
      into = slot.mine.at;
    } else {  // received op own: own's block in acc first
      local_copy(own_block(b), slot.mine.at, slot.mine.count, datatype_);
    }
  }
  check(PMPI_Irecv(into, slot.mine.count, datatype_, static_cast<int>(r.recv->peer),
                   tag::kReduceRound, c_, &slot.recv),
        "MPI_Irecv");
}

void ReduceWindow::send_next() {
  const std::int64_t k = sent_++;
  Slot& slot = slot_of(k);
  if (!slot.to_send) return;
  const std::int64_t b = slot.to_send->block;
  combine_block(b, k);  // every earlier receive of it, before it leaves
  const BlockSpan send = block_span(acc_, b, count_, n_, type_.extent);
  const char* from = send.at;
  if (own_ != nullptr && own_pending_[static_cast<std::size_t>(b)]) {
    own_pending_[static_cast<std::size_t>(b)] = false;  // nothing received: own as it is
    from = own_block(b);
  }
  check(PMPI_Isend(from, send.count, datatype_, static_cast<int>(slot.to_send->peer),
                   tag::kReduceRound, c_, &slot.send),
        "MPI_Isend");
}

void ReduceWindow::combine_block(std::int64_t block, std::int64_t before) {
  for (std::int64_t j = before - 1; j >= combined_; --j) {
    if (slot_of(j).block == block) {
      combine_through(j);
      return;
    }
  }
}

void ReduceWindow::finish() {
  while (sent_ < posted_) send_next();
  combine_through(posted_ - 1);
  for (Slot& slot : slots_) check(PMPI_Wait(&slot.send, MPI_STATUS_IGNORE), "MPI_Wait");
  for (std::size_t b = 0; b < own_pending_.size(); ++b) {  // blocks neither received nor sent
    if (!own_pending_[b]) continue;
    const BlockSpan mine = block_span(acc_, static_cast<std::int64_t>(b), count_, n_, type_.extent);
    local_copy(own_block(static_cast<std::int64_t>(b)), mine.at, mine.count, datatype_);
  }
}

void ReduceWindow::combine_through(std::int64_t k) {
  for (; combined_ <= k; ++combined_) {
    Slot& slot = slot_of(combined_);
    if (slot.block < 0) continue;
    check(PMPI_Wait(&slot.recv, MPI_STATUS_IGNORE), "MPI_Wait");
    slot.block = -1;
    if (slot.mine.count == 0) continue;
    if (slot.own_at != nullptr) {  // received into mine: mine = own op mine
      check(PMPI_Reduce_local(slot.own_at, slot.mine.at, slot.mine.count, datatype_, op_),
            "MPI_Reduce_local");
    } else if (slot.recv_before_own || commutative_) {  // mine = in op mine
      check(PMPI_Reduce_local(slot.in.data(), slot.mine.at, slot.mine.count, datatype_, op_),
            "MPI_Reduce_local");
    } else {  // mine = mine op in, computed in `in` and copied back
      check(PMPI_Reduce_local(slot.mine.at, slot.in.data(), slot.mine.count, datatype_, op_),
            "MPI_Reduce_local");
      local_copy(slot.in.data(), slot.mine.at, slot.mine.count, datatype_);
    }
  }
}

}  // namespace rosched::mpi
