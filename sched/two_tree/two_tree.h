// The two trees of the two-tree broadcast and reduction (Sanders, Speck, Träff 2009), as
// presented in Träff's lecture notes, "Two (pipelined) binary trees" through `EdgeColor`.
//
// Ranks other than the root are laid out in rank order at positions 1..n (n = p - 1). The trees
// use the first N positions, N = n rounded down to even; if n is odd, the rank at position n is
// set aside as a relay (the lecture's "virtual root").
//
//   upper tree: the in-order binary tree over positions 1..N; its root is the largest power of
//               two <= N, a node x with lowest set bit H > 1 has the left child x - H/2 and the
//               right child x + h for the largest h in {H/2, H/4, .., 1} with x + h <= N.
//               Odd positions are the leaves, even positions the interior nodes.
//   lower tree: the mirror: the rank at upper position x sits at lower position N + 1 - x.
//               N is even, so every rank is interior in exactly one of the two trees.
//
//          8                      p = 11, root 0: positions 1..10 are ranks 1..10,
//        /   \                    upper tree on the left (rank = position);
//       4     10                  in the lower tree rank r sits at position 11 - r.
//      / \    /
//     2   6  9
//    / \ / \   (leaves: odd positions)
//   1  3 5  7
//
// Edge colours are round parities: the edge into a node is used in rounds of its colour.
// `edge_color` is the lecture's EdgeColor(N, root, v, 1) for interior positions v. A leaf
// position x gets the colour of its mirror position N + 1 - x (an interior one), and the lower
// tree is coloured as the complement of the upper one. Then (checked for every p <= 100,000 by
// verify --family twotree, and by the tests) the two parent edges of a rank differ, the edges
// to a node's two children differ, and the two edges out of the root differ (upper 1, lower 0).
// (Colouring the lower tree with the same colours instead gives both tree roots colour 1, so
// the root could not feed them in alternate rounds.)
//
// Timing: the root sends in every round, to the two trees alternately. A rank first receives a
// tree's blocks in its `arrival` round: the first round after its parent's arrival that has
// the colour of its parent edge (the root's arrival is -1); from then on one block of that tree
// every second round. Everything is O(log p) per rank and O(1) space.
#ifndef ROSCHED_SCHED_TWO_TREE_TWO_TREE_H_
#define ROSCHED_SCHED_TWO_TREE_TWO_TREE_H_

#include <array>
#include <cstdint>

namespace rosched {

inline constexpr std::int64_t kNoRank = -1;

// The in-order tree over positions 1..n (any n >= 1); position 0 stands for "above the root".
std::int64_t in_order_root(std::int64_t n);
std::int64_t in_order_parent(std::int64_t n, std::int64_t x);
struct InOrderChildren {
  std::int64_t left = 0, right = 0;  // 0: no such child
};
InOrderChildren in_order_children(std::int64_t n, std::int64_t x);

// The lecture's EdgeColor(n, in_order_root(n), v, 1), n even, v an interior (even) position.
int edge_color(std::int64_t n, std::int64_t v);
// The colour of the edge into position x of the upper tree (the lower tree's is 1 - it).
int position_colour(std::int64_t n, std::int64_t x);
// The first round after `after` that has parity `colour`.
inline std::int64_t next_round(std::int64_t after, int colour) {
  return after + 1 + ((after + 1 + colour) & 1);
}

enum class TreeId : int { upper = 0, lower = 1 };

struct TreeLink {
  std::int64_t rank = kNoRank;  // kNoRank: no such neighbour
  int colour = 0;               // parity of the rounds this edge is used in
  std::int64_t arrival = 0;     // the child's (or this rank's) first receiving round
};

// One rank's place in one tree.
struct TreePlace {
  TreeLink parent;                   // for the root: rank kNoRank, arrival -1
  std::array<TreeLink, 2> children;  // in rank order; absent ones have rank kNoRank
  int child_count = 0;
};

enum class TwoTreeRole : int { root, relay, member };

struct TwoTreeNode {
  std::int64_t p = 1, root = 0, rank = 0;
  TwoTreeRole role = TwoTreeRole::root;
  std::array<TreePlace, 2> tree;  // indexed by TreeId
  const TreePlace& in(TreeId t) const { return tree[static_cast<int>(t)]; }
};

// Throws std::invalid_argument unless 1 <= p <= 2^31 - 1 and 0 <= root, rank < p.
TwoTreeNode two_tree_node(std::int64_t p, std::int64_t root, std::int64_t rank);

// The parity of the blocks a tree carries: those b with b % 2 == tree_block_parity(p, root, t)
// (the colour of the root's edge into that tree).
int tree_block_parity(std::int64_t p, TreeId t);

// Height bound: every arrival round is at most this (the same for all ranks of p).
std::int64_t max_arrival_bound(std::int64_t p);

}  // namespace rosched

#endif  // ROSCHED_SCHED_TWO_TREE_TWO_TREE_H_
