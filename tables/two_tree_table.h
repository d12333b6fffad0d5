// The two trees of the two-tree broadcast and reduction (Träff's lecture notes, "Two (pipelined)
// binary trees"; sched/two_tree.h) as a table: one row per rank with its parent, edge colour (round
// parity), first arrival round and children (rank:colour) in the upper and the lower tree.
#ifndef ROSCHED_TABLES_TWO_TREE_TABLE_H_
#define ROSCHED_TABLES_TWO_TREE_TABLE_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sched/two_tree/two_tree.h"
#include "sim/counterexample.h"
#include "tables/grid.h"
#include "tables/schedule_table.h"

namespace rosched::tables {

struct TwoTreeTable {
  std::int64_t p, root;
  std::vector<TwoTreeNode> nodes;  // indexed by rank
  // The first failure of round-by-round broadcast and reduction runs over these trees
  // (sim/two_tree_run.h) for n = 1, 2 and ceil(log2 p) + 2 blocks, if any.
  std::optional<sim::Counterexample> violation;
  Grid grid() const;
};

// Throws std::invalid_argument for bad p or root.
TwoTreeTable make_two_tree_table(std::int64_t p, std::int64_t root);

void render(const TwoTreeTable& table, Format format, std::ostream& out);

// One line: p, root, the relay (if any), the tree roots and the largest arrival round.
std::string summary_line(const TwoTreeTable& table);

}  // namespace rosched::tables

#endif  // ROSCHED_TABLES_TWO_TREE_TABLE_H_
