// The pipelined two-tree broadcast and reduction (Träff's lecture notes, "Two (pipelined) binary
// trees"; Sanders, Speck, Träff 2009) as schedule descriptions of the same shape as the circulant
// BcastSchedule: per round, at most one block received and at most one block sent.
//
// Broadcast of n blocks: the root sends block b in round b to the tree that carries the blocks
// of b's parity (tree_block_parity), through the relay if p is even. A rank receives the j-th
// block of a tree in round arrival + 2j from its parent there and forwards it to each child in
// the first round of that child's colour after it arrived. Rounds: at most
// max_arrival_bound(p) + 2 (ceil(n/2) - 1) + 1, close to the lecture's pipelining-lemma count
// 2 (ceil(log2(p + 1)) - 1) + 2 (ceil(n/2) - 1); verify --family twotree reports both. For
// p = 2, n rounds: the root's sends to the relay, which has no tree below it (the bound would
// count one round more for odd n, and the pipelines' cost model, which takes the rounds beyond
// n from the one-block instance, would cut a message that one edge carries best whole).
//
// Reduction to the root: the broadcast run backwards (round i of the reduction is round
// rounds() - 1 - i of the broadcast with send and receive exchanged), so each rank sends the
// partial result of a block to its parent after it has combined those of its children. Every
// subtree is a contiguous range of ranks, so combining a child's partial on the side given by
// `recv_before_own` keeps rank order: the result is x_0 op x_1 op ... op x_{p-1} when the root
// is 0 or p - 1 (no commutativity needed); for another root it is the same with x_root moved
// to the end (use it only for commutative operations).
#ifndef ROSCHED_SCHED_TWO_TREE_TWO_TREE_SCHEDULE_H_
#define ROSCHED_SCHED_TWO_TREE_TWO_TREE_SCHEDULE_H_

#include <cstdint>
#include <optional>

#include "sched/round.h"
#include "sched/two_tree/two_tree.h"

namespace rosched {

class TwoTreeBcastSchedule {
 public:
  // Throws std::invalid_argument unless 1 <= p <= 2^31 - 1, 0 <= rank, root < p and n >= 1.
  TwoTreeBcastSchedule(std::int64_t p, std::int64_t n, std::int64_t rank, std::int64_t root);

  std::int64_t p() const { return node_.p; }
  std::int64_t n() const { return n_; }
  std::int64_t rank() const { return node_.rank; }
  std::int64_t root() const { return node_.root; }
  const TwoTreeNode& node() const { return node_; }
  // The same bound for every rank of (p, n); every transfer happens in a round below it.
  std::int64_t rounds() const { return rounds_; }
  // What this rank does in round i, 0 <= i < rounds(); throws std::out_of_range otherwise.
  BcastRound round(std::int64_t i) const;

 private:
  // The block of the tree t that reaches a rank with first arrival `arrival` in round i.
  std::optional<std::int64_t> block_at(TreeId t, std::int64_t arrival, std::int64_t i) const;

  TwoTreeNode node_;
  std::int64_t n_, rounds_;
};

// The broadcast backwards, with the side each partial result is combined on.
class TwoTreeReduceSchedule : public Backwards<TwoTreeBcastSchedule> {
 public:
  // Same preconditions as TwoTreeBcastSchedule.
  TwoTreeReduceSchedule(std::int64_t p, std::int64_t n, std::int64_t rank, std::int64_t root)
      : Backwards(p, n, rank, root) {}
  ReduceRound round(std::int64_t i) const;
};

}  // namespace rosched

#endif  // ROSCHED_SCHED_TWO_TREE_TWO_TREE_SCHEDULE_H_
