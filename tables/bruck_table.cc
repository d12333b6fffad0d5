#include "tables/bruck_table.h"

#include <algorithm>
#include <iomanip>
#include <stdexcept>

#include "sched/bruck/bruck_plan.h"
#include "sim/bruck_run.h"

namespace rosched::tables {

std::int64_t check_bruck_table_args(std::int64_t p, const std::string& radix) {
  if (p < 1 || p > kMaxBruckTableP) {
    throw std::invalid_argument("p = " + std::to_string(p) + " is outside [1, " +
                                std::to_string(kMaxBruckTableP) + "] for the bruck table");
  }
  return radix.empty() ? 2 : bruck_radix_from_string(radix);
}

BruckTable make_bruck_table(std::int64_t p, std::int64_t radix) {
  BruckTable t{BruckSchedule(p, radix), std::nullopt};
  for (const BruckVariant v : bruck_variants()) {
    t.violation = sim::run_bruck_relative(BruckPlan(t.schedule, v)).counterexample;
    if (t.violation) break;
  }
  return t;
}

Grid BruckTable::grid() const {
  Grid rows{{"step", "digit", "value", "distance", "send_to", "recv_from", "blocks", "first_hops",
             "last_hops", "indices"}};
  for (std::int64_t t = 0; t < schedule.steps(); ++t) {
    const BruckStep s = schedule.step(t);
    std::int64_t first = 0, last = 0;
    std::string indices;
    schedule.for_each_moved(s, [&](std::int64_t i) {
      first += schedule.first_hop(i, s);
      last += schedule.last_hop(i, s);
      indices += (indices.empty() ? "" : " ") + std::to_string(i);
    });
    const std::string d = std::to_string(s.distance);
    rows.push_back({std::to_string(t), std::to_string(s.x), std::to_string(s.z), d, "p-" + d,
                    "p+" + d, std::to_string(schedule.moved_count(s)), std::to_string(first),
                    std::to_string(last), indices});
  }
  return rows;
}

void render(const BruckTable& t, Format format, std::ostream& out) {
  const Grid grid = t.grid();
  const std::string title = "bruck p = " + std::to_string(t.schedule.p()) + ", radix = " +
                            std::to_string(t.schedule.radix()) +
                            "; rank p sends the relative indices listed to p - distance and "
                            "receives them from p + distance (mod p)";
  switch (format) {
    case Format::tsv: write_separated(grid, '\t', out); return;
    case Format::csv: write_separated(grid, ',', out); return;
    case Format::markdown: write_markdown(grid, out); return;
    case Format::latex:
      out << "% " << title << "\n\\begin{tabular}{rrrrrrrrrl}\n";
      for (const auto& row : grid) {
        for (std::size_t c = 0; c < row.size(); ++c) out << (c ? " & " : "") << row[c];
        out << " \\\\\n" << (&row == &grid.front() ? "\\hline\n" : "");
      }
      out << "\\end{tabular}\n";
      return;
    case Format::text: break;
  }
  out << title << '\n';
  std::vector<std::size_t> width(grid[0].size(), 0);
  for (const auto& row : grid)
    for (std::size_t c = 0; c + 1 < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  for (const auto& row : grid) {
    for (std::size_t c = 0; c + 1 < row.size(); ++c) out << std::setw(width[c]) << row[c] << "  ";
    out << row.back() << '\n';
  }
}

std::string summary_line(const BruckTable& t) {
  const BruckSchedule& s = t.schedule;
  std::string line = "p=" + std::to_string(s.p()) + " radix=" + std::to_string(s.radix()) +
                     " family=bruck: " + std::to_string(s.steps()) + " steps, " +
                     std::to_string(s.blocks_per_rank()) + " blocks sent per rank; ";
  line += t.violation ? "INVALID: " + t.violation->describe()
                      : "every variant's run delivers every block in source order";
  return line;
}

}  // namespace rosched::tables
