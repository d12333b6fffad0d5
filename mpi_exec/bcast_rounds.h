// What the pipelined broadcasts share: their argument checks and the walk over a schedule
// description (BcastSchedule, TwoTreeBcastSchedule, HypercubeBcastSchedule: rounds() and
// round(i) giving at most one block to send and one to receive), one MPI_Sendrecv per round.
#ifndef ROSCHED_MPI_EXEC_BCAST_ROUNDS_H_
#define ROSCHED_MPI_EXEC_BCAST_ROUNDS_H_

#include <mpi.h>

#include <cstdint>

#include "mpi_exec/args.h"
#include "mpi_exec/block_count.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"
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

// Runs the rounds of schedule over buffer (count elements of datatype, n = schedule.n()
// blocks) on communicator c.
template <typename Schedule>
void walk_bcast(const Schedule& schedule, void* buffer, int count, MPI_Datatype datatype,
                MPI_Aint extent, MPI_Comm c) {
  for (std::int64_t i = 0; i < schedule.rounds(); ++i) {
    const BcastRound round = schedule.round(i);
    if (!round.send && !round.recv) continue;
    BlockSpan send{static_cast<char*>(buffer), 0}, recv{static_cast<char*>(buffer), 0};
    int to = MPI_PROC_NULL, from = MPI_PROC_NULL;
    if (round.send) {
      send = block_span(buffer, round.send->block, count, schedule.n(), extent);
      to = static_cast<int>(round.send->peer);
    }
    if (round.recv) {
      recv = block_span(buffer, round.recv->block, count, schedule.n(), extent);
      from = static_cast<int>(round.recv->peer);
    }
    check(MPI_Sendrecv(send.at, send.count, datatype, to, tag::kBcastRound, recv.at, recv.count,
                       datatype, from, tag::kBcastRound, c, MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
  }
}

// A whole MPI_Bcast over the schedule family Schedule, built as Schedule(p, n, rank, root):
// MPI_Bcast's argument checks, the block count (block_count with the family's factor), the
// walk on the communicator's private duplicate, and errors to the communicator's error handler
// under the name `name`. factor is a Settings member: read at the call, once per process.
template <typename Schedule>
int pipelined_bcast(const char* name, double Settings::*factor, void* buffer, int count,
                    MPI_Datatype datatype, int root, MPI_Comm comm) {
  return run_collective(name, comm, [&](const CommInfo& ci) {
    const TypeInfo type = check_bcast_args(ci, count, datatype, root);
    if (ci.p == 1 || count == 0 || type.size == 0) return;
    const std::int64_t n = block_count(static_cast<double>(count) * type.size, ci.p,
                                       settings().*factor, count);
    walk_bcast(Schedule(ci.p, n, ci.rank, root), buffer, count, datatype, type.extent, ci.c);
  });
}

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_BCAST_ROUNDS_H_
