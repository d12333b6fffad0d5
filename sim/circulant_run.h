// Round-by-round symbolic runs of the n-block broadcast (Algorithm 6 of Träff 2022) and of the
// reduction that runs it backwards, over every rank's BcastSchedule and ReduceSchedule, the
// descriptions the MPI executors walk.
#ifndef ROSCHED_SIM_CIRCULANT_RUN_H_
#define ROSCHED_SIM_CIRCULANT_RUN_H_

#include <cstdint>
#include <optional>

#include "sched/circulant/full_schedule.h"
#include "sim/counterexample.h"

namespace rosched::sim {

// Runs the broadcast of n blocks from root with every rank's schedule taken from f (virtual
// ranks). Checks, per round: every send meets the matching receive (peer and block), a rank
// sends only blocks it holds, never receives a block it holds, and the root receives nothing;
// at the end every rank holds every block, after exactly n - 1 + q rounds. O(p (n + q)).
std::optional<Counterexample> run_bcast(const FullSchedule& f, std::int64_t n, std::int64_t root);

// Runs the n-block reduction to root (the broadcast backwards, sched/circulant/reduce_schedule.h)
// over every rank's ReduceSchedule from f, through run_reduce_rounds without an order (check
// "reduction-run"): sends meet receives, every rank but the root sends each block's partial
// result once, after every receive of it, and the root ends with all p contributions of every
// block, each once.
std::optional<Counterexample> run_reduce(const FullSchedule& f, std::int64_t n, std::int64_t root);

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_CIRCULANT_RUN_H_
