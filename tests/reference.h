// Obviously-right references that the schedule constructions are tested against: linear-time
// or brute-force, simulating data movement round by round with explicit per-rank state.
#ifndef ROSCHED_TESTS_REFERENCE_H_
#define ROSCHED_TESTS_REFERENCE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sched/circulant/phase_schedule.h"
#include "sched/circulant/skips.h"

namespace rosched_test {

// The set of baseblocks in the cyclic range [a, b] by looking at every rank (root = q), given
// all baseblocks (rosched::all_baseblocks, the first phase run literally), as a bit mask.
std::uint64_t brute_rangeblocks(const std::vector<std::int8_t>& baseblocks, std::int64_t a,
                                std::int64_t b);

// The conditions one rank's schedule must meet on its own, checked literally: its receive
// schedule holds its baseblock once and q - 1 distinct blocks of [-q, -1] other than the own
// previous-phase baseblock; each send[k] (unless to the root) is the own previous-phase
// baseblock or a block received in an earlier round. Returns "" or what is wrong.
std::string rank_conditions(const rosched::Skips& s, std::int64_t r,
                            const rosched::RankSchedule& sched);

// Regular all-gather (Algorithm 7) with explicit per-rank buffers of contribution ids.
std::string simulate_allgather(std::int64_t p);

// Census (Algorithm 8) with per-rank partial results as contribution-count vectors: at the end
// every rank's result counts every contribution exactly once.
std::string simulate_census(std::int64_t p);

// Reduce-scatter (Algorithm 7 backwards) with, for every rank and block, the partial result as
// a vector of how often it counts each contribution, as the MPI code handles buffers: a send
// copies (the sender's buffer keeps what it sent), a receive adds. At the end rank r's block r
// must count every contribution exactly once. O(p^3) time, O(p^3) bytes.
std::string simulate_reduce_scatter(std::int64_t p);

}  // namespace rosched_test

#endif  // ROSCHED_TESTS_REFERENCE_H_
