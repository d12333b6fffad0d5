// The node numbering of mpi_exec/node_layout.h (number_nodes) against a reference that reads
// the definition literally: nodes numbered in the order of their lowest rank, a rank's node rank
// the number of lower ranks on its node, nodes consecutive when no rank of another node lies
// between two ranks of one node.
#include "mpi_exec/node_layout.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

namespace rosched::mpi {
namespace {

NodeNumbers reference(const std::vector<int>& key_of) {
  const int p = static_cast<int>(key_of.size());
  NodeNumbers out;
  out.number_of.assign(p, 0);
  out.node_rank_of.assign(p, 0);
  std::vector<int> sizes;
  for (int r = 0; r < p; ++r) {
    std::set<int> earlier_nodes;  // keys whose lowest rank is below the lowest rank of r's node
    int lowest = r;
    for (int s = 0; s < r; ++s) {
      if (key_of[s] == key_of[r]) {
        ++out.node_rank_of[r];
        lowest = std::min(lowest, s);
      }
    }
    for (int s = 0; s < lowest; ++s) earlier_nodes.insert(key_of[s]);
    out.number_of[r] = static_cast<int>(earlier_nodes.size());
  }
  // Consecutive: for every node, its ranks are exactly lowest .. lowest + size - 1.
  for (int r = 0; r < p; ++r) {
    for (int s = r + 1; s < p; ++s) {
      for (int t = r + 1; t < s; ++t) {
        if (key_of[r] == key_of[s] && key_of[t] != key_of[r]) out.consecutive = false;
      }
    }
  }
  const std::set<int> keys(key_of.begin(), key_of.end());
  out.nodes = static_cast<int>(keys.size());
  for (int k : keys) sizes.push_back(static_cast<int>(std::count(key_of.begin(), key_of.end(), k)));
  if (!sizes.empty()) {
    out.min_node_size = *std::min_element(sizes.begin(), sizes.end());
    out.max_node_size = *std::max_element(sizes.begin(), sizes.end());
  }
  return out;
}

RC_GTEST_PROP(NodeLayout, NumbersMatchTheDefinition, ()) {
  const int p = *rc::gen::inRange(1, 200);
  const int key_range = *rc::gen::inRange(1, p + 1);
  const auto key_of = *rc::gen::container<std::vector<int>>(
      static_cast<std::size_t>(p), rc::gen::inRange(0, key_range));
  const NodeNumbers got = number_nodes(key_of), want = reference(key_of);
  RC_ASSERT(got.nodes == want.nodes);
  RC_ASSERT(got.min_node_size == want.min_node_size);
  RC_ASSERT(got.max_node_size == want.max_node_size);
  RC_ASSERT(got.consecutive == want.consecutive);
  RC_ASSERT(got.number_of == want.number_of);
  RC_ASSERT(got.node_rank_of == want.node_rank_of);
}

// Consecutive blocks of k ranks (ROSCHED_NODE_SIZE = k), with a short last node: every node rank
// below the last node's size exists on every node, so those lanes reach every node.
TEST(NodeLayout, ConsecutiveBlocks) {
  std::vector<int> key_of;
  for (int r = 0; r < 7; ++r) key_of.push_back(r / 3 * 3);
  const NodeNumbers n = number_nodes(key_of);
  EXPECT_EQ(n.nodes, 3);
  EXPECT_EQ(n.min_node_size, 1);
  EXPECT_EQ(n.max_node_size, 3);
  EXPECT_EQ(n.number_of, (std::vector<int>{0, 0, 0, 1, 1, 1, 2}));
  EXPECT_EQ(n.node_rank_of, (std::vector<int>{0, 1, 2, 0, 1, 2, 0}));
  EXPECT_TRUE(n.consecutive);
}

// Ranks placed round-robin over nodes (rank r on node r mod 3).
TEST(NodeLayout, RoundRobin) {
  const std::vector<int> key_of = {0, 1, 2, 0, 1, 2, 0, 1};
  const NodeNumbers n = number_nodes(key_of);
  EXPECT_EQ(n.nodes, 3);
  EXPECT_EQ(n.min_node_size, 2);
  EXPECT_EQ(n.max_node_size, 3);
  EXPECT_EQ(n.number_of, (std::vector<int>{0, 1, 2, 0, 1, 2, 0, 1}));
  EXPECT_EQ(n.node_rank_of, (std::vector<int>{0, 0, 0, 1, 1, 1, 2, 2}));
  EXPECT_FALSE(n.consecutive);
}

}  // namespace
}  // namespace rosched::mpi
