// Round-by-round symbolic run of the n-block broadcast (Algorithm 6 of Träff 2022) over the
// BcastSchedule description of every rank, the description the MPI executor walks.
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

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_CIRCULANT_RUN_H_
