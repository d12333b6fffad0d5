// Round-by-round run of Bin Jia's hypercube broadcast with cooperating pairs (Jia 2009, as in
// Träff's lecture "Advanced MPI implementations: Collectives"; sched/hypercube/) over every
// rank's HypercubeBcastSchedule.
#ifndef ROSCHED_SIM_HYPERCUBE_RUN_H_
#define ROSCHED_SIM_HYPERCUBE_RUN_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "sched/hypercube/hypercube.h"
#include "sim/counterexample.h"

namespace rosched::sim {

// Every rank's HypercubeRank(p, x), x = 0..p-1 (built once, reused for each n and root).
std::vector<HypercubeRank> hypercube_virtual_ranks(std::int64_t p);

// run_bcast_rounds (sim/round_run.h, check "hypercube-run") over HypercubeBcastSchedule of every
// rank for n blocks from root; also the lecture's proposition for pairs: before round j the in
// processor holds block j - q - 1 and the out processor block s(rep, j) (when >= 0, clamped to
// n - 1); and the last transfer happens in round n - 2 + ceil(log2 p), so the broadcast takes
// exactly n - 1 + ceil(log2 p) rounds. O(p (n / 64 + q + n)).
std::optional<Counterexample> run_hypercube(const std::vector<HypercubeRank>& virtual_ranks,
                                            std::int64_t n, std::int64_t root);
std::optional<Counterexample> run_hypercube(std::int64_t p, std::int64_t n, std::int64_t root);

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_HYPERCUBE_RUN_H_
