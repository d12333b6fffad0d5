// The k-nomial tree reduction of one block (Träff's lecture notes, "Binomial tree reduction"
// and "Final remark: binomial and k-nomial trees"; sched/knomial/knomial_reduce.h) as a table:
// one row per rank with its virtual rank, parent, the round and level it sends in, the round
// the broadcast that runs it backwards (knomial_bcast.h) delivers to it, and its children with
// the rounds they arrive in. The schedules are checked by round-by-round reduction and
// broadcast runs (sim/knomial_run.h).
#ifndef ROSCHED_TABLES_KNOMIAL_TABLE_H_
#define ROSCHED_TABLES_KNOMIAL_TABLE_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sched/knomial/knomial_reduce.h"
#include "sim/counterexample.h"
#include "tables/grid.h"
#include "tables/schedule_table.h"

namespace rosched::tables {

// A table holds one row per rank; larger ones are refused.
inline constexpr std::int64_t kMaxKnomialTableRows = 1000000;

struct KnomialTable {
  std::int64_t p, ports, root;
  std::vector<KnomialReduceSchedule> ranks;      // indexed by real rank
  std::optional<sim::Counterexample> violation;  // result of the reduction and broadcast runs
  Grid grid() const;
};

// Throws std::invalid_argument (one line naming the value) for a bad p, ports or root, or more
// than kMaxKnomialTableRows ranks.
void check_knomial_table_args(std::int64_t p, std::int64_t ports, std::int64_t root);

// Throws std::invalid_argument as check_knomial_table_args.
KnomialTable make_knomial_table(std::int64_t p, std::int64_t ports, std::int64_t root);

void render(const KnomialTable& table, Format format, std::ostream& out);

// One line: p, ports, root, the outcome of the runs, the levels and rounds.
std::string summary_line(const KnomialTable& table);

}  // namespace rosched::tables

#endif  // ROSCHED_TABLES_KNOMIAL_TABLE_H_
