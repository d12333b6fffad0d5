// The n-way dissemination allreduce (End et al. 2015, Sec. III-IV; sched/nway/) as a table: one
// row per rank and round with the partners and the ranges of contributions sent and received,
// checked by a round-by-round run of every rank (sim/nway_run.h) before it is printed.
#ifndef ROSCHED_TABLES_NWAY_TABLE_H_
#define ROSCHED_TABLES_NWAY_TABLE_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "sched/nway/nway_schedule.h"
#include "sim/counterexample.h"
#include "tables/grid.h"
#include "tables/schedule_table.h"

namespace rosched::tables {

// p * rounds rows at most.
inline constexpr std::int64_t kMaxNwayTableRows = 2000000;

struct NwayTable {
  NwayPlan plan;
  std::optional<sim::Counterexample> violation;  // result of the run of every rank

  // Header "rank round distances send recv copy", then one row per rank and round. A send is
  // "j>peer:acc[a:b)" (port j, to rank peer, accumulators acc, offsets a..b-1 relative to the
  // sender), a second vector "+acc[a:b)"; a receive "j<peer:[a:b)>acc" (offsets relative to the
  // receiver, folded into acc). Accumulators: x own contribution, F main, R/E/S second (digits,
  // circulant, paper), T the paper's take-out.
  Grid grid() const;
};

// Throws std::invalid_argument naming the value for bad p, n, rule (paper without a tuple) or
// a table with more than kMaxNwayTableRows rows.
NwayTable make_nway_table(std::int64_t p, std::int64_t n, NwayRule rule);
void check_nway_table_args(std::int64_t p, std::int64_t n, NwayRule rule);

void render(const NwayTable& table, Format format, std::ostream& out);

// One line: p, n, rule, the outcome of the run, rounds, messages per rank, the rule's data.
std::string summary_line(const NwayTable& table);

}  // namespace rosched::tables

#endif  // ROSCHED_TABLES_NWAY_TABLE_H_
