// Obviously-right references that the schedule constructions are tested against: linear-time
// or brute-force, simulating data movement round by round with explicit per-rank state.
#ifndef ROSCHED_TESTS_REFERENCE_H_
#define ROSCHED_TESTS_REFERENCE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sched/phase_schedule.h"

namespace rosched_test {

// Baseblocks of all ranks by running the first phase literally: in round i the root sends
// block i to rank skips[i], and every rank 1 <= r < skips[i] passes its baseblock on to
// r + skips[i] if that is below skips[i+1]. Entry 0 (the root) is q. O(p).
std::vector<int> first_phase_baseblocks(std::int64_t p);

// The set of baseblocks in the cyclic range [a, b] by looking at every rank (root = q),
// as a bit mask. O(range length).
std::uint64_t brute_rangeblocks(const std::vector<int>& baseblocks, std::int64_t a,
                                std::int64_t b);

// Round-by-round n-block broadcast from `root` over the BcastSchedule of every rank: each send
// must meet the matching receive, a rank sends only blocks it holds, never receives a block
// twice, and at the end every rank holds blocks 0..n-1. Returns "" or the first failure.
std::string simulate_bcast(std::int64_t p, std::int64_t n, std::int64_t root,
                           rosched::Construction c = rosched::Construction::paper);

// Regular all-gather (Algorithm 7) with explicit per-rank buffers of contribution ids.
std::string simulate_allgather(std::int64_t p);

// Census (Algorithm 8) with per-rank partial results as contribution-count vectors: at the end
// every rank's result counts every contribution exactly once.
std::string simulate_census(std::int64_t p);

}  // namespace rosched_test

#endif  // ROSCHED_TESTS_REFERENCE_H_
