// Writing a table held as a grid of cells (first row: the header) in the machine-readable
// formats; shared by the circulant and the two-tree tables.
#ifndef ROSCHED_TABLES_GRID_H_
#define ROSCHED_TABLES_GRID_H_

#include <ostream>
#include <string>
#include <vector>

namespace rosched::tables {

using Grid = std::vector<std::vector<std::string>>;

// One line per row, cells separated by sep (TSV, CSV: no cell contains the separator).
void write_separated(const Grid& grid, char sep, std::ostream& out);
// A Markdown table: the first row as header, then the alignment row (first column left, the
// others right), then the rest.
void write_markdown(const Grid& grid, std::ostream& out);

}  // namespace rosched::tables

#endif  // ROSCHED_TABLES_GRID_H_
