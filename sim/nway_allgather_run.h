// Round-by-round run of the n-port all-gather (sched/nway/nway_allgather.h) over the messages and
// peers the MPI executor (mpi_exec/allgather_nway.cc) uses: every rank's data is the cyclic
// interval of ranks whose contributions it holds, so a contribution sent that the sender lacks,
// one received twice or a gap is caught where it happens.
//
// Checked per round: ports 1, 2, ... in order, at most n; every message non-empty; each send
// meets the receive of its peer on the same port (the peer's `from` is the sender) with the same
// count; the sender holds what it sends at the start of the round (its first `count`
// contributions); what arrives continues the receiver's interval without gap or overlap. At the
// end: rounds = ceil(log_{n+1} p), every rank holds all p contributions once, and each rank sent
// p - 1 contributions. Counterexamples: check "nway-allgather", the rank and round.
#ifndef ROSCHED_SIM_NWAY_ALLGATHER_RUN_H_
#define ROSCHED_SIM_NWAY_ALLGATHER_RUN_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sched/nway/nway_allgather.h"
#include "sim/counterexample.h"

namespace rosched::sim {

// The messages of round i: nway_allgather_round(plan, i), the rounds the MPI executor walks
// (tests pass altered ones).
using NwayAllgatherRoundOf = std::function<std::vector<NwayAllgatherMessage>(int round)>;

// Every rank simulated. O(p n log p).
std::optional<Counterexample> run_nway_allgather(const NwayPlan& plan,
                                                 const NwayAllgatherRoundOf& round_of);
std::optional<Counterexample> run_nway_allgather(const NwayPlan& plan);

// Only the given ranks, each on its own: the rounds are the same relative to every rank, so a
// rank's sender holds, at the start of a round, as many contributions as the rank itself (its
// own first ones); the peers are each checked against the peer's own round. O(ranks n log p).
std::optional<Counterexample> run_nway_allgather_local(const NwayPlan& plan,
                                                       const NwayAllgatherRoundOf& round_of,
                                                       const std::vector<std::int64_t>& ranks);
std::optional<Counterexample> run_nway_allgather_local(const NwayPlan& plan,
                                                       const std::vector<std::int64_t>& ranks);

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_NWAY_ALLGATHER_RUN_H_
