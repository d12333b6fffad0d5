// tables: prints paper-style schedule tables (seeds/001 Tables 1-5) for given p, or the two
// trees of the two-tree broadcast (seeds/004) with their edge colours.
//
//   bazel run //tables -- --p 20
//   bazel run //tables -- --p 9,31-33 --format tsv --root 3
//   bazel run //tables -- --p 11 --family twotree
//
// Exit status: 0 all schedules valid, 1 a printed schedule is invalid, 2 bad arguments.
#include <boost/program_options.hpp>

#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

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
      "broadcast and reduction (Sanders, Speck, Traff 2009), one row per rank.\n\n"
      "Usage: tables --p LIST [--family circulant|twotree] [--format F] [--root R] "
      "[--construction C]\n\nOptions");
  std::string p_list, format_name = "text", construction_name_arg = "fast", family = "circulant";
  std::int64_t root = 0;
  opts.add_options()("help,h", "print this help and exit")(
      "p", po::value<std::string>(&p_list)->required(),
      "process counts: comma-separated values and ranges, e.g. 20 or 9,31-33 "
      "(each in [1, 100000])")(
      "family", po::value<std::string>(&family)->default_value("circulant"),
      "circulant (receive and send schedules) or twotree (parents, children, edge colours and "
      "first arrival rounds in both trees)")(
      "format", po::value<std::string>(&format_name)->default_value("text"),
      "text (like the paper's tables), tsv, csv, markdown or latex")(
      "root", po::value<std::int64_t>(&root)->default_value(0),
      "broadcast root: columns are real ranks, renumbered from the root")(
      "construction", po::value<std::string>(&construction_name_arg)->default_value("fast"),
      "schedule construction: fast (O(log p) per rank) or paper (Algorithms 4 and 5)");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, opts), vm);
    if (vm.count("help")) {
      std::cout << opts << "\nRows (circulant): rank, baseblock (root: -), recv[0..q-1], "
                           "send[0..q-1]; negative blocks belong to the previous phase.\n"
                           "Columns (twotree): rank, role (root, relay, member), then per tree "
                           "parent, colour (round parity of the edge from the parent), first "
                           "arrival round, children as rank:colour.\n"
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
    if (family != "circulant" && family != "twotree") {
      throw std::invalid_argument("unknown family '" + family + "' (known: circulant, twotree)");
    }
    format = tables::parse_format(format_name);
    construction = parse_construction(construction_name_arg.c_str());
    ps = tables::parse_p_list(p_list, kMaxTableP, kMaxTables);
    for (std::int64_t p : ps) {
      if (root < 0 || root >= p) {
        throw std::invalid_argument("root " + std::to_string(root) + " is outside [0, p) for p = " +
                                    std::to_string(p));
      }
    }
  } catch (const std::invalid_argument& e) {
    std::cerr << "tables: " << e.what() << '\n';
    return 2;
  }
  std::ostream& summary = format == tables::Format::text ? std::cout : std::cerr;
  int status = 0;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    if (i > 0) std::cout << '\n';
    if (family == "twotree") {
      const auto table = tables::make_two_tree_table(ps[i], root);
      tables::render(table, format, std::cout);
      summary << tables::summary_line(table) << '\n';
      continue;
    }
    const auto table = tables::make_table(ps[i], root, construction);
    tables::render(table, format, std::cout);
    summary << tables::summary_line(table) << '\n';
    if (table.violation) status = 1;
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
