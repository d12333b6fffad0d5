// Round-by-round run of the n-port reduce-scatter (sched/nway/nway_reduce_scatter.h) over the
// messages and peers the MPI executor (mpi_exec/reduce_scatter_nway.cc) uses. The rounds are the
// same relative to every rank, so every rank's partial result of its offset t covers the
// contributions of ranks r - x for x in one set D_t of distances, the same for every rank r; the
// run keeps D_t for every offset held, as a list of intervals, and so checks all ranks at once.
//
// Checked per round: ports 1, 2, ... in order, at most n; every message non-empty; each send
// meets the receive of its peer on the same port with the same count; the sender holds the
// offsets it sends at the round's start; what arrives is combined into offsets the receiver
// holds, never with a contribution already in them; the offsets given up are those sent, each
// once, and the rest [0, s) are kept, s the all-gather's amount held before its mirrored round.
// At the end: rounds = ceil(log_{n+1} p), a rank holds offset 0 alone, combined over all p
// ranks once each, and each rank sent p - 1 blocks. Counterexamples: check
// "nway-reduce-scatter", rank 0 (every rank is the same), the round.
#ifndef ROSCHED_SIM_NWAY_REDUCE_SCATTER_RUN_H_
#define ROSCHED_SIM_NWAY_REDUCE_SCATTER_RUN_H_

#include <optional>

#include "sched/nway/nway_reduce_scatter.h"
#include "sim/counterexample.h"
#include "sim/nway_allgather_run.h"

namespace rosched::sim {

// The rounds of round_of (nway_reduce_scatter_round(plan, j), the rounds the MPI executor walks;
// tests pass altered ones). O(p n log p) intervals for this construction (more where a
// construction scatters the distances).
std::optional<Counterexample> run_nway_reduce_scatter(const NwayPlan& plan,
                                                      const NwayAllgatherRoundOf& round_of);
std::optional<Counterexample> run_nway_reduce_scatter(const NwayPlan& plan);

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_NWAY_REDUCE_SCATTER_RUN_H_
