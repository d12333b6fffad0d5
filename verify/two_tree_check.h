// Verification of the two-tree broadcast and reduction (Träff's lecture notes, "Two (pipelined)
// binary trees"; sched/two_tree.h, sched/two_tree_schedule.h) for one p.
#ifndef ROSCHED_VERIFY_TWO_TREE_CHECK_H_
#define ROSCHED_VERIFY_TWO_TREE_CHECK_H_

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/counterexample.h"

namespace rosched::verify {

using sim::Counterexample;

// The lecture's round count for n blocks: pipelining lemma with k = 2 (ceil(log2(p + 1)) - 1)
// and s = 2 on ceil(n / 2) blocks per tree: k + 2 (ceil(n / 2) - 1). 0 for p = 1.
std::int64_t two_tree_formula_rounds(std::int64_t p, std::int64_t n);

struct TwoTreeStructure {
  std::optional<Counterexample> counterexample;
  std::array<std::int64_t, 2> max_arrival{-1, -1};  // per tree (upper, lower)
  // Rounds the broadcast of n blocks takes (last receive + 1), from the arrivals.
  std::int64_t rounds(std::int64_t p, std::int64_t n) const;
};

// From every rank's two_tree_node(p, root, rank), in O(p log p): each tree spans all ranks, with
// one parent per non-root rank whose node lists it back as a child with the same colour and
// arrival, arrival = next_round(parent's arrival, colour) (so arrivals grow down the tree: no
// cycle), at most two children; a member (not root or relay) is interior in at most one tree;
// the colouring lemma: the two parent edges of a rank differ in colour and so do all edges to
// its children (the root's two included). And the reduction order: every subtree is an interval
// of the combining order (rank order, the root first if it is 0 and last otherwise), joined on
// the side TwoTreeReduceSchedule combines it. With these, a rank receives at most one block and
// sends at most one block per round for every n, and every block reaches every rank once.
TwoTreeStructure check_two_tree_structure(std::int64_t p, std::int64_t root);

// Round-by-round runs of TwoTreeBcastSchedule and TwoTreeReduceSchedule over all ranks
// (verify/round_run.h) for n blocks and this root; also checks that the broadcast's last round
// is the one the structure predicts and within rounds().
std::optional<Counterexample> run_two_tree(std::int64_t p, std::int64_t n, std::int64_t root,
                                           const TwoTreeStructure& structure);

}  // namespace rosched::verify

#endif  // ROSCHED_VERIFY_TWO_TREE_CHECK_H_
