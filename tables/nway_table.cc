// The n-way dissemination allreduce as a table (End et al. 2015, Sec. III-IV). See
// nway_table.h.
#include "tables/nway_table.h"

#include <algorithm>
#include <iomanip>
#include <stdexcept>

#include "sim/nway_run.h"

namespace rosched::tables {
namespace {

std::string accs(std::uint8_t mask, NwayRule rule) {
  const char second = rule == NwayRule::kDigits ? 'R' : rule == NwayRule::kCirculant ? 'E' : 'S';
  std::string out;
  if (mask & kOwn) out += 'x';
  if (mask & kMain) out += 'F';
  if (mask & kSecond) out += second;
  if (mask & kThird) out += 'T';
  return out.empty() ? "-" : out;
}

std::string range(const NwayRange& r) {
  return "[" + std::to_string(r.first) + ":" + std::to_string(r.first + r.length) + ")";
}

std::string messages(const std::vector<NwayMessage>& ms, bool sends, NwayRule rule) {
  std::string out;
  for (const NwayMessage& m : ms) {
    out += (out.empty() ? "" : " ") + std::to_string(m.port) + (sends ? ">" : "<") +
           std::to_string(m.peer) + ":";
    for (int v = 0; v < m.vectors; ++v) {
      out += v ? "+" : "";
      out += sends ? accs(m.v[v].accs, rule) + range(m.v[v].range)
                   : range(m.v[v].range) + ">" + accs(m.v[v].accs, rule);
    }
  }
  return out.empty() ? "-" : out;
}

std::string title(const NwayTable& t) {
  const NwayPlan& pl = t.plan;
  return "n-way dissemination allreduce p = " + std::to_string(pl.p()) + ", n = " +
         std::to_string(pl.n()) + ", rule = " + nway_rule_name(pl.rule()) +
         "; j>r:acc[a:b) sends offsets a..b-1 of the sender on port j to rank r, "
         "j<r:[a:b)>acc receives offsets a..b-1 of the receiver; offset t = rank (self - t) mod p";
}

// Column widths of the widest cell; text left-aligned.
void render_text(const NwayTable& t, const Grid& grid, std::ostream& out) {
  out << title(t) << '\n';
  std::vector<std::size_t> width(grid[0].size(), 0);
  for (const auto& row : grid) {
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  for (const auto& row : grid) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      out << (c ? "  " : "") << (c < 2 ? std::right : std::left)
          << std::setw(c + 1 < row.size() ? static_cast<int>(width[c]) : 0) << row[c];
    }
    out << '\n';
  }
}

void render_latex(const NwayTable& t, const Grid& grid, std::ostream& out) {
  out << "% " << title(t) << "\n\\begin{tabular}{rrrlll}\n";
  for (const auto& row : grid) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      out << (c ? " & " : "") << (&row == &grid.front() ? row[c] : "\\texttt{" + row[c] + "}");
    }
    out << " \\\\\n" << (&row == &grid.front() ? "\\hline\n" : "");
  }
  out << "\\end{tabular}\n";
}

}  // namespace

void check_nway_table_args(std::int64_t p, std::int64_t n, NwayRule rule) {
  const NwayPlan plan(p, n, rule);  // throws for bad p, n, and paper without a tuple
  if (p * std::max(plan.rounds(), 1) > kMaxNwayTableRows) {
    throw std::invalid_argument("the n-way table for p = " + std::to_string(p) + " would have more than " +
                                std::to_string(kMaxNwayTableRows) + " rows");
  }
}

NwayTable make_nway_table(std::int64_t p, std::int64_t n, NwayRule rule) {
  check_nway_table_args(p, n, rule);
  NwayTable t{NwayPlan(p, n, rule), std::nullopt};
  t.violation = sim::run_nway(t.plan);
  return t;
}

Grid NwayTable::grid() const {
  Grid rows{{"rank", "round", "distance", "send", "recv", "copy"}};
  const NwayRule rule = plan.rule();
  for (std::int64_t r = 0; r < plan.p(); ++r) {
    const NwaySchedule me(plan, r);
    for (int i = 0; i < me.rounds(); ++i) {
      const NwayRound rd = me.round(i);
      const std::int64_t unit = rule == NwayRule::kCirculant ? plan.skip(i) : plan.power(i);
      rows.push_back({std::to_string(r), std::to_string(i), std::to_string(unit),
                      messages(rd.sends, true, rule), messages(rd.recvs, false, rule),
                      rd.copy_to ? accs(rd.copy_to, rule) + "=" + accs(rd.copy_from, rule) : "-"});
    }
  }
  return rows;
}

void render(const NwayTable& table, Format format, std::ostream& out) {
  const Grid grid = table.grid();
  if (format == Format::text) return render_text(table, grid, out);
  if (format == Format::latex) return render_latex(table, grid, out);
  if (format == Format::markdown) {
    out << "**" << title(table) << "**\n\n";
    return write_markdown(grid, out);
  }
  write_separated(grid, format == Format::tsv ? '\t' : ',', out);
}

std::string summary_line(const NwayTable& t) {
  const NwayPlan& pl = t.plan;
  std::string line = "p=" + std::to_string(pl.p()) + " n=" + std::to_string(pl.n()) +
                     " rule=" + nway_rule_name(pl.rule()) + " family=nway: ";
  if (t.violation) return line + "INVALID " + t.violation->describe();
  line += "valid allreduce (every rank's result covers all " + std::to_string(pl.p()) +
          " contributions once) in " + std::to_string(pl.rounds()) + " rounds = ceil(log_" +
          std::to_string(pl.base()) + " p); " + std::to_string(sim::nway_expected_messages(pl)) +
          " messages per rank";
  if (pl.rule() == NwayRule::kPaper && pl.p() > 1) {
    line += "; Eq. 8 tuple s=" + std::to_string(pl.tuple().s) + " Lsnd=" +
            std::to_string(pl.tuple().lsnd) + " Lrcv=" + std::to_string(pl.tuple().lrcv);
  }
  if (pl.rule() == NwayRule::kCirculant) {
    line += "; skips";
    for (int i = 0; i <= pl.rounds(); ++i) line += " " + std::to_string(pl.skip(i));
  }
  if (pl.rule() == NwayRule::kDigits) {
    line += "; digits of p in base " + std::to_string(pl.base()) + ":";
    int top = pl.rounds();
    while (top > 0 && pl.p() / pl.power(top) == 0) --top;
    for (int i = top; i >= 0; --i) line += " " + std::to_string(pl.p() / pl.power(i) % pl.base());
  }
  return line;
}

}  // namespace rosched::tables
