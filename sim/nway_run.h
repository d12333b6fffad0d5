// Round-by-round run of the n-way dissemination allreduce (End et al. 2015; sched/nway/) over
// the rounds the MPI executor walks: every rank's accumulators are intervals of ranks (cyclic,
// as for the census), so a contribution counted twice or missed is caught where it happens.
//
// Checked per round: ports 1..n and peers in range, each port used once per rank and direction;
// every send meets the receive with the same peer, port and number of vectors, and vice versa;
// a sent vector is non-empty, its accumulators combine to one interval, equal to the range the
// schedule names; the receiver names the same range (shifted to its offsets); every fold joins
// two adjacent, disjoint intervals. At the end: rounds = ceil(log_{n+1} P), every rank's result
// covers all P contributions once, and each rank sent `messages` messages.
// Counterexamples: check "nway-run", the rank and round where it went wrong.
#ifndef ROSCHED_SIM_NWAY_RUN_H_
#define ROSCHED_SIM_NWAY_RUN_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sched/nway/nway_schedule.h"
#include "sim/counterexample.h"

namespace rosched::sim {

using NwayRoundOf = std::function<NwayRound(std::int64_t rank, int round)>;

// round_of(rank, i) = NwaySchedule(plan, rank).round(i), the rounds the MPI executor walks.
NwayRoundOf nway_round_of(const NwayPlan& plan);

// Messages per rank the rule promises: n(k-1) + ceil(P/W) - 1, or n(k-1) + s for paper.
std::int64_t nway_expected_messages(const NwayPlan& plan);

// Every rank simulated. O(P n log P).
std::optional<Counterexample> run_nway(const NwayPlan& plan, const NwayRoundOf& round_of);
std::optional<Counterexample> run_nway(const NwayPlan& plan);

// Only the given ranks simulated, each on its own, taking every other rank's accumulators to be
// its own shifted by the distance (the schedule is the same relative to every rank): the check
// for large P. Sends are still taken from each sender's own round. O(ranks n^2 log P).
std::optional<Counterexample> run_nway_local(const NwayPlan& plan, const NwayRoundOf& round_of,
                                             const std::vector<std::int64_t>& ranks);

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_NWAY_RUN_H_
