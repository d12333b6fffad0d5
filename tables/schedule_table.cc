#include "tables/schedule_table.h"

#include <algorithm>
#include <iomanip>
#include <stdexcept>

#include "sched/circulant/baseblock.h"
#include "tables/grid.h"

namespace rosched::tables {
namespace {

std::int64_t parse_int(const std::string& s, const std::string& item, const std::string& list) {
  if (s.empty() || s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos) {
    throw std::invalid_argument("bad item '" + item + "' in the process counts '" + list +
                                "': expected a whole number P >= 1 or a range A-B");
  }
  return std::stoll(s);
}

// True if a vertical line goes before column r (the paper marks the skips this way).
bool line_before(const Skips& s, std::int64_t r) {
  for (int k = 0; k < s.q(); ++k)
    if (s[k] == r) return true;
  return false;
}

std::string join_skips(const Skips& s, const char* sep) {
  std::string out;
  for (int k = 0; k <= s.q(); ++k) out += (k ? sep : "") + std::to_string(s[k]);
  return out;
}

// The paper's row labels: only the first row of a group is labelled.
std::string row_label(std::size_t row, int q, const char* rank_label) {
  if (row == 0) return rank_label;
  if (row == 1) return "Baseblock";
  if (row == 2) return "Recv schedule";
  if (row == 2 + static_cast<std::size_t>(q)) return "Send schedule";
  return "";
}

void render_text(const ScheduleTable& t, const std::vector<std::vector<std::string>>& grid,
                 std::ostream& out) {
  const int q = t.skips.q();
  out << "p = " << t.skips.p() << ", q = " << q << ", skips = " << join_skips(t.skips, " ")
      << ", root = " << t.root << ", construction = " << construction_name(t.construction)
      << '\n';
  std::size_t width = 2;
  for (const auto& row : grid)
    for (std::size_t c = 1; c < row.size(); ++c) width = std::max(width, row[c].size());
  for (std::size_t i = 0; i < grid.size(); ++i) {
    out << std::left << std::setw(14) << row_label(i, q, "Procs r") << std::right;
    for (std::size_t c = 1; c < grid[i].size(); ++c) {
      const std::int64_t r = static_cast<std::int64_t>(c) - 1;
      out << (line_before(t.skips, r) ? " |" : "  ") << std::setw(width + 1) << grid[i][c];
    }
    out << '\n';
  }
}

void render_markdown(const ScheduleTable& t, const std::vector<std::vector<std::string>>& grid,
                     std::ostream& out) {
  out << "**p = " << t.skips.p() << "** (q = " << t.skips.q()
      << ", skips = " << join_skips(t.skips, ", ") << ", root = " << t.root
      << ", construction = " << construction_name(t.construction) << ")\n\n";
  write_markdown(grid, out);
}

void render_latex(const ScheduleTable& t, const std::vector<std::vector<std::string>>& grid,
                  std::ostream& out) {
  const int q = t.skips.q();
  out << "% p = " << t.skips.p() << ", construction = " << construction_name(t.construction)
      << "\n\\begin{tabular}{l";
  for (std::int64_t r = 0; r < t.skips.p(); ++r) out << (line_before(t.skips, r) ? "|r" : "r");
  out << "}\n";
  for (std::size_t i = 0; i < grid.size(); ++i) {
    out << row_label(i, q, "Procs $r$");
    for (std::size_t c = 1; c < grid[i].size(); ++c) out << " & $" << grid[i][c] << '$';
    out << " \\\\\n";
    if (i == 0 || i == 1 || i == 1 + static_cast<std::size_t>(q)) out << "\\hline\n";
  }
  out << "\\end{tabular}\n\\caption{Baseblocks, receive and send schedules for $p = "
      << t.skips.p() << "$; skips " << join_skips(t.skips, ", ") << ".}\n";
}

}  // namespace

Format parse_format(const std::string& name) {
  if (name == "text") return Format::text;
  if (name == "tsv") return Format::tsv;
  if (name == "csv") return Format::csv;
  if (name == "markdown") return Format::markdown;
  if (name == "latex") return Format::latex;
  throw std::invalid_argument("unknown format '" + name +
                              "' (known: text, tsv, csv, markdown, latex)");
}

void render_titled(const std::string& title, const Grid& grid, Format format, std::ostream& out,
                   bool by_column) {
  if (format == Format::text) {
    out << title << '\n';
    return by_column ? write_columns(grid, out) : write_aligned(grid, out);
  }
  if (format == Format::latex) {
    out << "% " << title << '\n';
    return write_latex(grid, out);
  }
  if (format == Format::markdown) {
    out << "**" << title << "**\n\n";
    return write_markdown(grid, out);
  }
  write_separated(grid, format == Format::tsv ? '\t' : ',', out);  // tsv, csv
}

std::vector<std::int64_t> parse_p_list(const std::string& list, std::int64_t max_p,
                                       std::size_t max_count) {
  std::vector<std::int64_t> ps;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string item = list.substr(start, comma - start);
    const std::size_t dash = item.find('-');
    const std::int64_t lo = parse_int(item.substr(0, dash), item, list);
    const std::int64_t hi =
        dash == std::string::npos ? lo : parse_int(item.substr(dash + 1), item, list);
    if (lo > hi) throw std::invalid_argument("empty range '" + item + "' in '" + list + "'");
    if (lo < 1 || hi > max_p) {
      throw std::invalid_argument("process count in '" + item + "' is outside [1, " +
                                  std::to_string(max_p) + "]");
    }
    if (hi - lo + 1 > static_cast<std::int64_t>(max_count - std::min(max_count, ps.size()))) {
      throw std::invalid_argument("more than " + std::to_string(max_count) +
                                  " process counts in '" + list + "'");
    }
    for (std::int64_t p = lo; p <= hi; ++p) ps.push_back(p);
    start = comma + 1;
  }
  return ps;
}

ScheduleTable make_table(std::int64_t p, std::int64_t root, Construction c) {
  const Skips s(p);
  check_rank(s, root, "root");
  ScheduleTable t{s, root, c, full_schedule(s, c), std::nullopt};
  t.violation = sim::check_schedule(t.virtual_ranks);
  return t;
}

std::vector<std::vector<std::string>> ScheduleTable::grid() const {
  const int q = skips.q();
  const std::int64_t p = skips.p();
  std::vector<std::vector<std::string>> rows(2 + 2 * q);
  rows[0].push_back("rank");
  rows[1].push_back("baseblock");
  for (int k = 0; k < q; ++k) {
    rows[2 + k].push_back("recv[" + std::to_string(k) + "]");
    rows[2 + q + k].push_back("send[" + std::to_string(k) + "]");
  }
  for (std::int64_t r = 0; r < p; ++r) {
    const std::int64_t v = virtual_rank(r, root, skips.p());
    rows[0].push_back(std::to_string(r));
    rows[1].push_back(v == 0 ? "-" : std::to_string(baseblock(skips, v)));
    for (int k = 0; k < q; ++k) {
      rows[2 + k].push_back(std::to_string(int{virtual_ranks.recv(v, k)}));
      rows[2 + q + k].push_back(std::to_string(int{virtual_ranks.send(v, k)}));
    }
  }
  return rows;
}

void render(const ScheduleTable& table, Format format, std::ostream& out) {
  const auto grid = table.grid();
  switch (format) {
    case Format::text:
      return render_text(table, grid, out);
    case Format::tsv:
      return write_separated(grid, '\t', out);
    case Format::csv:
      return write_separated(grid, ',', out);
    case Format::markdown:
      return render_markdown(table, grid, out);
    case Format::latex:
      return render_latex(table, grid, out);
  }
}

std::string summary_line(const ScheduleTable& t) {
  std::string line = "p=" + std::to_string(t.skips.p()) + " q=" + std::to_string(t.skips.q()) +
                     " skips=" + join_skips(t.skips, ",") + " root=" + std::to_string(t.root) +
                     " construction=" + construction_name(t.construction) + ": ";
  if (t.violation) return line + "INVALID " + t.violation->describe(t.skips.p());
  return line + "valid schedule for all " + std::to_string(t.skips.p()) +
         " ranks; n-block broadcast in n-1+" + std::to_string(t.skips.q()) + " rounds";
}

}  // namespace rosched::tables
