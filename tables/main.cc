// tables: prints paper-style schedule tables for given p: the circulant broadcast's receive and
// send schedules (Träff 2022, Tables 1-5), the two trees of the two-tree broadcast with their
// edge colours, or Bin Jia's hypercube broadcast schedule. The families are in
// tables/table_families.cc; this file knows none by name. Every table is checked by a
// round-by-round run before it is printed.
//
//   bazel run //tables -- --p 20
//   bazel run //tables -- --p 9,31-33 --format tsv --root 3
//   bazel run //tables -- --p 11 --family twotree
//   bazel run //tables -- --p 8 --family hypercube --blocks 5
//
// Exit status: 0 all schedules valid, 1 a printed schedule is invalid, 2 bad arguments.
#include <boost/program_options.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "tables/table_family.h"

namespace po = boost::program_options;
using namespace rosched;

namespace {

// One column per rank is printed: beyond this the table is no longer something to read.
constexpr std::int64_t kMaxTableP = 100000;
constexpr std::size_t kMaxTables = 10000;
// Above this many rank columns in all (the sum of the p listed), --large must be given.
constexpr std::int64_t kLargeColumns = 1000000;

int run(int argc, char** argv) {
  const auto families = tables::table_families();
  std::string descriptions, names, layouts;
  for (const auto& f : families) {
    descriptions += "\n  " + f->description() + ";";
    names += (names.empty() ? "" : "|") + f->name();
    layouts += f->layout_help() + "\n";
  }
  po::options_description opts(
      "tables: schedule tables of the round-optimal collective schedule families, checked by "
      "a round-by-round run before printing. The families:" + descriptions +
      "\n\nUsage: tables --p LIST [--family " + names +
      "] [--format F] [--root R] [--construction C] [--blocks M]\n\nOptions");
  std::string p_list, format_name = "text", family_name = "circulant";
  tables::TableOptions options;
  std::int64_t blocks = 0;
  bool large = false;
  opts.add_options()("help,h", "print this help and exit")(
      "p", po::value<std::string>(&p_list)->required(),
      "process counts: comma-separated values and ranges, e.g. 20 or 9,31-33 "
      "(each in [1, 100000])")(
      "family", po::value<std::string>(&family_name)->default_value("circulant"),
      ("schedule family: " + names).c_str())(
      "format", po::value<std::string>(&format_name)->default_value("text"),
      "text (like the paper's tables), tsv, csv, markdown or latex")(
      "root", po::value<std::int64_t>(&options.root)->default_value(0),
      "broadcast root: columns are real ranks, renumbered from the root")(
      "construction", po::value<std::string>(&options.construction)->default_value("fast"),
      "circulant only: schedule construction, fast (O(log p) per rank) or paper (Algorithms 4 "
      "and 5)")(
      "blocks", po::value<std::int64_t>(&blocks),
      "hypercube only: the number M >= 1 of blocks to broadcast (default: floor(log2 p) + 1; "
      "a table has at most 20,000,000 cells, about (4 M + 6 log2 p) p)")(
      "large", po::bool_switch(&large),
      "allow more than 1,000,000 rank columns in all (the sum of the p listed; e.g. --p "
      "1-2000 has 2,001,000)");
  // Every family's own parameters, each name once, its help naming the families.
  std::map<std::string, std::pair<std::string, std::string>> params;  // name -> (value, help)
  for (const auto& f : families) {
    for (const tables::TableParam& param : f->params()) {
      auto& [value_name, help] = params[param.name];
      if (value_name.empty()) value_name = param.value_name;
      help += (help.empty() ? "" : "; ") + f->name() + ": " + param.help;
    }
  }
  po::options_description family_opts("Family parameters");
  for (const auto& [name, value_help] : params) {
    family_opts.add_options()(name.c_str(),
                              po::value<std::string>()->value_name(value_help.first),
                              value_help.second.c_str());
  }
  if (!params.empty()) opts.add(family_opts);
  po::variables_map vm;
  try {
    // No positional arguments: a stray word is an error, not silently ignored.
    po::store(po::command_line_parser(argc, argv)
                  .options(opts)
                  .positional(po::positional_options_description())
                  .run(),
              vm);
    if (vm.count("help")) {
      std::cout << opts << '\n'
                << layouts
                << "A summary line per p follows the tables (on stderr for the "
                   "machine-readable formats).\n"
                   "Exit status: 0 valid, 1 a schedule is invalid, 2 bad arguments.\n";
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "tables: " << e.what() << " (see --help)\n";
    return 2;
  }
  const tables::TableFamily* family = nullptr;
  for (const auto& f : families) {
    if (f->name() == family_name) family = f.get();
  }
  tables::Format format;
  std::vector<std::int64_t> ps;
  try {
    if (!family) {
      std::string known;
      for (const auto& f : families) known += (known.empty() ? "" : ", ") + f->name();
      throw std::invalid_argument("unknown family '" + family_name + "' (known: " + known + ")");
    }
    for (const char* option : {"construction", "blocks"}) {
      if (vm.count(option) && !vm[option].defaulted() && !family->options().count(option)) {
        throw std::invalid_argument(std::string("--") + option + " does not apply to --family " +
                                    family->name());
      }
    }
    if (vm.count("blocks")) options.blocks = blocks;
    std::set<std::string> own;
    for (const tables::TableParam& param : family->params()) own.insert(param.name);
    for (const auto& [name, value_help] : params) {
      if (!vm.count(name)) continue;
      if (!own.count(name)) {
        throw std::invalid_argument("--" + name + " does not apply to --family " +
                                    family->name());
      }
      options.params[name] = vm[name].as<std::string>();
    }
    format = tables::parse_format(format_name);
    ps = tables::parse_p_list(p_list, kMaxTableP, kMaxTables);
    std::int64_t columns = 0;
    for (std::int64_t p : ps) columns += p;
    if (columns > kLargeColumns && !large) {
      throw std::invalid_argument("--p " + p_list + " asks for " + std::to_string(columns) +
                                  " rank columns in all, more than " +
                                  std::to_string(kLargeColumns) + "; add --large to print them");
    }
    for (std::int64_t p : ps) {
      if (options.root < 0 || options.root >= p) {
        throw std::invalid_argument("root " + std::to_string(options.root) +
                                    " is outside [0, p) for p = " + std::to_string(p));
      }
      family->check_args(p, options);
    }
  } catch (const std::invalid_argument& e) {
    std::cerr << "tables: " << e.what() << '\n';
    return 2;
  }
  std::ostream& summary = format == tables::Format::text ? std::cout : std::cerr;
  int status = 0;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    if (i > 0) std::cout << '\n';
    const tables::Printed printed = family->print(ps[i], options, format, std::cout);
    summary << printed.summary << '\n';
    if (!printed.valid) status = 1;
  }
  std::cout.flush();
  if (!std::cout || !summary.flush()) {
    std::cerr << "tables: cannot write the output (" << std::strerror(errno) << ")\n";
    return status == 1 ? 1 : 2;
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
