// The n-block reduction to a root over the circulant graph: the broadcast of Träff 2022, Alg. 6
// (bcast_schedule.h) run backwards, as Träff 2024 runs broadcast schedules backwards for
// reductions. Round i of the reduction is round n - 2 + q - i of the broadcast with send and
// receive exchanged (sched/round.h, reversed): each rank sends the partial result of a block to
// the rank it received that block from in the broadcast, after it has combined the partial
// results of every rank it sent the block to. So it takes the broadcast's optimal n - 1 + q
// rounds, and per round every rank sends at most one block and receives at most one.
//
// A block's transfers form the broadcast's spanning tree of that block, which is not a range of
// ranks: partial results are combined out of rank order, so the reduction is for commutative
// operations (recv_before_own is false in every round). The two-tree reduction
// (sched/two_tree/two_tree_schedule.h) keeps rank order, in about 2 log2 p more rounds.
#ifndef ROSCHED_SCHED_CIRCULANT_REDUCE_SCHEDULE_H_
#define ROSCHED_SCHED_CIRCULANT_REDUCE_SCHEDULE_H_

#include <cstdint>

#include "sched/circulant/bcast_schedule.h"
#include "sched/round.h"

namespace rosched {

// ReduceSchedule(p, n, rank, root[, construction]) or ReduceSchedule(skips, n, rank, root,
// virtual_rank_schedule), as BcastSchedule: p(), n(), rank(), root(), rounds() = n - 1 + q
// (0 for p = 1), round(i) (std::out_of_range outside [0, rounds())). Bad arguments throw
// BcastSchedule's std::invalid_argument.
using ReduceSchedule = Backwards<BcastSchedule>;

}  // namespace rosched

#endif  // ROSCHED_SCHED_CIRCULANT_REDUCE_SCHEDULE_H_
