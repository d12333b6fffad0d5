// The Bruck all-to-all schedule (Bruck et al. 1997; Fan et al. 2022, Sec. 2.1; sched/bruck/) as
// a table, one row per step: digit position and value, distance, partners of rank p (minus
// direction: sends to p - distance, receives from p + distance), how many relative indices move,
// how many of them make their first or last hop, and the indices themselves. Checked before it
// is printed by a relative run of every variant (sim/bruck_run.h).
#ifndef ROSCHED_TABLES_BRUCK_TABLE_H_
#define ROSCHED_TABLES_BRUCK_TABLE_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "sched/bruck/bruck.h"
#include "sim/counterexample.h"
#include "tables/grid.h"
#include "tables/schedule_table.h"

namespace rosched::tables {

// The largest p printed (the index lists hold about p log p / 2 numbers).
inline constexpr std::int64_t kMaxBruckTableP = 4096;

// Throws std::invalid_argument unless 1 <= p <= kMaxBruckTableP and radix is an integer in
// [2, kMaxBruckRadix] ("" means 2); returns the radix.
std::int64_t check_bruck_table_args(std::int64_t p, const std::string& radix);

struct BruckTable {
  BruckSchedule schedule;
  std::optional<sim::Counterexample> violation;  // the first variant's failed run, if any
  Grid grid() const;
};

BruckTable make_bruck_table(std::int64_t p, std::int64_t radix);
void render(const BruckTable& table, Format format, std::ostream& out);
std::string summary_line(const BruckTable& table);

}  // namespace rosched::tables

#endif  // ROSCHED_TABLES_BRUCK_TABLE_H_
