#include "tables/grid.h"

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

}  // namespace rosched::tables
