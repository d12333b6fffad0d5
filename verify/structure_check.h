// Checks of the first-phase structure and of the all-gather and census rounds for one p.
// Each returns the first counterexample or nothing.
#ifndef ROSCHED_VERIFY_STRUCTURE_CHECK_H_
#define ROSCHED_VERIFY_STRUCTURE_CHECK_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "sched/circulant/skips.h"
#include "sim/counterexample.h"

namespace rosched::verify {

using sim::Counterexample;

// baseblock(r) (Algorithm 2) of every rank against the first phase run literally (bb, from
// all_baseblocks). O(p log p).
std::optional<Counterexample> check_baseblocks(const Skips& s, const std::vector<std::int8_t>& bb);

// baseblock(r) of `samples` ranks spread evenly over [0, p) (all ranks if samples >= p).
std::optional<Counterexample> check_baseblocks_sampled(const Skips& s,
                                                       const std::vector<std::int8_t>& bb,
                                                       std::int64_t samples);

// The range lengths the receive-schedule construction asks RANGEBLOCKS about:
// skips[k+1] - skips[k], skips[0] + ... + skips[k] (up to p), and p.
std::vector<std::int64_t> rangeblock_lengths(const Skips& s);

// rangeblocks (Algorithm 3) at every start of every length of rangeblock_lengths(), against a
// sliding window over bb. O(p log^2 p).
std::optional<Counterexample> check_rangeblocks(const Skips& s, const std::vector<std::int8_t>& bb);

// The same at `samples` starts per length spread evenly over [0, p), against the positions of
// each block in bb (a block is in a range iff one of its ranks is). O(p + samples log^3 p).
std::optional<Counterexample> check_rangeblocks_sampled(const Skips& s,
                                                        const std::vector<std::int8_t>& bb,
                                                        std::int64_t samples);

// All-gather rounds (Algorithm 7) of every rank, with each rank's data as the interval of
// contributions it holds: in round k a rank sends only what it holds, the receiver expects
// exactly that, it arrives contiguously after what the receiver holds, and after q rounds every
// rank holds all p contributions, each once. O(p log p).
std::optional<Counterexample> check_allgather(const Skips& s);

// Census rounds (Algorithm 8) of every rank, with each partial result as the interval of
// contributions it combines: every received partial result continues the receiver's interval
// without gap or overlap, and at the end every rank combines all p contributions, each once.
// O(p log p).
std::optional<Counterexample> check_census(const Skips& s);

// Reduce-scatter rounds (Algorithm 7 run backwards, sched/circulant/reduce_scatter_schedule.h)
// of every rank, with each partial result as the number of contributions it combines: every
// rank does in each round what rank 0 does, relative to its rank (checked; so one rank's
// counts stand for all), the sender's `to` is the receiver and the blocks match, a rank sends
// only partial results it still holds and gives them up (never sends or combines into one
// again), and after q rounds every rank holds block r alone, combining all p contributions.
// As partial results only move, never copy, that is each contribution exactly once. O(p log p).
std::optional<Counterexample> check_reduce_scatter(const Skips& s);

}  // namespace rosched::verify

#endif  // ROSCHED_VERIFY_STRUCTURE_CHECK_H_
