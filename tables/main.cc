// tables: prints paper-style schedule tables (Träff 2022, Tables 1-5) for given p, the two trees of
// the two-tree broadcast (Träff's lecture notes) with their edge colours, or Bin Jia's hypercube
// broadcast schedule (Träff's lecture notes, "The power of the hypercube: Optimal Broadcast").
//
//   bazel run //tables -- --p 20
//   bazel run //tables -- --p 9,31-33 --format tsv --root 3
//   bazel run //tables -- --p 11 --family twotree
//   bazel run //tables -- --p 8 --family hypercube --blocks 5
//
// Exit status: 0 all schedules valid, 1 a printed schedule is invalid, 2 bad arguments.
#include <boost/program_options.hpp>

#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

#include "tables/hypercube_table.h"
#include "tables/schedule_table.h"
#include "tables/two_tree_table.h"

namespace po = boost::program_options;
using namespace rosched;

namespace {

// One column per rank is printed: beyond this the table is no longer something to read.
constexpr std::int64_t kMaxTableP = 100000;
constexpr std::size_t kMaxTables = 10000;

int run(int argc, char** argv) {
  po::options_description opts(
      "tables: receive and send schedules of the round-optimal circulant broadcast "
      "(Traff 2022), one column per rank; or (--family twotree) the two trees of the two-tree "
      "broadcast and reduction (Sanders, Speck, Traff 2009), one row per rank; or (--family "
      "hypercube) Bin Jia's M - 1 + ceil(log2 p) round hypercube broadcast of M blocks with "
      "cooperating pairs, one column per rank.\n\n"
      "Usage: tables --p LIST [--family circulant|twotree|hypercube] [--format F] [--root R] "
      "[--construction C] [--blocks M]\n\nOptions");
  std::string p_list, format_name = "text", construction_name_arg = "fast", family = "circulant";
  std::int64_t root = 0, blocks = 0;
  opts.add_options()("help,h", "print this help and exit")(
      "p", po::value<std::string>(&p_list)->required(),
      "process counts: comma-separated values and ranges, e.g. 20 or 9,31-33 "
      "(each in [1, 100000])")(
      "family", po::value<std::string>(&family)->default_value("circulant"),
      "circulant (receive and send schedules), twotree (parents, children, edge colours and "
      "first arrival rounds in both trees) or hypercube (units, NEXTBIT, SWITCH, and per round "
      "the blocks sent and received)")(
      "format", po::value<std::string>(&format_name)->default_value("text"),
      "text (like the paper's tables), tsv, csv, markdown or latex")(
      "root", po::value<std::int64_t>(&root)->default_value(0),
      "broadcast root: columns are real ranks, renumbered from the root")(
      "construction", po::value<std::string>(&construction_name_arg)->default_value("fast"),
      "schedule construction: fast (O(log p) per rank) or paper (Algorithms 4 and 5)")(
      "blocks", po::value<std::int64_t>(&blocks),
      "hypercube only: the number M >= 1 of blocks to broadcast (default: floor(log2 p) + 1; "
      "a table has at most 20,000,000 cells, about (4 M + 6 log2 p) p)");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, opts), vm);
    if (vm.count("help")) {
      std::cout << opts << "\nRows (circulant): rank, baseblock (root: -), recv[0..q-1], "
                           "send[0..q-1]; negative blocks belong to the previous phase.\n"
                           "Columns (twotree): rank, role (root, relay, member), then per tree "
                           "parent, colour (round parity of the edge from the parent), first "
                           "arrival round, children as rank:colour.\n"
                           "Rows (hypercube): rank, rep and co (the unit's representative and "
                           "cooperating processor, real ranks), unit (the representative's "
                           "hypercube number in binary), NEXTBIT[0..q-1] and SWITCH[0..q-1] of "
                           "the representative; per round j the lecture's s(rep) j and t(rep) j "
                           "(unclamped; the root never receives), send j as b>r (block b to rank "
                           "r) and recv j as b<r (block b from rank r), - for nothing; the last "
                           "round (p not a power of two) is the exchange inside the pairs.\n"
                           "A summary line per p follows the tables (on stderr for the "
                           "machine-readable formats).\n"
                           "Exit status: 0 valid, 1 a schedule is invalid, 2 bad arguments.\n";
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "tables: " << e.what() << " (see --help)\n";
    return 2;
  }
  tables::Format format;
  Construction construction;
  std::vector<std::int64_t> ps;
  try {
    if (family != "circulant" && family != "twotree" && family != "hypercube") {
      throw std::invalid_argument("unknown family '" + family +
                                  "' (known: circulant, twotree, hypercube)");
    }
    if (vm.count("blocks") && family != "hypercube") {
      throw std::invalid_argument("--blocks is for --family hypercube only");
    }
    format = tables::parse_format(format_name);
    construction = parse_construction(construction_name_arg.c_str());
    ps = tables::parse_p_list(p_list, kMaxTableP, kMaxTables);
    for (std::int64_t p : ps) {
      if (root < 0 || root >= p) {
        throw std::invalid_argument("root " + std::to_string(root) + " is outside [0, p) for p = " +
                                    std::to_string(p));
      }
      if (family == "hypercube") {
        tables::check_hypercube_table_args(
            p, vm.count("blocks") ? blocks : tables::default_hypercube_blocks(p), root);
      }
    }
  } catch (const std::invalid_argument& e) {
    std::cerr << "tables: " << e.what() << '\n';
    return 2;
  }
  std::ostream& summary = format == tables::Format::text ? std::cout : std::cerr;
  int status = 0;
  const auto print = [&](const auto& table) {
    tables::render(table, format, std::cout);
    summary << tables::summary_line(table) << '\n';
  };
  for (std::size_t i = 0; i < ps.size(); ++i) {
    if (i > 0) std::cout << '\n';
    if (family == "twotree") {
      const auto table = tables::make_two_tree_table(ps[i], root);
      print(table);
      if (table.violation) status = 1;
    } else if (family == "hypercube") {
      const std::int64_t m = vm.count("blocks") ? blocks : tables::default_hypercube_blocks(ps[i]);
      const auto table = tables::make_hypercube_table(ps[i], m, root);
      print(table);
      if (table.violation) status = 1;
    } else {
      const auto table = tables::make_table(ps[i], root, construction);
      print(table);
      if (table.violation) status = 1;
    }
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "tables: " << e.what() << '\n';
    return 1;
  }
}
