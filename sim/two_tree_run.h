// Round-by-round runs of the two-tree broadcast and reduction (Sanders, Speck, Träff 2009;
// sched/two_tree/two_tree_schedule.h) over every rank's schedule description.
#ifndef ROSCHED_SIM_TWO_TREE_RUN_H_
#define ROSCHED_SIM_TWO_TREE_RUN_H_

#include <cstdint>

#include "sim/round_run.h"

namespace rosched::sim {

// The combining order of the two-tree reduction: the index of rank in it (rank order, the root
// first if it is 0 and last otherwise).
std::int64_t two_tree_order(std::int64_t p, std::int64_t root, std::int64_t rank);

// TwoTreeBcastSchedule and then TwoTreeReduceSchedule of every rank for n blocks from root,
// through run_bcast_rounds and run_reduce_rounds (checks "two-tree-bcast-run" and
// "two-tree-reduce-run"). rounds_used is the broadcast's.
RunResult run_two_tree(std::int64_t p, std::int64_t n, std::int64_t root);

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_TWO_TREE_RUN_H_
