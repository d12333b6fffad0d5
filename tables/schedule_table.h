// Paper-style schedule tables (Tables 1-5 of Träff 2022): for each rank its baseblock, receive
// and send schedule, rendered as text (like the paper), TSV, CSV, Markdown or LaTeX.
#ifndef ROSCHED_TABLES_SCHEDULE_TABLE_H_
#define ROSCHED_TABLES_SCHEDULE_TABLE_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sched/circulant/full_schedule.h"
#include "sched/circulant/phase_schedule.h"
#include "sim/schedule_check.h"
#include "sched/circulant/skips.h"

namespace rosched::tables {

enum class Format { text, tsv, csv, markdown, latex };

// Throws std::invalid_argument naming the known formats.
Format parse_format(const std::string& name);

// A grid (first row the header, first column the row names) with a title, in a format: text
// (title line, aligned cells: all to one width for tables whose columns are ranks, each column
// to its own with by_column), LaTeX (title as a comment), Markdown (bold title), TSV or CSV
// (the grid only). Shared by the families' tables.
void render_titled(const std::string& title, const std::vector<std::vector<std::string>>& grid,
                   Format format, std::ostream& out, bool by_column = false);

// "9,31-33" -> {9, 31, 32, 33}. Throws std::invalid_argument on malformed lists, p outside
// [1, max_p], or more than max_count values.
std::vector<std::int64_t> parse_p_list(const std::string& list, std::int64_t max_p,
                                       std::size_t max_count);

// The schedule of every rank for broadcasts from `root`: column r shows real rank r, whose
// virtual rank is (r - root) mod p.
struct ScheduleTable {
  Skips skips;
  std::int64_t root;
  Construction construction;
  FullSchedule virtual_ranks;               // indexed by virtual rank
  std::optional<sim::Violation> violation;       // result of check_schedule

  // The grid: first row the rank numbers, then baseblock, recv[k], send[k]; first column the
  // row names used by the machine-readable formats.
  std::vector<std::vector<std::string>> grid() const;
};

// Throws std::invalid_argument for bad p or root.
ScheduleTable make_table(std::int64_t p, std::int64_t root, Construction c);

void render(const ScheduleTable& table, Format format, std::ostream& out);

// One line: p, q, skips, construction and the outcome of the validity check.
std::string summary_line(const ScheduleTable& table);

}  // namespace rosched::tables

#endif  // ROSCHED_TABLES_SCHEDULE_TABLE_H_
