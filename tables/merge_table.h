// The merge-allreduce schedules of Lang 2025 (sched/merge/) as a table, one column per rank:
// per round the rank it sends to, the ranges of ranks' blocks it sends (main part, then
// "+" the partial part), the rank it receives from and the ranges it receives, and the merges
// it does after the exchange; then the final merge. The table is checked by an interval run
// (sim/merge_run.h) before it is printed.
#ifndef ROSCHED_TABLES_MERGE_TABLE_H_
#define ROSCHED_TABLES_MERGE_TABLE_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "sched/merge/merge_plan.h"
#include "sim/merge_run.h"
#include "tables/grid.h"
#include "tables/schedule_table.h"

namespace rosched::tables {

// A table has (5 ceil(log2 p) + 2) x (p + 1) cells; larger ones are refused.
inline constexpr std::int64_t kMaxMergeTableCells = 20000000;

// Throws std::invalid_argument unless 1 <= p <= 2^31 - 1 and the table fits.
void check_merge_table_args(std::int64_t p);

struct MergeTable {
  merge::MergePlan plan;
  std::optional<sim::Counterexample> violation;  // result of the interval run
  sim::MergeStats stats;                         // blocks sent, largest message, merge work
  // First row "rank"; per round k: "to k", "sends k", "from k", "receives k", "merges k";
  // last row "result". A range is "a..b" (cyclic), "a" for one block, "()" for none.
  Grid grid() const;
};

MergeTable make_merge_table(merge::Algorithm algorithm, std::int64_t p);
void render(const MergeTable& table, Format format, std::ostream& out);
// One line: p, algorithm, the outcome of the run, rounds, blocks sent, merge work.
std::string summary_line(const MergeTable& table);

}  // namespace rosched::tables

#endif  // ROSCHED_TABLES_MERGE_TABLE_H_
