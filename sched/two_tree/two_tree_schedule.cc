// The pipelined two-tree broadcast and its reverse, the reduction: Träff's lecture notes, "Two
// (pipelined) binary trees" (Sanders, Speck, Träff 2009). See two_tree_schedule.h.
#include "sched/two_tree/two_tree_schedule.h"

#include <stdexcept>
#include <string>

namespace rosched {

TwoTreeBcastSchedule::TwoTreeBcastSchedule(std::int64_t p, std::int64_t n, std::int64_t rank,
                                           std::int64_t root)
    : node_(two_tree_node(p, root, rank)), n_(n) {
  if (n < 1) {
    throw std::invalid_argument("two-tree schedule: block count n = " + std::to_string(n) +
                                " must be at least 1");
  }
  // p = 2: the other rank is the relay, with no tree below it; the root's n sends are all.
  rounds_ = p == 1 ? 0 : p == 2 ? n : max_arrival_bound(p) + 2 * ((n + 1) / 2 - 1) + 1;
}

std::optional<std::int64_t> TwoTreeBcastSchedule::block_at(TreeId t, std::int64_t arrival,
                                                           std::int64_t i) const {
  const std::int64_t parity = tree_block_parity(node_.p, t);
  const std::int64_t blocks = (n_ - parity + 1) / 2;  // b < n with b % 2 == parity
  if (i < arrival || ((i - arrival) & 1) != 0) return std::nullopt;
  const std::int64_t j = (i - arrival) / 2;
  if (j >= blocks) return std::nullopt;
  return 2 * j + parity;
}

BcastRound TwoTreeBcastSchedule::round(std::int64_t i) const {
  check_round(i, rounds_, "two-tree");
  BcastRound r;
  for (const TreeId t : {TreeId::upper, TreeId::lower}) {
    const TreePlace& place = node_.in(t);
    if (!r.recv && place.parent.rank != kNoRank) {
      if (const auto b = block_at(t, place.parent.arrival, i)) r.recv = Transfer{place.parent.rank, *b};
    }
    for (int c = 0; c < place.child_count && !r.send; ++c) {
      const TreeLink& child = place.children[c];
      if (const auto b = block_at(t, child.arrival, i)) r.send = Transfer{child.rank, *b};
    }
  }
  return r;
}

ReduceRound TwoTreeReduceSchedule::round(std::int64_t i) const {
  ReduceRound r = Backwards::round(i);
  if (r.recv) {
    // Subtrees are rank ranges without the root; the root's own value goes first only if it
    // is rank 0.
    r.recv_before_own = rank() == root() ? root() != 0 : r.recv->peer < rank();
  }
  return r;
}

}  // namespace rosched
