#include "tables/two_tree_table.h"

#include <algorithm>
#include <iomanip>

#include "sim/two_tree_run.h"

namespace rosched::tables {
namespace {

const char* role_name(TwoTreeRole role) {
  switch (role) {
    case TwoTreeRole::root:
      return "root";
    case TwoTreeRole::relay:
      return "relay";
    case TwoTreeRole::member:
      break;
  }
  return "member";
}

std::string children_cell(const TreePlace& place) {
  if (place.child_count == 0) return "-";
  std::string cell;
  for (int c = 0; c < place.child_count; ++c) {
    cell += (c ? " " : "") + std::to_string(place.children[c].rank) + ":" +
            std::to_string(place.children[c].colour);
  }
  return cell;
}

std::string title(const TwoTreeTable& t) {
  return "two-tree p = " + std::to_string(t.p) + ", root = " + std::to_string(t.root) +
         "; colour = round parity of the edge from the parent; children as rank:colour";
}

}  // namespace

TwoTreeTable make_two_tree_table(std::int64_t p, std::int64_t root) {
  TwoTreeTable t{p, root, {}, std::nullopt};
  for (std::int64_t r = 0; r < p; ++r) t.nodes.push_back(two_tree_node(p, root, r));
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{2}, ceil_log2(p) + std::int64_t{2}}) {
    if (!t.violation) t.violation = sim::run_two_tree(p, n, root).counterexample;
  }
  return t;
}

Grid TwoTreeTable::grid() const {
  Grid rows{{"rank", "role", "upper_parent", "upper_colour", "upper_arrival", "upper_children",
             "lower_parent", "lower_colour", "lower_arrival", "lower_children"}};
  for (const TwoTreeNode& v : nodes) {
    std::vector<std::string> row{std::to_string(v.rank), role_name(v.role)};
    for (const TreePlace& place : v.tree) {
      const bool top = place.parent.rank == kNoRank;
      row.push_back(top ? "-" : std::to_string(place.parent.rank));
      row.push_back(top ? "-" : std::to_string(place.parent.colour));
      row.push_back(top ? "-" : std::to_string(place.parent.arrival));
      row.push_back(children_cell(place));
    }
    rows.push_back(row);
  }
  return rows;
}

void render(const TwoTreeTable& table, Format format, std::ostream& out) {
  const Grid grid = table.grid();
  switch (format) {
    case Format::tsv:
      return write_separated(grid, '\t', out);
    case Format::csv:
      return write_separated(grid, ',', out);
    case Format::markdown:
      out << "**" << title(table) << "**\n\n";
      return write_markdown(grid, out);
    case Format::latex:
      out << "% " << title(table) << "\n\\begin{tabular}{rl|rrrl|rrrl}\n";
      for (std::size_t i = 0; i < grid.size(); ++i) {
        for (std::size_t c = 0; c < grid[i].size(); ++c) {
          std::string cell = grid[i][c];
          std::replace(cell.begin(), cell.end(), '_', ' ');
          out << (c ? " & " : "") << cell;
        }
        out << " \\\\\n" << (i == 0 ? "\\hline\n" : "");
      }
      out << "\\end{tabular}\n";
      return;
    case Format::text: {
      out << title(table) << '\n';
      std::vector<std::size_t> width(grid[0].size(), 0);
      for (const auto& row : grid)
        for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
      for (const auto& row : grid) {
        for (std::size_t c = 0; c < row.size(); ++c) {
          out << (c == 0 ? "" : c == 2 || c == 6 ? " | " : "  ") << std::setw(width[c]) << row[c];
        }
        out << '\n';
      }
      return;
    }
  }
}

std::string summary_line(const TwoTreeTable& t) {
  std::string relay = "none";
  std::int64_t upper_root = kNoRank, lower_root = kNoRank, last = -1;
  for (const TwoTreeNode& v : t.nodes) {
    if (v.role == TwoTreeRole::relay) relay = std::to_string(v.rank);
    for (const TreePlace& place : v.tree) last = std::max(last, place.parent.arrival);
  }
  for (const TwoTreeNode& v : t.nodes) {
    if (v.role != TwoTreeRole::member) continue;
    const std::int64_t up = v.tree[0].parent.rank, lo = v.tree[1].parent.rank;
    if (t.nodes[up].role != TwoTreeRole::member) upper_root = v.rank;
    if (t.nodes[lo].role != TwoTreeRole::member) lower_root = v.rank;
  }
  const std::string head = "p=" + std::to_string(t.p) + " root=" + std::to_string(t.root) + " family=twotree: ";
  if (t.violation) return head + "INVALID " + t.violation->describe();
  return head + "relay " +
         relay + ", upper tree root " + (upper_root == kNoRank ? "-" : std::to_string(upper_root)) +
         ", lower tree root " + (lower_root == kNoRank ? "-" : std::to_string(lower_root)) +
         ", last first-arrival round " + std::to_string(last) +
         " (the n-block broadcast ends about 2 (ceil(n/2) - 1) rounds later)";
}

}  // namespace rosched::tables
