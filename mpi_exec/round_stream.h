// A round of an all-gather whose two messages (one send, one receive, each a list of pieces of
// the receive buffer) go as streams of parts instead of whole: Träff 2022's irregular
// all-gather (Alg. 9, allgatherv_circulant.cc) and the regular one (Alg. 7, circulant_rounds.cc)
// stream their rounds where the cost model predicts it faster (stream_parts, cost_model.h:
// SimGrid SMPI moves 5,776-9,375 B messages at 1.09 of a link's bandwidth and large ones at
// 0.94; a rank's next round then starts as soon as the last part of this one has arrived).
// The rounds stay in order: each sends what earlier rounds brought. The n-port all-gather and
// reduce-scatter (allgather_nway.h) stream a round's messages on all its ports at once
// (stream_ports_round).
#ifndef ROSCHED_MPI_EXEC_ROUND_STREAM_H_
#define ROSCHED_MPI_EXEC_ROUND_STREAM_H_

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"

namespace rosched::mpi {

// The pieces of one round's message, in order, as byte offsets from the receive buffer and
// element counts of one datatype.
class RoundMessage {
 public:
  void clear();
  void add(MPI_Aint byte_offset, std::int64_t elements);  // nothing for 0 elements
  bool empty() const { return lengths_.empty(); }
  std::int64_t elements() const { return elements_; }
  // Where the message is and what it is for one MPI call from base: one piece as plain elements
  // (no datatype to build and commit, which costs more than a small piece's transfer), several
  // as a committed hindexed datatype kept in `owned` until the transfer completes.
  void describe(char* base, MPI_Datatype element, OwnedType& owned, char** at, int* count,
                MPI_Datatype* type) const;
  // The same for the message's elements lo .. hi - 1 (0 <= lo < hi <= elements()), of extent
  // `extent` each: a part of the message.
  void describe_part(std::int64_t lo, std::int64_t hi, MPI_Aint extent, char* base,
                     MPI_Datatype element, OwnedType& owned, char** at, int* count,
                     MPI_Datatype* type) const;

 private:
  std::vector<int> lengths_;
  std::vector<MPI_Aint> offsets_;
  std::vector<std::int64_t> starts_;  // the message's element where each piece starts
  std::int64_t elements_ = 0;
};

// Adds the elements of blocks b .. b + c - 1 (mod cut.p) of a buffer cut as `cut` to m, as
// pieces of `extent` bytes each from the buffer's start: one piece, or two where the blocks wrap
// around the buffer's end.
void add_cyclic_blocks(RoundMessage& m, const BlockCut& cut, std::int64_t b, std::int64_t c,
                       MPI_Aint extent);

// How a round's messages go: whole (part_bytes 0) or in parts of about part_bytes, in_flight of
// them posted ahead by the receiver, sent synchronously (MPI_Issend) or eagerly (MPI_Isend).
struct StreamPlan {
  double part_bytes = 0;
  int in_flight = 0;
  bool synchronous = false;
  bool streamed() const { return part_bytes > 0; }
};

// The plan for a round of round_bytes, the same on every rank for the same figure (the round's
// nominal size, not one rank's message): ROSCHED_STREAM_PART's parts if set (a message of at
// most that many bytes is one part), else the cost model's (stream_parts, windowed;
// stream_window), whole where it predicts one part. Where the rounds' messages differ between
// ranks (messages_differ: Algorithm 9 with unequal contributions, a reduce-scatter with unequal
// blocks) the parts go synchronously if the cost model says a rank's own link limits and a
// synchronous send costs little (synchronous_sends; ROSCHED_SENDS): an eager part is sent
// whenever its receiver is ready for it, also after its sender has gone on to the next round,
// and then shares the sender's link with that round's parts, which slowed the rounds on the
// critical path (SimGrid SMPI, paper platform, 36 x 1, Algorithm 9 with 16 MiB in all: (r mod 3)
// counts 1,023.4 us eager, 902.5 synchronous; rank 0 holding half 1,664.1 and 1,111.5; equal
// counts 796.0 either way; docs/sim/refinements.md, "Streamed parts sent synchronously").
StreamPlan stream_plan(const CostModel& model, double round_bytes, bool messages_differ);

// The same for a round whose rank sends several messages of about message_bytes at once (an
// n-port round's), the parts by fan_parts (cost_model.h) instead of stream_parts.
StreamPlan fan_stream_plan(const CostModel& model, double message_bytes, bool messages_differ);

// The cost model of comm for a walk of one-block rounds over `bytes` in all (Algorithms 7 and 9
// with one block per contribution; the largest round carries about half of them), where a
// round could be streamed: ROSCHED_STREAM_PART set, or half of `bytes` above the smallest
// streamed size; else nullptr, and the model, collective at its first use, is not asked.
const CostModel* round_stream_model(const CommInfo& comm, double bytes);
// round_stream_model's test, which needs no model: whether rounds over `bytes` in all among p
// ranks could be streamed.
bool rounds_could_stream(int p, double bytes);

// One round whose messages go as streams of parts of plan.part_bytes (part k of a message of E
// elements, cut into K = ceil(E size / part_bytes) parts, is elements k E / K .. (k + 1) E / K -
// 1, so sender and receiver, which see the same message, cut it alike): receives posted
// plan.in_flight ahead, so that a transport that moves a message once it is matched (SimGrid
// SMPI) has at most that many of a rank's parts on their way; sends max(2 in_flight, 64) ahead,
// so that a part's receive, once posted, never waits for its send (the receiver posts part
// k + in_flight when part k has arrived, by then the sender's parts up to k have gone and it has
// posted beyond k + in_flight). While sends remain to be posted, both sides wait for their oldest
// part at once (MPI_Waitany), so that neither window stalls the other. Until 2026-12-01 every
// send was posted at once: with ROSCHED_STREAM_PART=7 an all-gather block of 400 KB went in
// 57,000 parts and took 539 ms at p = 2 against 8.4 ms with parts of 64 B (Open MPI's progress
// over every pending send; docs/perf.md, "Streamed rounds' sends in a window"). The send's
// pieces are offsets from send_base, the receive's from recv_base. Messages tagged `tag`; an
// empty message is not sent or received. arrived(lo, hi), if given, is called for the receive's
// elements lo .. hi - 1 as each part arrives, in order, while later parts and the sends may
// still be on their way. Returns once every part has arrived and gone.
void stream_round(const RoundMessage& send, char* send_base, const RoundMessage& recv,
                  char* recv_base, MPI_Datatype element, const TypeInfo& type,
                  const StreamPlan& plan, int to, int from, int tag, MPI_Comm c,
                  const std::function<void(std::int64_t, std::int64_t)>& arrived = {});

// One port of a round that a rank runs on several ports at once (the n-port all-gather's and
// reduce-scatter's, allgather_nway.h): its send to `to`, pieces offsets from send_base, and its
// receive from `from`, pieces offsets from recv_base; either may be empty.
struct StreamPort {
  const RoundMessage* send = nullptr;
  char* send_base = nullptr;
  const RoundMessage* recv = nullptr;
  char* recv_base = nullptr;
  int to = MPI_PROC_NULL, from = MPI_PROC_NULL;
};

// stream_round for the m ports ports[0 .. m - 1] at once, each port's send and receive cut into
// parts alike (the peers must be distinct, each port's messages their own stream): the
// receiver's window plan.in_flight shared out among the ports (ceil(in_flight / m) receives
// posted ahead on each, at least 1), so that the round keeps about as many of a rank's parts on
// their way as one stream does; sends max(2 that, ceil(64 / m)) ahead on each port. While sends
// remain to be posted, the oldest part of each side of every port is waited for at once
// (MPI_Waitany); then the oldest receive of every port, then the oldest send. arrived(j, lo, hi)
// as stream_round's, for port j. With m = 1 it makes stream_round's calls, in its order. With a
// plan not streamed each message goes whole: every port's receive posted, then every send
// (eager), then all awaited at once (MPI_Waitall); arrived(j, 0, elements) once all have.
void stream_ports_round(const StreamPort* ports, int m, MPI_Datatype element, const TypeInfo& type,
                        const StreamPlan& plan, int tag, MPI_Comm c,
                        const std::function<void(int, std::int64_t, std::int64_t)>& arrived = {});

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ROUND_STREAM_H_
