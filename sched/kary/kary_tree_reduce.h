// The pipelined reduction over a complete k-ary tree: the broadcast of kary_tree_schedule.h
// (Träff's lecture notes, "The power of fixed-degree trees" and "Pipelined binary tree") run
// backwards, as the circulant reduction runs Träff 2022's Alg. 6 (sched/round.h, Backwards).
// Round i is the broadcast's round rounds() - 1 - i with send and receive exchanged: a rank
// receives the partial results of block b from its children c = k - 1 .. 0 in consecutive
// rounds, then sends its own partial result of b to its parent, so the rank forwards a block one
// round after its last child's arrives, as the broadcast's did. Same rounds as the broadcast,
// (n - 1) k + max start(v).
//
// A rank's subtree in BFS naming is not a range of ranks, so partial results are combined out of
// rank order: commutative operations only (recv_before_own is false in every round).
#ifndef ROSCHED_SCHED_KARY_KARY_TREE_REDUCE_H_
#define ROSCHED_SCHED_KARY_KARY_TREE_REDUCE_H_

#include "sched/kary/kary_tree_schedule.h"
#include "sched/round.h"

namespace rosched {

// KaryTreeReduceSchedule(p, n, rank, root, k): p(), n(), rank(), root(), rounds() as the
// broadcast's, round(i) a ReduceRound (std::out_of_range outside [0, rounds())); forward() is
// the broadcast it runs backwards (its parent(), children(), start()). Bad arguments throw the
// broadcast's std::invalid_argument.
using KaryTreeReduceSchedule = Backwards<KaryTreeBcastSchedule>;

}  // namespace rosched

#endif  // ROSCHED_SCHED_KARY_KARY_TREE_REDUCE_H_
