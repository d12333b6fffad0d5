// What the pipelined broadcasts share: their argument checks, the block count and window, and
// the walk over a schedule description (BcastSchedule, TwoTreeBcastSchedule,
// HypercubeBcastSchedule: rounds() and round(i) giving at most one block to send and one to
// receive), with a window of rounds in flight.
#ifndef ROSCHED_MPI_EXEC_BCAST_ROUNDS_H_
#define ROSCHED_MPI_EXEC_BCAST_ROUNDS_H_

#include <mpi.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "mpi_exec/args.h"
#include "mpi_exec/block_count.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/message_bytes.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/payload.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"
#include "sched/round.h"

namespace rosched::mpi {

// MPI_Bcast's argument rules: count >= 0, 0 <= root < p, a valid committed datatype; in debug
// mode also the same root and message size on every rank (check_arguments). Returns the type.
TypeInfo check_bcast_args(const CommInfo& comm, int count, MPI_Datatype datatype, int root);

// First element of block b when count elements are split into n blocks as evenly as possible.
inline std::int64_t block_first(std::int64_t b, std::int64_t count, std::int64_t n) {
  return b * count / n;
}

// The elements of one block of a buffer: where they start and how many.
struct BlockSpan {
  char* at;
  int count;
};
inline BlockSpan block_span(void* buffer, std::int64_t b, std::int64_t count, std::int64_t n,
                            MPI_Aint extent) {
  const std::int64_t first = block_first(b, count, n);
  return {static_cast<char*>(buffer) + first * extent,
          static_cast<int>(block_first(b + 1, count, n) - first)};
}

// The rounds of a pipelined broadcast, `window` of them in flight: round i posts its receive
// and its send as nonblocking calls after completing round i - window; the sends synchronous
// (MPI_Issend) or eager (MPI_Isend), as the pipeline chose (synchronous_sends, cost_model.h).
// A block is sent only after it has arrived (the wait is for exactly that receive). A block
// that arrives a second time (the schedules clamp blocks beyond n - 1 in the last phase, Träff
// 2022, Alg. 6) is received into a scratch buffer, so no receive ever writes where a pending
// send reads.
//
// Or, receiving ahead (post_receive and send instead of round): the receives of rounds
// i + 1 .. i + window - 1 are posted before round i's send waits for its block, so that while a
// rank waits, the blocks after the one it waits for are already on their way (a tree's
// pipeline: one block per edge in flight would pay a block's latency per block). Messages
// between two ranks still match in round order, both sides posting in that order.
class BcastWindow {
 public:
  // buffer: count elements of datatype in n blocks (block_span); holds_all: this rank has every
  // block from the start (the root).
  BcastWindow(void* buffer, int count, MPI_Datatype datatype, const TypeInfo& type,
              std::int64_t n, bool holds_all, int window, bool synchronous, MPI_Comm c);
  void round(std::int64_t i, const BcastRound& round);
  // Receiving ahead: round j's receive, after round j - window's has arrived.
  void post_receive(std::int64_t j, const BcastRound& round);
  // Receiving ahead: round i's send, after round i - window's has completed.
  void send(std::int64_t i, const BcastRound& round);
  int window() const { return static_cast<int>(slots_.size()); }
  // Completes every round still in flight.
  void finish();

 private:
  static constexpr std::int64_t kMissing = -2, kHave = -1;  // else: the slot receiving it
  struct Slot {
    MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};  // send, receive
    std::int64_t block = -1;  // the block the receive delivers, -1 none or a duplicate
    PayloadBuffer scratch;  // a duplicate's landing place, allocated on need
  };
  void complete(Slot& slot);   // waits for its send and receive
  void arrive(Slot& slot);     // waits for its receive
  void finish_send(Slot& slot);  // waits for its send
  void post_recv(std::size_t index, const BcastRound& round);
  void post_send(std::int64_t i, std::size_t index, const BcastRound& round);

  char* buffer_;
  int count_;
  MPI_Datatype datatype_;
  TypeInfo type_;
  std::int64_t n_;
  bool synchronous_;
  MPI_Comm c_;
  std::vector<std::int64_t> state_;  // per block: kMissing, kHave or the receiving slot
  std::vector<Slot> slots_;
};

// The blocks of a pipelined walk over a schedule of n + extra_rounds rounds, the rounds it
// keeps in flight and how it sends: with the family's block-size factor F if one is set
// (block_count), else the optimum of the cost model (pipeline_blocks); synchronous sends where
// synchronous_allowed and the model says so (synchronous_sends), with one or two rounds in
// flight (synchronous_window), else eager sends and the window from the cost model
// (window_rounds). ROSCHED_WINDOW overrides the window in both cases. The two-tree broadcast
// and the reductions keep eager sends (synchronous_allowed false): for the two-tree broadcast
// its sends running ahead of their receivers paid (SMPI, paper platform p = 36, 64 KiB / 1 MiB:
// 63.6 / 215.7 us eager, 104.0 / 298.9 synchronous; flatnb p = 256, 1 MiB: 466.6 eager, 460.7
// synchronous), the reductions were measured with eager sends only.
struct Pipeline {
  std::int64_t n;
  int window;
  bool synchronous;
  bool receive_ahead = false;  // BcastWindow's post_receive / send walk
  bool one_block() const { return n <= 1; }
};
Pipeline pipeline_for(const CommInfo& comm, double factor, int count, const TypeInfo& type,
                      std::int64_t extra_rounds, bool synchronous_allowed);

// Runs the rounds of schedule over buffer (count elements of datatype, n = schedule.n()
// blocks) on communicator c as the pipeline says (BcastWindow).
template <typename Schedule>
void walk_bcast(const Schedule& schedule, void* buffer, int count, MPI_Datatype datatype,
                const TypeInfo& type, bool holds_all, const Pipeline& pipe, MPI_Comm c) {
  BcastWindow walk(buffer, count, datatype, type, schedule.n(), holds_all, pipe.window,
                   pipe.synchronous, c);
  const std::int64_t rounds = schedule.rounds();
  if (!pipe.receive_ahead) {
    for (std::int64_t i = 0; i < rounds; ++i) walk.round(i, schedule.round(i));
  } else {
    std::int64_t posted = 0;
    for (std::int64_t i = 0; i < rounds; ++i) {
      for (; posted < rounds && posted < i + walk.window(); ++posted) {
        walk.post_receive(posted, schedule.round(posted));
      }
      walk.send(i, schedule.round(i));
    }
  }
  walk.finish();
}

// The rounds of Schedule beyond its n blocks (the same for every n, up to rounding), from its
// one-block instance.
template <typename Schedule>
std::int64_t extra_rounds(int p) {
  return Schedule(p, 1, 0, 0).rounds() - 1;
}

// Runs run(buffer, count, datatype, type) on the message's bytes, `units` (message_units of
// it): MessageBytes, filled on the root, stored back on the other ranks. So every rank cuts the
// same bytes into blocks, whatever datatype it passed (message_bytes.h).
template <typename Run>
void run_on_bytes(const CommInfo& ci, void* buffer, int count, MPI_Datatype datatype,
                  const TypeInfo& type, int root, ByteUnits units, Run run) {
  const MessageBytes message(buffer, count, datatype, type, std::move(units), ci.rank == root);
  run(message.data(), message.count(), message.type(), message.info());
  if (ci.rank != root) message.store();
}

// Runs one of rosched's broadcasts on a caller's message: plan_of(units, info) makes the
// algorithm's plan from the message's bytes (message_units: the same on every rank, whatever
// datatype each passed; MPI_ERR_COUNT where no unit counts them in an int), then
// run(plan, buffer, count, datatype, type) runs that plan. Where the plan sends the message as
// one block (plan.one_block()), on the caller's own buffer, count and datatype: one message,
// which MPI matches by type signature, and a datatype with gaps pays no copy in and out. Else
// on the bytes (run_on_bytes), so that every rank cuts at the same bytes.
template <typename PlanOf, typename Run>
void bcast_planned(const CommInfo& ci, void* buffer, int count, MPI_Datatype datatype,
                   const TypeInfo& type, int root, PlanOf plan_of, Run run) {
  ByteUnits units = message_units(count, type);
  require_units(units, std::int64_t{count} * type.size);
  const auto plan = plan_of(units.count, units.info);
  if (plan.one_block()) {
    run(plan, buffer, count, datatype, type);
    return;
  }
  run_on_bytes(ci, buffer, count, datatype, type, root, std::move(units),
               [&](void* bytes, int n, MPI_Datatype unit, const TypeInfo& info) {
                 run(plan, bytes, n, unit, info);
               });
}

// A broadcast over the schedule family Schedule, built as Schedule(p, n, rank, root), on ci
// (arguments already checked): the pipeline (pipeline_for with the family's factor) made from
// the message's bytes, and the walk on the communicator's private duplicate (bcast_planned);
// ROSCHED_VERBOSE reports it as `name`.
template <typename Schedule>
void pipelined_bcast_on(const CommInfo& ci, const char* name, double factor,
                        bool synchronous_allowed, void* buffer, int count, MPI_Datatype datatype,
                        const TypeInfo& type, int root) {
  if (ci.p == 1 || count == 0 || type.size == 0) return;
  const std::int64_t extra = extra_rounds<Schedule>(ci.p);
  bcast_planned(
      ci, buffer, count, datatype, type, root,
      [&](int units, const TypeInfo& info) {
        return pipeline_for(ci, factor, units, info, extra, synchronous_allowed);
      },
      [&](const Pipeline& pipe, void* data, int n, MPI_Datatype unit, const TypeInfo& info) {
        tell_choice(ci, name, pipe.synchronous ? "pipelined, synchronous sends" : "pipelined",
                    pipe.n, pipe.window, n * static_cast<double>(info.size));
        walk_bcast(Schedule(ci.p, pipe.n, ci.rank, root), data, n, unit, info, ci.rank == root,
                   pipe, ci.c);
      });
}

// A whole MPI_Bcast over Schedule: MPI_Bcast's argument checks, pipelined_bcast_on, and errors
// to the communicator's error handler under the name `name`. factor is a Settings member: read
// at the call, once per process.
template <typename Schedule>
int pipelined_bcast(const char* name, double Settings::*factor, bool synchronous_allowed,
                    void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return run_collective(name, comm, [&](const CommInfo& ci) {
    const TypeInfo type = check_bcast_args(ci, count, datatype, root);
    pipelined_bcast_on<Schedule>(ci, name, settings().*factor, synchronous_allowed, buffer, count,
                                 datatype, type, root);
  });
}

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_BCAST_ROUNDS_H_
