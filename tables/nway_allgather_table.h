// The n-port all-gather (Algorithm 7 of Träff 2022 on the skips of n ports;
// sched/nway/nway_allgather.h) as a table: one row per rank and round with what the rank holds
// and the messages it sends and receives, checked by a round-by-round run of every rank
// (sim/nway_allgather_run.h) before it is printed.
#ifndef ROSCHED_TABLES_NWAY_ALLGATHER_TABLE_H_
#define ROSCHED_TABLES_NWAY_ALLGATHER_TABLE_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "sched/nway/nway_allgather.h"
#include "sim/counterexample.h"
#include "tables/grid.h"
#include "tables/schedule_table.h"

namespace rosched::tables {

struct NwayAllgatherTable {
  NwayPlan plan;
  std::optional<sim::Counterexample> violation;  // result of the run of every rank

  // Header "rank round held send recv", then one row per rank and round: held the
  // contributions the rank holds at the round's start (ranks rank .. rank + held - 1), a send
  // "j>r:[0:c)" (port j, to rank r, the sender's first c contributions), a receive
  // "j<r:[a:b)" (from rank r, the receiver's offsets a..b-1: ranks rank + a .. rank + b - 1).
  Grid grid() const;
};

// Throws std::invalid_argument naming the value for bad p or n, or a table of more than
// 2,000,000 rows.
void check_nway_allgather_table_args(std::int64_t p, std::int64_t n);
NwayAllgatherTable make_nway_allgather_table(std::int64_t p, std::int64_t n);

void render(const NwayAllgatherTable& table, Format format, std::ostream& out);

// One line: p, n, the outcome of the run, rounds (and Algorithm 7's), the skips.
std::string summary_line(const NwayAllgatherTable& table);

}  // namespace rosched::tables

#endif  // ROSCHED_TABLES_NWAY_ALLGATHER_TABLE_H_
