#include "tables/grid.h"

#include <algorithm>
#include <iomanip>

namespace rosched::tables {

void write_separated(const Grid& grid, char sep, std::ostream& out) {
  for (const auto& row : grid) {
    for (std::size_t c = 0; c < row.size(); ++c) out << (c ? std::string(1, sep) : "") << row[c];
    out << '\n';
  }
}

void write_markdown(const Grid& grid, std::ostream& out) {
  for (std::size_t i = 0; i < grid.size(); ++i) {
    out << '|';
    for (const auto& cell : grid[i]) out << ' ' << cell << " |";
    out << '\n';
    if (i == 0) {
      out << '|';
      for (std::size_t c = 0; c < grid[i].size(); ++c) out << (c ? " ---: |" : " --- |");
      out << '\n';
    }
  }
}

void write_aligned(const Grid& grid, std::ostream& out) {
  std::size_t name_width = 0, cell_width = 1;
  for (const auto& row : grid) {
    name_width = std::max(name_width, row[0].size());
    for (auto cell = row.begin() + 1; cell != row.end(); ++cell) {
      cell_width = std::max(cell_width, cell->size());
    }
  }
  for (const auto& row : grid) {
    out << std::left << std::setw(name_width) << row[0] << std::right;
    for (auto cell = row.begin() + 1; cell != row.end(); ++cell) {
      out << "  " << std::setw(cell_width) << *cell;
    }
    out << '\n';
  }
}

void write_columns(const Grid& grid, std::ostream& out) {
  std::vector<std::size_t> width;
  for (const auto& row : grid) {
    width.resize(std::max(width.size(), row.size()), 0);
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  for (const auto& row : grid) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      out << (c == 0 ? std::left : std::right) << (c == 0 ? "" : "  ") << std::setw(width[c])
          << row[c];
    }
    out << std::right << '\n';
  }
}

void write_latex(const Grid& grid, std::ostream& out) {
  out << "\\begin{tabular}{l|" << std::string(grid.empty() ? 0 : grid[0].size() - 1, 'r')
      << "}\n";
  for (const auto& row : grid) {
    out << row[0];
    for (auto cell = row.begin() + 1; cell != row.end(); ++cell) out << " & $" << *cell << '$';
    out << " \\\\\n" << (&row == &grid.front() ? "\\hline\n" : "");
  }
  out << "\\end{tabular}\n";
}

}  // namespace rosched::tables
