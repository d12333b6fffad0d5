// Round-by-round symbolic runs of any broadcast or reduction schedule description (one
// BcastRound or ReduceRound per rank and round), the descriptions the MPI executors walk.
#ifndef ROSCHED_VERIFY_ROUND_RUN_H_
#define ROSCHED_VERIFY_ROUND_RUN_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "sched/bcast_schedule.h"
#include "sched/two_tree_schedule.h"
#include "verify/counterexample.h"

namespace rosched::verify {

using BcastRoundOf = std::function<BcastRound(std::int64_t rank, std::int64_t round)>;
using ReduceRoundOf = std::function<ReduceRound(std::int64_t rank, std::int64_t round)>;

struct RunResult {
  std::optional<Counterexample> counterexample;
  std::int64_t rounds_used = 0;  // 1 + the last round in which anything moved
};

// Broadcast of n blocks from root over `rounds` rounds. Checks, per round: every send meets the
// matching receive (peer and block) and vice versa, a rank sends only blocks it holds, never
// receives one it holds, the root receives nothing; at the end every rank holds every block.
// Counterexamples carry `check` and `detail`. O(p (n + rounds)).
RunResult run_bcast_rounds(const std::string& check, const std::string& detail, std::int64_t p,
                           std::int64_t n, std::int64_t root, std::int64_t rounds,
                           const BcastRoundOf& round_of);

// Reduction of n blocks to root. Every rank starts with its own contribution to each block,
// at index order(rank) of the combining order (a permutation of 0..p-1). Checks, per round:
// sends and receives match; a rank sends each block once and then neither sends nor receives
// it again; a received partial result (an interval of the order) is adjacent to the receiver's
// on the side recv_before_own names. At the end the root holds, for every block, the interval
// [0, p) and every other rank has sent every block: each contribution combined exactly once,
// in that order.
RunResult run_reduce_rounds(const std::string& check, const std::string& detail, std::int64_t p,
                            std::int64_t n, std::int64_t root, std::int64_t rounds,
                            const ReduceRoundOf& round_of,
                            const std::function<std::int64_t(std::int64_t)>& order);

}  // namespace rosched::verify

#endif  // ROSCHED_VERIFY_ROUND_RUN_H_
