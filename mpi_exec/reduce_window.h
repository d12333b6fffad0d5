// The window of rounds in flight that the pipelined tree reductions walk their schedules with
// (ReduceWindow), and the walk itself (walk_reduce): the two-tree, circulant and k-ary tree
// reductions (reduce_two_tree.cc, reduce_circulant.cc, reduce_kary_tree.cc) and the two-tree
// all-reduce (allreduce_two_tree.cc). A schedule round (sched/round.h, ReduceRound) receives at
// most one block of partial results and sends at most one.
#ifndef ROSCHED_MPI_EXEC_REDUCE_WINDOW_H_
#define ROSCHED_MPI_EXEC_REDUCE_WINDOW_H_

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"
#include "sched/round.h"

namespace rosched::mpi {

// The rounds of a pipelined reduction into acc (count elements in n blocks), `window` of them in
// flight: each round posts its receive (into a buffer of its own) and its send as nonblocking
// calls. A block is sent only after every receive of that block in an earlier round has
// completed and been combined into acc. Receives are combined in round order, each on the side
// the schedule names (child before or after this rank's range), so the result is the same as
// with one round at a time; a rank never receives a block again after sending it. A round's
// buffer and requests are reused `window` rounds later, after they have completed. `window` is
// cut to `rounds`, the rounds of the walk (more slots would never be used).
// With `own` (this rank's contribution, count elements; nullptr: acc holds it on entry) acc's
// contents on entry are ignored and own is never copied whole: a block sent before any receive
// of it leaves from own; a block's first receive lands in acc, then acc = own op acc (where that
// is the order: commutative operations, or a receive from after this rank's range; else own's
// block is copied into acc first); a block neither received nor sent is copied at finish(). At
// p = 2 the circulant reduction of 4 MiB took 1.6x Open MPI's MPI_Reduce with a whole copy of
// own first (docs/perf.md, "Reductions without a copy of the input").
class ReduceWindow {
 public:
  ReduceWindow(void* acc, int count, std::int64_t n, MPI_Datatype datatype, const TypeInfo& type,
               MPI_Op op, int window, std::int64_t rounds, MPI_Comm c, const void* own = nullptr);
  // The next round (of those the walk counts): post(r), then send_next().
  void round(const rosched::ReduceRound& r);
  // Receiving ahead: posts the next round's receive (after completing the round `window`
  // before it, whose send must have been posted: not while full()) and keeps its send for
  // send_next.
  void post(const rosched::ReduceRound& r);
  // Receiving ahead: the send of the oldest round posted and not yet sent, after combining every
  // receive of its block in the rounds before it. Receives of later rounds already posted stay
  // in flight meanwhile, so the blocks after the one a rank waits for are on their way.
  void send_next();
  bool full() const { return posted_ - sent_ >= static_cast<std::int64_t>(slots_.size()); }
  // Completes and combines every receive of `block` posted so far (and the receives before
  // them): at the sink, the block is then reduced once its last receive has been posted.
  void combine_block(std::int64_t block) { combine_block(block, posted_); }
  // Completes and combines every receive, and completes every send.
  void finish();

 private:
  struct Slot {
    Slot(const TypeInfo& type, int elements) : in(type, elements) {}
    ScratchBuffer in;
    MPI_Request recv = MPI_REQUEST_NULL, send = MPI_REQUEST_NULL;
    std::int64_t block = -1;  // the block received in this slot's round, -1: none
    BlockSpan mine{nullptr, 0};
    bool recv_before_own = false;
    const char* own_at = nullptr;              // received into mine itself: mine = own_at op mine
    std::optional<rosched::Transfer> to_send;  // this slot's round's send, if any
  };
  Slot& slot_of(std::int64_t k);
  void combine_block(std::int64_t block, std::int64_t before);  // receives of rounds < before
  void combine_through(std::int64_t k);  // receives of rounds combined_ .. k, in order

  void* acc_;
  int count_;
  std::int64_t n_;
  MPI_Datatype datatype_;
  const TypeInfo& type_;
  MPI_Op op_;
  bool commutative_;  // then every receive is combined as in op mine: no copy back
  MPI_Comm c_;
  std::vector<Slot> slots_;
  std::int64_t posted_ = 0;    // rounds posted so far (those the walk counts: walk_reduce)
  std::int64_t sent_ = 0;      // of those, the rounds whose send (if any) has been posted
  std::int64_t combined_ = 0;  // receives of rounds < combined_ are combined into acc
  const void* own_;
  // With own_, per block: whether own's block is still to be used (not yet folded into acc, or
  // to be folded when its first receive is combined, nor sent as it is).
  std::vector<bool> own_pending_;
  const char* own_block(std::int64_t block) const {
    return block_span(const_cast<void*>(own_), block, count_, n_, type_.extent).at;
  }
};

// Walks every round of `schedule` (a reduction schedule of pipe.n blocks: rounds(), round(i)
// giving a ReduceRound) over acc with pipe.window rounds in flight (ReduceWindow, own as there),
// telling ROSCHED_VERBOSE `what` was run. With pipe.receive_ahead the receives of the window's
// rounds are posted before the oldest round's send waits for its block (ReduceWindow::post and
// send_next), and the window counts every round of the schedule, as the broadcasts' does: a leaf
// of a k-ary tree, sending every k-th round, keeps window / k blocks in flight, not window.
// Else each round with a transfer posts its receive and send together (ReduceWindow::round),
// and the window counts those rounds only.
template <typename Schedule>
void walk_reduce(const Schedule& schedule, const char* what, const Pipeline& pipe, const void* own,
                 void* acc, int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op,
                 const CommInfo& comm) {
  tell_choice(comm, "reduction", what, pipe.n, pipe.window, static_cast<double>(count) * type.size);
  ReduceWindow window(acc, count, pipe.n, datatype, type, op, pipe.window, schedule.rounds(),
                      comm.c, own);
  for (std::int64_t i = 0; i < schedule.rounds(); ++i) {
    const rosched::ReduceRound round = schedule.round(i);
    if (!pipe.receive_ahead) {
      if (round.send || round.recv) window.round(round);
      continue;
    }
    if (window.full()) window.send_next();
    window.post(round);
  }
  window.finish();
}

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_REDUCE_WINDOW_H_
