// The pipelined k-ary tree broadcast of M blocks (Träff's lecture notes, "The power of
// fixed-degree trees"; sched/kary/kary_tree_schedule.h) as a table: one row per rank with its
// virtual rank, parent, children, the round it first sends in and the rounds its blocks arrive
// in. The schedule is checked by a round-by-round run (sim/kary_run.h).
#ifndef ROSCHED_TABLES_KARY_TABLE_H_
#define ROSCHED_TABLES_KARY_TABLE_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sched/kary/kary_tree_schedule.h"
#include "sim/counterexample.h"
#include "tables/grid.h"
#include "tables/schedule_table.h"

namespace rosched::tables {

// A table holds one row per rank and at most this many rank-rounds; larger ones are refused.
inline constexpr std::int64_t kMaxKaryTableRows = 1000000;
inline constexpr std::int64_t kMaxKaryTableRankRounds = 50000000;

struct KaryTable {
  std::int64_t p, blocks, degree, root;
  std::vector<KaryTreeBcastSchedule> ranks;      // indexed by real rank
  std::optional<sim::Counterexample> violation;  // result of the broadcast run
  Grid grid() const;
};

// Throws std::invalid_argument (one line naming the value) for a bad p, blocks, degree or root,
// or a table above the limits.
void check_kary_table_args(std::int64_t p, std::int64_t blocks, std::int64_t degree,
                           std::int64_t root);

// Throws std::invalid_argument as check_kary_table_args.
KaryTable make_kary_table(std::int64_t p, std::int64_t blocks, std::int64_t degree,
                          std::int64_t root);

void render(const KaryTable& table, Format format, std::ostream& out);

// One line: p, k, M, root, the outcome of the broadcast run, the rounds and the depth.
std::string summary_line(const KaryTable& table);

}  // namespace rosched::tables

#endif  // ROSCHED_TABLES_KARY_TABLE_H_
