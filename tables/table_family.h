// The one interface every schedule family gives the tables tool: its name, its help, the
// options it takes, and, for one p, its table checked by a round-by-round run (sim/), rendered
// in a format, with a summary line. tables/main.cc knows no family by name: adding a family is
// a class in tables/<family>_table.cc and one line in tables/table_families.cc.
#ifndef ROSCHED_TABLES_TABLE_FAMILY_H_
#define ROSCHED_TABLES_TABLE_FAMILY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "tables/schedule_table.h"

namespace rosched::tables {

// What the command line says, for any family.
struct TableOptions {
  std::int64_t root = 0;
  std::string construction = "fast";
  std::optional<std::int64_t> blocks;  // --blocks, if given
  // The family's own parameters (TableFamily::params()) as given, by name.
  std::map<std::string, std::string> params;
};

// A parameter of one family, offered as `--<name> <value_name>`; several families may declare
// the same name, each interpreting its value (check_args parses it).
struct TableParam {
  std::string name, value_name, help;
};

struct Printed {
  bool valid = true;    // the round-by-round run found nothing wrong
  std::string summary;  // one line
};

class TableFamily {
 public:
  virtual ~TableFamily() = default;
  // The value of --family.
  virtual std::string name() const = 0;
  // One sentence for the tool's description and one for --family.
  virtual std::string description() const = 0;
  // What the rows or columns are, for --help.
  virtual std::string layout_help() const = 0;
  // Family-specific options it accepts (of "construction", "blocks").
  virtual std::set<std::string> options() const { return {}; }
  // Its own parameters (n, radix, ...); check_args throws std::invalid_argument for a value it
  // cannot take.
  virtual std::vector<TableParam> params() const { return {}; }
  // Throws std::invalid_argument for arguments this family cannot print for p (called for
  // every p before anything is printed). The root is already checked to be in [0, p).
  virtual void check_args(std::int64_t /*p*/, const TableOptions& /*options*/) const {}
  // Builds and checks the table of p, renders it to out.
  virtual Printed print(std::int64_t p, const TableOptions& options, Format format,
                        std::ostream& out) const = 0;
};

// Every family, the default (circulant) first.
std::vector<std::unique_ptr<TableFamily>> table_families();

// One constructor per family.
std::unique_ptr<TableFamily> circulant_tables();
std::unique_ptr<TableFamily> two_tree_tables();
std::unique_ptr<TableFamily> hypercube_tables();
std::unique_ptr<TableFamily> bruck_tables();
std::unique_ptr<TableFamily> merge_tables();  // tables/merge_table.cc
std::unique_ptr<TableFamily> nway_tables();
std::unique_ptr<TableFamily> nway_allgather_tables();  // tables/nway_allgather_table.cc
std::unique_ptr<TableFamily> knomial_tables();
std::unique_ptr<TableFamily> kary_tables();

}  // namespace rosched::tables

#endif  // ROSCHED_TABLES_TABLE_FAMILY_H_
