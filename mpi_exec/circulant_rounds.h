// Träff 2022's regular all-gather (Alg. 7, Sec. 2.3; sched/circulant/allgather_schedule.h) and
// the reduce-scatter that runs it backwards (sched/circulant/reduce_scatter_schedule.h) over the
// ranks of a communicator, on a buffer cut into p blocks, walked round by round
// (circulant_rounds.cc). One walk serves the blocking collectives (Rosched_Allgather,
// Rosched_Reduce_scatter(_block), Rosched_Allreduce_scatter_gather, the node-aware forms) and the
// pipelined multi-lane all-reduce, which keeps the rounds of several walks in flight at once.
#ifndef ROSCHED_MPI_EXEC_CIRCULANT_ROUNDS_H_
#define ROSCHED_MPI_EXEC_CIRCULANT_ROUNDS_H_

#include <mpi.h>

#include <array>
#include <cstdint>
#include <optional>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/round_stream.h"
#include "sched/circulant/skips.h"

namespace rosched::mpi {

class CirculantRounds {
 public:
  enum Kind {
    kAllgather,      // block j of rank j's on entry; every block on return
    kReduceScatter,  // this rank's contribution on entry; block ci.rank reduced over all ranks
                     // on return (the others hold partial results); op commutative
  };
  // The walk of kind over comm on the cut.n elements at base (cut and the buffer outlive the
  // walk); op only for kReduceScatter; messages tagged `tag`.
  CirculantRounds(Kind kind, const CommInfo& comm, char* base, const BlockCut& cut,
                  MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int tag);
  // Only after an error: cancels and frees the round in flight.
  ~CirculantRounds();
  CirculantRounds(const CirculantRounds&) = delete;
  CirculantRounds& operator=(const CirculantRounds&) = delete;

  // Posts the next round's receive and send and returns true, or returns false after the last
  // round. Once both requests of round_requests() are complete (MPI_REQUEST_NULL), end_round
  // combines what came (kReduceScatter).
  bool start_round();
  MPI_Request* round_requests() { return requests_.data(); }
  static constexpr int round_request_count() { return 2; }
  void end_round();

  // Every round, blocking; rounds streamed in parts where the cost model predicts that faster
  // (round_stream.h).
  void run();

 private:
  struct Peers {
    int to, from;
  };
  // Round round_'s peers and blocks (first block and count, mod p, of each message).
  struct RoundBlocks {
    std::int64_t to = 0, from = 0, send_block = 0, send_count = 0, recv_block = 0, recv_count = 0;
  };
  RoundBlocks round_blocks() const;
  // Round round_'s messages (b: round_blocks()) into send_ and recv_ (and what a reduce-scatter
  // combines); moves on.
  Peers next_round(const RoundBlocks& b);
  // Round round_ (b: round_blocks()), its messages streamed by `plan` (a reduce-scatter's parts
  // combined as they come); moves on.
  void stream_next_round(const RoundBlocks& b, const StreamPlan& plan);
  // kReduceScatter: combines elements lo .. hi - 1 of the round's receive into the vector.
  void combine(std::int64_t lo, std::int64_t hi);

  Kind kind_;
  CommInfo comm_;
  char* base_;
  BlockCut cut_;
  MPI_Datatype datatype_;
  TypeInfo type_;
  MPI_Op op_;
  int tag_;
  rosched::Skips skips_;  // a copy: skips_of keeps only the last p asked
  int round_ = 0;         // the next round to post
  std::array<MPI_Request, 2> requests_{MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  CyclicBlocks send_, recv_;  // the round in flight's (their datatypes live as long)
  std::int64_t recv_first_ = 0, recv_got_ = 0;  // kReduceScatter: the blocks received
  std::optional<ScratchBuffer> in_;             // kReduceScatter: the receive buffer
};

// One walk of each kind, blocking: Rosched_Allgather's all-gather (equal blocks), the halves of
// Rosched_Allreduce_scatter_gather, Rosched_Reduce_scatter(_block)'s reduce-scatter.
void circulant_allgather_on(const CommInfo& ci, char* base, const BlockCut& cut,
                            MPI_Datatype datatype, const TypeInfo& type);
void circulant_reduce_scatter_on(const CommInfo& ci, char* acc, const BlockCut& cut,
                                 MPI_Datatype datatype, const TypeInfo& type, MPI_Op op);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_CIRCULANT_ROUNDS_H_
