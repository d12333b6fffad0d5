// Reduce-scatter over the circulant graph: Algorithm 7 of Träff 2022 (Sec. 2.3), the regular
// all-gather, run backwards (as Träff 2024, "Optimal Broadcast Schedules in Logarithmic Time
// with Applications to Broadcast, All-Broadcast, Reduction and All-Reduction", runs broadcast
// schedules backwards for reductions).
//
// Rank r keeps partial results of blocks r, r+1, ... (mod p), block r + j at offset j. Before
// round j it holds partial results for offsets 0 .. skips[k+1] - 1, k = q - 1 - j; in round j
// it sends those of offsets skips[k] .. skips[k+1] - 1 to (r + skips[k]) mod p and gives them
// up, and receives from (r - skips[k]) mod p that rank's partial results of the same blocks,
// which are its own offsets 0 .. skips[k+1] - skips[k] - 1, and combines them into its own.
// After the q rounds it holds offset 0 alone: block r, combined over all p ranks, each once
// (every block's partial result moves along the all-gather's paths in reverse). p - 1 blocks
// sent per rank in all, as in the all-gather; with the all-gather after it, an all-reduce in
// 2 q rounds that sends 2 (p - 1) blocks of m / p per rank.
#ifndef ROSCHED_SCHED_CIRCULANT_REDUCE_SCATTER_SCHEDULE_H_
#define ROSCHED_SCHED_CIRCULANT_REDUCE_SCATTER_SCHEDULE_H_

#include <cstdint>

#include "sched/circulant/allgather_schedule.h"
#include "sched/circulant/skips.h"

namespace rosched {

// Offsets relative to the rank, as in AllgatherRound: offset j means block (r + j) mod p. The
// received partial results are combined into the receiver's at recv_offset .. + recv_count - 1.
using ReduceScatterRound = AllgatherRound;

// Round j (0 <= j < q) of rank r: all-gather round q - 1 - j with sender and receiver swapped.
// Throws std::invalid_argument / std::out_of_range otherwise.
inline ReduceScatterRound reduce_scatter_round(const Skips& s, std::int64_t r, int j) {
  check_round(s, j);
  const AllgatherRound g = allgather_round(s, r, s.q() - 1 - j);
  return {g.from, g.to, g.recv_offset, g.recv_count, g.send_offset, g.send_count};
}

}  // namespace rosched

#endif  // ROSCHED_SCHED_CIRCULANT_REDUCE_SCATTER_SCHEDULE_H_
