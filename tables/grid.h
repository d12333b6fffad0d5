// Writing a table held as a grid of cells (first row: the header) in the machine-readable
// formats; shared by the tables of every family.
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
// Plain text: the first column left-aligned, every other cell right-aligned to the widest cell,
// two spaces apart.
void write_aligned(const Grid& grid, std::ostream& out);
// Plain text, one field per column: the first column left-aligned, every other right-aligned to
// its own widest cell, two spaces apart.
void write_columns(const Grid& grid, std::ostream& out);
// A LaTeX tabular (l, then r per other column), the first row ruled off; cells in math mode.
void write_latex(const Grid& grid, std::ostream& out);

}  // namespace rosched::tables

#endif  // ROSCHED_TABLES_GRID_H_
