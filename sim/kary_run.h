// Round-by-round runs of the pipelined k-ary tree broadcast (Träff's lecture notes, fixed-degree
// trees; sched/kary/) over every rank's KaryTreeBcastSchedule, against references that walk the
// tree rank by rank, and of the reduction that runs it backwards (KaryTreeReduceSchedule).
#ifndef ROSCHED_SIM_KARY_RUN_H_
#define ROSCHED_SIM_KARY_RUN_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/counterexample.h"

namespace rosched::sim {

// start(v) of every virtual rank v < p of the k-ary tree, rank by rank: start(0) = 0 and
// start(v) = start((v - 1) / k) + (v - 1) mod k + 1. O(p).
std::vector<std::int64_t> kary_starts_reference(std::int64_t p, std::int64_t k);

// The largest of kary_starts_reference(p, k), O(p) and O(1) memory: what kary_max_start must
// equal.
std::int64_t kary_max_start_reference(std::int64_t p, std::int64_t k);

// run_bcast_rounds (sim/round_run.h, check "kary-run") over KaryTreeBcastSchedule of every rank
// for n blocks from root with degree k; also every rank's parent, children and start() against
// the references above (kind "tree"), rounds() = (n - 1) k + the largest start, and the last
// transfer in round rounds() - 1 (kind "round-count"). O(p (n / 64 + rounds)).
std::optional<Counterexample> run_kary_tree(std::int64_t p, std::int64_t n, std::int64_t root,
                                            std::int64_t k);

// run_reduce_rounds (sim/round_run.h, check "kary-reduction-run", the commutative check) over
// KaryTreeReduceSchedule of every rank for n blocks into root with degree k: every rank's
// contribution to every block combined exactly once at the root, each partial result sent after
// the rank holds all of its subtree, in the broadcast's rounds (kind "round-count" otherwise).
// O(p (n + rounds)).
std::optional<Counterexample> run_kary_tree_reduce(std::int64_t p, std::int64_t n,
                                                   std::int64_t root, std::int64_t k);

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_KARY_RUN_H_
