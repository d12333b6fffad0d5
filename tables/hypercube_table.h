// Bin Jia's hypercube broadcast of M blocks for any p (Träff's lecture notes, "The power of the
// hypercube: Optimal Broadcast" through the "Main Theorem"; sched/hypercube.h,
// sched/hypercube_schedule.h) as a table, one column per real rank: its unit (representative,
// cooperating processor, the representative's hypercube number in binary), NEXTBIT and SWITCH of
// the representative, and per round the lecture's s(rep, j), t(rep, j) (unclamped) and the block
// sent and received with the peer. The schedule is checked by a round-by-round run
// (verify/hypercube_check.h).
#ifndef ROSCHED_TABLES_HYPERCUBE_TABLE_H_
#define ROSCHED_TABLES_HYPERCUBE_TABLE_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sched/hypercube/hypercube_schedule.h"
#include "tables/grid.h"
#include "tables/schedule_table.h"
#include "sim/counterexample.h"

namespace rosched::tables {

// A table holds (number of rows) x (p + 1) cells; larger ones are refused.
inline constexpr std::int64_t kMaxHypercubeTableCells = 20000000;

// The default block count: floor(log2 p) + 1.
std::int64_t default_hypercube_blocks(std::int64_t p);

// Throws std::invalid_argument (one line naming the value) unless 1 <= p <= 2^31 - 1,
// 0 <= root < p, blocks >= 1 and the table has at most kMaxHypercubeTableCells cells.
void check_hypercube_table_args(std::int64_t p, std::int64_t blocks, std::int64_t root);

struct HypercubeTable {
  std::int64_t p, blocks, root;
  int q;                                         // floor(log2 p)
  std::vector<HypercubeBcastSchedule> ranks;     // indexed by real rank
  std::optional<sim::Counterexample> violation;  // result of the broadcast run

  // M - 1 + ceil(log2 p) (0 for p = 1).
  std::int64_t rounds() const { return ranks[0].rounds(); }
  // The number of cooperating pairs, p - 2^q.
  std::int64_t pairs() const { return p - (std::int64_t{1} << q); }
  // First row "rank" and the real ranks, then rep, co, unit, NEXTBIT[k], SWITCH[k], and per
  // round j: s(rep) j, t(rep) j (hypercube rounds only), send j, recv j.
  Grid grid() const;
};

// Throws std::invalid_argument as check_hypercube_table_args.
HypercubeTable make_hypercube_table(std::int64_t p, std::int64_t blocks, std::int64_t root);

void render(const HypercubeTable& table, Format format, std::ostream& out);

// One line: p, q, M, root, the outcome of the broadcast run, the rounds and the pairs.
std::string summary_line(const HypercubeTable& table);

}  // namespace rosched::tables

#endif  // ROSCHED_TABLES_HYPERCUBE_TABLE_H_
