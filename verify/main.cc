// verify: exhaustive, OpenMP-parallel checker of the circulant broadcast schedules and the
// all-gather and census rounds (--family circulant), of the two-tree broadcast and reduction
// (--family twotree), or of Bin Jia's hypercube broadcast (--family hypercube), for every p in
// a range.
//
//   bazel run -c opt //verify -- --from 1 --to 100000 [--family twotree|hypercube]
//                                [--construction paper]
//                                [--threads T] [--plugin PATH.so] [--json FILE] [--run-to N]
//
// Exit status: 0 every p verified, 1 some p failed (the first counterexample and the command
// that reproduces it are printed), 2 bad arguments or an unloadable plugin.
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <variant>

#include "sched/skips.h"
#include "verify/progress.h"
#include "verify/schedule_source.h"
#include "verify/verify_p.h"

namespace po = boost::program_options;
using namespace rosched;
using namespace rosched::verify;

namespace {

constexpr int kMaxReported = 20;  // counterexamples kept for the JSON report

struct Options {
  std::int64_t from = 1, to = 1;
  std::string family = "circulant", construction = "fast", plugin, json,
              checks = "schedule,structure,runs";
  int threads = 0;
  bool per_rank = false;
  VerifyOptions verify;
};

// Returns the options, or the exit status to end with.
std::variant<Options, int> parse(int argc, char** argv) {
  Options o;
  po::options_description desc(
      "verify: checks the round-optimal circulant broadcast schedules (Traff 2022) for every p "
      "in [from, to] by symbolic simulation: every rank's receive and send schedule, baseblock "
      "and rangeblocks, the all-gather and census rounds, and (for p <= --run-to) full n-block "
      "broadcasts for n = 1, 2, q-1, q, q+1, 3q+2 and roots 0, p/2, p-1. --family twotree and "
      "--family hypercube check the other two schedule families instead.\n\nOptions");
  desc.add_options()("help,h", "print this help and exit")(
      "family", po::value<std::string>(&o.family)->default_value("circulant"),
      "schedule family: circulant (Traff 2022) or twotree (two-tree broadcast and reduction, "
      "Sanders, Speck, Traff 2009: the trees, the EdgeColor colouring and the reduction order "
      "for every rank; for p <= --run-to also roots p/2 and p-1 and round-by-round broadcast "
      "and reduction runs for the same n; reports broadcast rounds against the lecture's "
      "formula) or hypercube (Bin Jia's broadcast with cooperating pairs: the lecture's "
      "propositions once per floor(log2 p), the units of every p, and full broadcasts for "
      "n = 1, 2, q, q+1, 3q+2: round by round with roots 0, p/2 and p-1 for p <= --run-to, "
      "rank by rank with root 0 above)")(
      "from", po::value<std::int64_t>(&o.from)->default_value(1), "smallest p")(
      "to", po::value<std::int64_t>(&o.to)->required(), "largest p (at most 2^31 - 1)")(
      "construction", po::value<std::string>(&o.construction)->default_value("fast"),
      "built-in construction: fast (O(log p) per rank) or paper (Algorithms 4 and 5)")(
      "per-rank", po::bool_switch(&o.per_rank),
      "build each rank's schedules independently (rank_schedule, as a broadcast does) instead "
      "of the all-ranks construction (full_schedule, as an all-gather-v does)")(
      "plugin", po::value<std::string>(&o.plugin),
      "shared object implementing verify/construction_abi.h (replaces --construction)")(
      "threads", po::value<int>(&o.threads)->default_value(0), "OpenMP threads (0: all cores)")(
      "json", po::value<std::string>(&o.json), "also write the results as JSON to this file")(
      "run-to", po::value<std::int64_t>(&o.verify.run_to),
      "run full broadcasts (and, for twotree, reductions and all three roots) and check "
      "baseblock of every rank and rangeblocks at every start for p up to this bound "
      "(default: 5000 for circulant, 1000 for twotree)")(
      "checks", po::value<std::string>(&o.checks)->default_value(o.checks),
      "comma-separated groups to run: schedule (the construction's schedules), structure "
      "(baseblock, rangeblocks, all-gather, census), runs (full broadcasts, p <= --run-to)")(
      "samples", po::value<std::int64_t>(&o.verify.samples)->default_value(64),
      "above --run-to: ranks and range starts at which baseblock and rangeblocks are checked");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    if (vm.count("help")) {
      std::cout << desc
                << "\nOutput: a progress line on stderr, one summary line on stdout; on failure "
                   "the first counterexample (p, rank, round, expected and actual block) and "
                   "the command that reproduces it.\n"
                   "Exit status: 0 all verified, 1 a p failed, 2 bad arguments.\n";
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "verify: " << e.what() << " (see --help)\n";
    return 2;
  }
  if (o.from < 1 || o.to > kMaxProcesses || o.from > o.to) {
    std::cerr << "verify: need 1 <= from <= to <= 2^31 - 1, got from=" << o.from
              << " to=" << o.to << '\n';
    return 2;
  }
  if (o.family != "circulant" && o.family != "twotree" && o.family != "hypercube") {
    std::cerr << "verify: unknown family '" << o.family
              << "' (known: circulant, twotree, hypercube)\n";
    return 2;
  }
  o.verify.schedule = o.verify.structure = o.verify.runs = false;
  for (std::size_t at = 0; at <= o.checks.size();) {
    const std::size_t comma = std::min(o.checks.find(',', at), o.checks.size());
    const std::string name = o.checks.substr(at, comma - at);
    if (name == "schedule") o.verify.schedule = true;
    else if (name == "structure") o.verify.structure = true;
    else if (name == "runs") o.verify.runs = true;
    else {
      std::cerr << "verify: unknown check group '" << name << "' (known: schedule, structure, runs)\n";
      return 2;
    }
    at = comma + 1;
  }
  if (!vm.count("run-to")) o.verify.run_to = o.family == "circulant" ? 5000 : 1000;
  if (o.threads < 0 || o.verify.run_to < 0 || o.verify.samples < 1) {
    std::cerr << "verify: --threads and --run-to must not be negative, --samples must be positive\n";
    return 2;
  }
  return o;
}

// Relative cost of one p, for the ETA: everything is ~ p q; a p with round-by-round runs
// (p <= --run-to) costs about `runs` times more than one without (measured: circulant 150,
// two-tree 600; the hypercube family runs every p, so 0).
double work_of(std::int64_t p, const VerifyOptions& v, double runs) {
  const double q = ceil_log2(p) + 1;
  return static_cast<double>(p) * q * (1 + (v.runs && p <= v.run_to ? runs : 0));
}

int run(const Options& o) {
  const bool two_tree = o.family == "twotree", hypercube = o.family == "hypercube";
  std::unique_ptr<ScheduleSource> source;
  try {
    if (!two_tree && !hypercube) {
      source = o.plugin.empty()
                   ? builtin_source(parse_construction(o.construction.c_str()), o.per_rank)
                   : plugin_source(o.plugin);
    }
  } catch (const std::exception& e) {
    std::cerr << "verify: " << e.what() << '\n';
    return 2;
  }
  const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
  const std::int64_t count = o.to - o.from + 1;
  const double runs_factor = two_tree ? 600 : hypercube ? 0 : 150;
  double total_work = 0;
  for (std::int64_t p = o.from; p <= o.to; ++p) total_work += work_of(p, o.verify, runs_factor);
  Progress progress(count, total_work, stderr, isatty(STDERR_FILENO) != 0);

  std::vector<Counterexample> failures;
  std::int64_t failed = 0;
  double construct_s = 0, schedule_s = 0, structure_s = 0, run_s = 0;
  std::int64_t excess_min = INT64_MAX, excess_max = INT64_MIN;
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) \
    reduction(+ : construct_s, schedule_s, structure_s, run_s, failed) \
    reduction(min : excess_min) reduction(max : excess_max)
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t p = o.to - i;  // large p first: the longest tasks start early
    // The hypercube's cube propositions depend on floor(log2 p) only: once per power of two.
    const bool cube_checks = p == o.from || (p & (p - 1)) == 0;
    const PResult r = two_tree    ? verify_two_tree_p(p, o.verify)
                      : hypercube ? verify_hypercube_p(p, cube_checks, o.verify)
                                  : verify_p(p, *source, o.verify);
    excess_min = std::min(excess_min, r.rounds_excess_min);
    excess_max = std::max(excess_max, r.rounds_excess_max);
    construct_s += r.construct_seconds;
    schedule_s += r.schedule_seconds;
    structure_s += r.structure_seconds;
    run_s += r.run_seconds;
    if (r.counterexample) {
      ++failed;
#pragma omp critical(failures)
      {
        failures.push_back(*r.counterexample);
        std::sort(failures.begin(), failures.end(),
                  [](const Counterexample& a, const Counterexample& b) { return a.p < b.p; });
        if (failures.size() > kMaxReported) failures.pop_back();
      }
    }
    progress.add(work_of(p, o.verify, runs_factor));
  }
  progress.finish();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (!failures.empty()) {
    const Counterexample& c = failures.front();
    std::cout << "FAILED " << c.describe() << '\n'
              << "reproduce: bazel run -c opt //verify -- --from " << c.p << " --to " << c.p
              << ' ' << (source ? source->command_line() : "--family " + o.family) << '\n';
  }
  const std::string what = two_tree    ? "family=twotree"
                           : hypercube ? "family=hypercube"
                                       : "construction=" + source->name();
  char head[256], tail[256];
  std::snprintf(head, sizeof head,
                "verified p=%lld..%lld %s checks=%s: %lld ok, %lld failed, %.1f s, %d threads "
                "(thread-seconds: ",
                static_cast<long long>(o.from), static_cast<long long>(o.to), what.c_str(),
                o.checks.c_str(), static_cast<long long>(count - failed),
                static_cast<long long>(failed), wall, threads);
  if (two_tree) {
    std::snprintf(tail, sizeof tail,
                  "trees and colouring %.1f, broadcast and reduction runs %.1f); broadcast rounds "
                  "minus the lecture's formula: %lld..%lld",
                  structure_s, run_s, static_cast<long long>(excess_min),
                  static_cast<long long>(excess_max));
  } else if (hypercube) {
    std::snprintf(tail, sizeof tail, "cube propositions and units %.1f, broadcast runs %.1f)%s",
                  structure_s, run_s,
                  failed == 0 && o.verify.runs ? "; every broadcast took n - 1 + ceil(log2 p) rounds" : "");
  } else {
    std::snprintf(tail, sizeof tail,
                  "construct %.1f, schedule check %.1f, structure checks %.1f, broadcast runs %.1f)",
                  construct_s, schedule_s, structure_s, run_s);
  }
  std::cout << head << tail << std::endl;

  if (!o.json.empty()) {
    nlohmann::json j;
    j["from"] = o.from;
    j["to"] = o.to;
    j["family"] = o.family;
    j["construction"] = source ? nlohmann::json(source->name()) : nlohmann::json(nullptr);
    if (two_tree) {
      j["rounds_minus_formula_min"] = excess_min;
      j["rounds_minus_formula_max"] = excess_max;
    }
    j["plugin"] = o.plugin.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.plugin);
    j["threads"] = threads;
    j["run_to"] = o.verify.run_to;
    j["samples"] = o.verify.samples;
    j["checks"] = o.checks;
    j["ok"] = count - failed;
    j["failed"] = failed;
    j["seconds"] = wall;
    j["construct_thread_seconds"] = construct_s;
    j["schedule_check_thread_seconds"] = schedule_s;
    j["structure_check_thread_seconds"] = structure_s;
    j["broadcast_run_thread_seconds"] = run_s;
    j["counterexamples"] = nlohmann::json::array();
    for (const Counterexample& c : failures) {
      j["counterexamples"].push_back({{"check", c.check}, {"kind", c.kind}, {"p", c.p},
                                      {"rank", c.rank}, {"round", c.round},
                                      {"expected", c.expected}, {"actual", c.actual},
                                      {"detail", c.detail}});
    }
    std::ofstream out(o.json);
    out << j.dump(2) << '\n';
    if (!out) {
      std::cerr << "verify: cannot write " << o.json << '\n';
      return 2;
    }
  }
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  const auto parsed = parse(argc, argv);
  if (const int* status = std::get_if<int>(&parsed)) return *status;
  return run(std::get<Options>(parsed));
}
