// The k-nomial tree broadcast of one block, binomial for one port (Träff's lecture notes,
// "Binomial tree broadcast" and "Final remark: binomial and k-nomial trees"): the k-nomial tree
// reduction (knomial_reduce.h) run backwards. With n ports the root sends the whole message to n
// children at once, and every rank that has it does the same at each level below the one it
// received at: L = ceil(log_{n+1} p) levels, which no broadcast of an indivisible message over
// n ports can beat (each level at most multiplies by n + 1 the ranks that hold it). Against the
// k-ary tree of one block (sched/kary/, degree n: about log_n p levels) one level fewer for many
// p, because a rank keeps sending at every level below its own, not only once.
//
// Over virtual ranks v = (rank - root) mod p, radix r = n + 1, at level j = L - 1, ..., 1, 0
// with stride s = r^j: a rank whose base-r digits 0..j are all 0 sends the message to
// v + i s for i = n, ..., 1 (those < p); a rank whose digits below j are 0 and whose digit j is
// d >= 1 receives it from v - d s at that level. The description has one transfer per rank and
// round (sched/round.h): level j is the rounds (L - 1 - j) n .. (L - 1 - j) n + n - 1, the send
// to v + i s in round (L - 1 - j) n + n - i: rounds() = n L. An executor keeps at least n rounds
// in flight, so a level's n sends leave at once. O(1) per round and rank, O(log p) to set up.
#ifndef ROSCHED_SCHED_KNOMIAL_KNOMIAL_BCAST_H_
#define ROSCHED_SCHED_KNOMIAL_KNOMIAL_BCAST_H_

#include "sched/knomial/knomial_reduce.h"
#include "sched/round.h"

namespace rosched {

// KnomialBcastSchedule(p, ports, rank, root): throws std::invalid_argument unless
// 1 <= p <= 2^31 - 1, 1 <= ports <= kMaxKnomialPorts and 0 <= rank, root < p. n() = 1;
// forward().levels() is L, forward().parent() the rank this one receives from (-1 for the
// root).
using KnomialBcastSchedule = Backwards<KnomialReduceSchedule>;

}  // namespace rosched

#endif  // ROSCHED_SCHED_KNOMIAL_KNOMIAL_BCAST_H_
