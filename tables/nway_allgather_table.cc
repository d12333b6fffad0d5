// The n-port all-gather as a table. See nway_allgather_table.h.
#include "tables/nway_allgather_table.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "sched/round.h"
#include "sim/nway_allgather_run.h"

namespace rosched::tables {
namespace {

constexpr std::int64_t kMaxRows = 2000000;

std::string title(const NwayAllgatherTable& t) {
  return "n-port all-gather p = " + std::to_string(t.plan.p()) +
         ", n = " + std::to_string(t.plan.n()) +
         "; held: contributions of ranks self .. self + held - 1 at the round's start; "
         "j>r:[0:c) sends the first c on port j to rank r, j<r:[a:b) receives offsets a..b-1 "
         "(ranks self + a .. self + b - 1) from rank r";
}

}  // namespace

void check_nway_allgather_table_args(std::int64_t p, std::int64_t n) {
  const NwayPlan plan = nway_allgather_plan(p, n);  // throws for bad p and n
  if (p * std::max(plan.rounds(), 1) > kMaxRows) {
    throw std::invalid_argument("the n-port all-gather table for p = " + std::to_string(p) +
                                " would have more than " + std::to_string(kMaxRows) + " rows");
  }
}

NwayAllgatherTable make_nway_allgather_table(std::int64_t p, std::int64_t n) {
  check_nway_allgather_table_args(p, n);
  NwayAllgatherTable t{nway_allgather_plan(p, n), std::nullopt};
  t.violation = sim::run_nway_allgather(t.plan);
  return t;
}

Grid NwayAllgatherTable::grid() const {
  Grid rows{{"rank", "round", "held", "send", "recv"}};
  for (int i = 0; i < plan.rounds(); ++i) {
    const std::vector<NwayAllgatherMessage> round = nway_allgather_round(plan, i);
    for (std::int64_t r = 0; r < plan.p(); ++r) {
      std::string send, recv;
      for (const NwayAllgatherMessage& m : round) {
        const NwayAllgatherPeers peers = nway_allgather_peers(plan, r, m);
        const std::string j = std::to_string(m.port);
        send += (send.empty() ? "" : " ") + j + ">" + std::to_string(peers.to) +
                ":[0:" + std::to_string(m.count) + ")";
        recv += (recv.empty() ? "" : " ") + j + "<" + std::to_string(peers.from) + ":[" +
                std::to_string(m.distance) + ":" + std::to_string(m.distance + m.count) + ")";
      }
      rows.push_back(
          {std::to_string(r), std::to_string(i), std::to_string(plan.skip(i)), send, recv});
    }
  }
  // Rank-major, as the other families' tables.
  std::stable_sort(rows.begin() + 1, rows.end(), [](const auto& a, const auto& b) {
    return std::stoll(a[0]) < std::stoll(b[0]);
  });
  return rows;
}

void render(const NwayAllgatherTable& table, Format format, std::ostream& out) {
  const Grid grid = table.grid();
  switch (format) {
    case Format::text:
      out << title(table) << '\n';
      return write_columns(grid, out);
    case Format::latex:
      out << "% " << title(table) << '\n';
      return write_latex(grid, out);
    case Format::markdown:
      out << "**" << title(table) << "**\n\n";
      return write_markdown(grid, out);
    case Format::tsv:
    case Format::csv:
      return write_separated(grid, format == Format::tsv ? '\t' : ',', out);
  }
}

std::string summary_line(const NwayAllgatherTable& t) {
  const NwayPlan& pl = t.plan;
  std::string line =
      "p=" + std::to_string(pl.p()) + " n=" + std::to_string(pl.n()) + " family=nway-allgather: ";
  if (t.violation) return line + "INVALID " + t.violation->describe();
  line += "valid all-gather (every rank holds all " + std::to_string(pl.p()) +
          " contributions once) in " + std::to_string(pl.rounds()) + " rounds = ceil(log_" +
          std::to_string(pl.base()) +
          " p) (Algorithm 7: " + std::to_string(pl.p() > 1 ? ceil_log2(pl.p()) : 0) + "); skips";
  for (int i = 0; i <= pl.rounds(); ++i) line += " " + std::to_string(pl.skip(i));
  return line;
}

}  // namespace rosched::tables
