// verify: exhaustive, OpenMP-parallel checker of the schedule families for every p in a range.
// The families and what each checks are in verify/families.cc; this file knows none by name.
//
//   bazel run -c opt //verify -- --from 1 --to 100000 [--family NAME] [--checks GROUPS]
//                                [--threads T] [--json FILE] [--run-to N] [family options]
//
// Exit status: 0 every p verified, 1 some p failed (the first counterexample and the command
// that reproduces it are printed), 2 bad arguments or an unloadable plugin.
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <new>
#include <nlohmann/json.hpp>
#include <variant>

#include "sched/round.h"
#include "verify/families.h"
#include "verify/progress.h"

namespace po = boost::program_options;
using namespace rosched;
using namespace rosched::verify;

namespace {

constexpr int kMaxReported = 20;  // counterexamples kept for the JSON report
constexpr int kMaxThreads = 4096;
// Memory left for everything but the families' per-p data (the program, OpenMP, the report).
constexpr std::int64_t kBaseBytes = std::int64_t{256} << 20;

std::int64_t machine_bytes() {
  return static_cast<std::int64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
}

// The largest p for which `threads` threads each verifying a p that large fit in 90% of the
// machine's memory.
std::int64_t largest_p(const Family& f, int threads) {
  const std::int64_t budget = machine_bytes() / 10 * 9 - kBaseBytes;
  std::int64_t lo = 1, hi = kMaxProcesses;
  if (f.bytes_for(hi) * threads <= budget) return hi;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (f.bytes_for(mid) * threads <= budget) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

std::string gib(std::int64_t bytes) {
  char out[32];
  std::snprintf(out, sizeof out, "%.1f GiB", static_cast<double>(bytes) / (1 << 30));
  return out;
}

// A relative path given under `bazel run` means one relative to where the user ran it.
std::string from_working_directory(const std::string& path) {
  const char* wd = std::getenv("BUILD_WORKING_DIRECTORY");
  if (path.empty() || path[0] == '/' || !wd || !*wd) return path;
  return std::string(wd) + "/" + path;
}

struct Options {
  std::int64_t to = 1;
  std::string family_name = "circulant", checks, json;
  int threads = 0;
  FamilyOptions family;
  std::unique_ptr<Family> chosen;
};

std::string join(const std::vector<std::string>& names, const char* sep) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : sep) + n;
  return out;
}

// Splits "a,b,c" into the check groups, in the family's order; false on an unknown name.
bool parse_checks(const std::string& list, const Family& f, std::set<std::string>& out,
                  std::string& bad) {
  const std::vector<std::string> known = f.check_groups();
  for (std::size_t at = 0; at <= list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    const std::string name = list.substr(at, comma - at);
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      bad = name;
      return false;
    }
    out.insert(name);
    at = comma + 1;
  }
  return true;
}

// Returns the options, or the exit status to end with.
std::variant<Options, int> parse(int argc, char** argv) {
  Options o;
  std::string families_help, memory_help;
  std::vector<std::string> family_names;
  const int cores = omp_get_max_threads();
  for (const auto& f : all_families()) {
    families_help += "\n  " + f->help() + ";";
    family_names.push_back(f->name());
    memory_help += (memory_help.empty() ? "" : ", ") + f->name() + " " +
                   std::to_string(largest_p(*f, cores)) + " (" + std::to_string(largest_p(*f, 1)) +
                   " with --threads 1)";
  }
  po::options_description desc(
      "verify: checks round-optimal collective schedules by symbolic simulation, for every p "
      "in [from, to]. The families:" + families_help + "\n\nOptions");
  desc.add_options()("help,h", "print this help and exit")(
      "family", po::value<std::string>(&o.family_name)->default_value("circulant"),
      ("schedule family: " + join(family_names, ", ")).c_str())(
      "from", po::value<std::int64_t>(&o.family.from)->default_value(1), "smallest p")(
      "to", po::value<std::int64_t>(&o.to)->required(), "largest p (at most 2^31 - 1)")(
      "construction", po::value<std::string>(&o.family.construction)->default_value("fast"),
      "circulant: built-in construction, fast (O(log p) per rank) or paper (Algorithms 4 and 5)")(
      "per-rank", po::bool_switch(&o.family.per_rank),
      "circulant: build each rank's schedules independently (rank_schedule, as a broadcast "
      "does) instead of the all-ranks construction (full_schedule, as an all-gather-v does)")(
      "plugin", po::value<std::string>(&o.family.plugin),
      "circulant: shared object implementing verify/construction_abi.h (replaces "
      "--construction)")(
      "threads", po::value<int>(&o.threads)->default_value(0), "OpenMP threads (0: all cores)")(
      "json", po::value<std::string>(&o.json), "also write the results as JSON to this file")(
      "run-to", po::value<std::int64_t>(&o.family.run_to),
      "deep checks (round-by-round runs, every rank and range start, all roots) for p up to "
      "this bound (default: 5000 for circulant, 1000 for the others)")(
      "checks", po::value<std::string>(&o.checks),
      "comma-separated groups to run (default: all of the family's): circulant: schedule (the "
      "construction's schedules), structure (baseblock, rangeblocks, all-gather, census), runs "
      "(full broadcasts, p <= --run-to); twotree: structure (trees, colouring, reduction "
      "order), runs (needs structure); hypercube: structure (propositions, units), runs")(
      "samples", po::value<std::int64_t>(&o.family.samples)->default_value(64),
      "circulant, above --run-to: ranks and range starts at which baseblock and rangeblocks "
      "are checked");
  // Every family's own parameters, each name once, its help naming the families.
  std::map<std::string, std::pair<std::string, std::string>> params;  // name -> (value, help)
  for (const auto& f : all_families()) {
    for (const FamilyParam& param : f->params()) {
      auto& [value_name, help] = params[param.name];
      if (value_name.empty()) value_name = param.value_name;
      help += (help.empty() ? "" : "; ") + f->name() + ": " + param.help;
    }
  }
  po::options_description family_desc("Family parameters");
  for (const auto& [name, value_help] : params) {
    family_desc.add_options()(name.c_str(),
                              po::value<std::string>()->value_name(value_help.first),
                              value_help.second.c_str());
  }
  if (!params.empty()) desc.add(family_desc);
  po::variables_map vm;
  try {
    // No positional arguments: a stray word is an error, not silently ignored.
    po::store(po::command_line_parser(argc, argv)
                  .options(desc)
                  .positional(po::positional_options_description())
                  .run(),
              vm);
    if (vm.count("help")) {
      std::cout << desc
                << "\nOutput: a progress line on stderr, one summary line on stdout; on failure "
                   "the first counterexample (p, rank, round, expected and actual block) and "
                   "the command that reproduces it.\n"
                   "Memory: each thread holds one p's data at a time. With "
                << cores << " threads in 90% of this machine's " << gib(machine_bytes())
                << " the largest p is: " << memory_help
                << ". A larger --to is refused before the run.\n"
                   "Exit status: 0 all verified, 1 a p failed (or a plugin crashed), 2 bad "
                   "arguments or an error of the tool (out of memory, unwritable --json).\n";
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "verify: " << e.what() << " (see --help)\n";
    return 2;
  }
  if (o.family.from < 1 || o.to > kMaxProcesses || o.family.from > o.to) {
    std::cerr << "verify: need 1 <= from <= to <= 2^31 - 1, got from=" << o.family.from
              << " to=" << o.to << '\n';
    return 2;
  }
  o.chosen = make_family(o.family_name);
  if (!o.chosen) {
    std::cerr << "verify: unknown family '" << o.family_name << "' (known: "
              << join(family_names, ", ") << ")\n";
    return 2;
  }
  const Family& f = *o.chosen;
  const std::set<std::string> accepted = f.options();
  for (const char* option : {"construction", "per-rank", "plugin", "samples"}) {
    const bool given = vm.count(option) && !vm[option].defaulted();
    if (given && !accepted.count(option)) {
      std::cerr << "verify: --" << option << " does not apply to --family " << f.name() << '\n';
      return 2;
    }
  }
  std::set<std::string> own;
  for (const FamilyParam& param : f.params()) own.insert(param.name);
  for (const auto& [name, value_help] : params) {
    if (!vm.count(name)) continue;
    if (!own.count(name)) {
      std::cerr << "verify: --" << name << " does not apply to --family " << f.name() << '\n';
      return 2;
    }
    o.family.params[name] = vm[name].as<std::string>();
  }
  std::set<std::string> asked;
  std::string bad;
  if (!parse_checks(o.checks.empty() ? join(f.check_groups(), ",") : o.checks, f, asked, bad)) {
    std::cerr << "verify: --family " << f.name() << " has no check group '" << bad
              << "' (it has: " << join(f.check_groups(), ", ") << ")\n";
    return 2;
  }
  o.family.checks = f.effective_checks(asked);
  if (!vm.count("run-to")) o.family.run_to = f.default_run_to();
  if (o.threads < 0 || o.threads > kMaxThreads) {
    std::cerr << "verify: --threads " << o.threads << " is outside [0, " << kMaxThreads
              << "] (0: all cores)\n";
    return 2;
  }
  if (o.family.run_to < 0 || o.family.samples < 1) {
    std::cerr << "verify: --run-to " << o.family.run_to << " must not be negative and --samples "
              << o.family.samples << " must be positive\n";
    return 2;
  }
  if (vm.count("plugin") && o.family.plugin.empty()) {
    std::cerr << "verify: --plugin needs the path of a shared object\n";
    return 2;
  }
  if (vm.count("json") && o.json.empty()) {
    std::cerr << "verify: --json needs a file name\n";
    return 2;
  }
  o.family.plugin = from_working_directory(o.family.plugin);
  o.json = from_working_directory(o.json);
  if (const std::string why = f.nothing_checked(o.family, o.to); !why.empty()) {
    std::cerr << "verify: " << why << '\n';
    return 2;
  }
  const int threads = o.threads > 0 ? o.threads : cores;
  const std::int64_t fits = largest_p(f, std::min<std::int64_t>(threads, o.to - o.family.from + 1));
  if (o.to > fits) {
    std::cerr << "verify: --family " << f.name() << " at p = " << o.to << " needs about "
              << gib(f.bytes_for(o.to)) << " per thread; with " << threads
              << " thread(s) this machine's " << gib(machine_bytes())
              << " allow p up to " << fits << " (see --help)\n";
    return 2;
  }
  if (!o.json.empty() && !std::ofstream(o.json)) {
    std::cerr << "verify: cannot write --json " << o.json << " (" << std::strerror(errno) << ")\n";
    return 2;
  }
  return o;
}

// Relative cost of one p, for the ETA: everything is ~ p q; a p with deep checks costs about
// `deep` times more than one without.
double work_of(std::int64_t p, const FamilyOptions& o, double deep) {
  const double q = ceil_log2(p) + 1;
  return static_cast<double>(p) * q * (1 + (o.checks.count("runs") && p <= o.run_to ? deep : 0));
}

// The groups that ran, in the family's order.
std::string checks_ran(const Family& f, const std::set<std::string>& ran) {
  std::vector<std::string> out;
  for (const std::string& g : f.check_groups()) {
    if (ran.count(g)) out.push_back(g);
  }
  return join(out, ",");
}

int run(Options& o) {
  Family& family = *o.chosen;
  try {
    family.configure(o.family);
  } catch (const std::exception& e) {
    std::cerr << "verify: " << e.what() << '\n';
    return 2;
  }
  const std::int64_t from = o.family.from;
  const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
  const std::int64_t count = o.to - from + 1;
  const double deep = family.deep_cost_factor();
  double total_work = 0;
  for (std::int64_t p = from; p <= o.to; ++p) total_work += work_of(p, o.family, deep);
  Progress progress(count, total_work, stderr, isatty(STDERR_FILENO) != 0);

  std::vector<Counterexample> failures;
  std::int64_t failed = 0;
  std::string tool_error;  // an error of the tool, not of a schedule (e.g. out of memory)
  double t0 = 0, t1 = 0, t2 = 0, t3 = 0;
  std::int64_t stat_min = INT64_MAX, stat_max = INT64_MIN;
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) \
    reduction(+ : t0, t1, t2, t3, failed) reduction(min : stat_min) reduction(max : stat_max)
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t p = o.to - i;  // large p first: the longest tasks start early
    PResult r;
    try {
      r = family.verify_p(p);
    } catch (const std::bad_alloc&) {
#pragma omp critical(tool_error)
      tool_error = "out of memory at p = " + std::to_string(p) + " (about " +
                   gib(family.bytes_for(p)) + " per thread; try fewer --threads)";
    } catch (const std::exception& e) {
#pragma omp critical(tool_error)
      tool_error = "p = " + std::to_string(p) + ": " + e.what();
    }
    t0 += r.seconds[0];
    t1 += r.seconds[1];
    t2 += r.seconds[2];
    t3 += r.seconds[3];
    if (r.statistic) {
      stat_min = std::min(stat_min, r.statistic->min);
      stat_max = std::max(stat_max, r.statistic->max);
    }
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
    progress.add(work_of(p, o.family, deep));
  }
  progress.finish();
  if (!tool_error.empty()) {
    std::cerr << "verify: " << tool_error << '\n';
    return 2;
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double seconds[kTimers] = {t0, t1, t2, t3};

  if (!failures.empty()) {
    const Counterexample& c = failures.front();
    std::cout << "FAILED " << c.describe() << '\n'
              << "reproduce: bazel run -c opt //verify -- --from " << c.p << " --to " << c.p
              << ' ' << family.reproduce_options() << '\n';
  }
  const std::string ran = checks_ran(family, o.family.checks);
  const std::vector<Timer> timers = family.timers();
  char head[256];
  std::snprintf(head, sizeof head,
                "verified p=%lld..%lld %s checks=%s: %lld ok, %lld failed, %.1f s, %d threads "
                "(thread-seconds: ",
                static_cast<long long>(from), static_cast<long long>(o.to),
                family.label().c_str(), ran.c_str(), static_cast<long long>(count - failed),
                static_cast<long long>(failed), wall, threads);
  std::string line = head;
  for (std::size_t t = 0; t < timers.size(); ++t) {
    char figure[32];
    std::snprintf(figure, sizeof figure, " %.1f", seconds[t]);
    line += (t ? ", " : "") + timers[t].label + figure;
  }
  line += ")";
  const bool any_statistic = stat_min <= stat_max;
  line += family.statistic_summary(any_statistic ? stat_min : 0, any_statistic ? stat_max : 0,
                                   failed == 0);
  std::cout << line << std::endl;
  if (!std::cout) {
    std::cerr << "verify: cannot write the summary (" << std::strerror(errno) << ")\n";
    return failed ? 1 : 2;
  }

  if (!o.json.empty()) {
    nlohmann::json j;
    j["from"] = from;
    j["to"] = o.to;
    j["family"] = family.name();
    j["label"] = family.label();
    j["plugin"] = o.family.plugin.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.family.plugin);
    j["threads"] = threads;
    j["run_to"] = o.family.run_to;
    j["samples"] = o.family.samples;
    j["checks"] = ran;
    j["ok"] = count - failed;
    j["failed"] = failed;
    j["seconds"] = wall;
    for (std::size_t t = 0; t < timers.size(); ++t) j[timers[t].json_key] = seconds[t];
    if (any_statistic && !family.statistic_json_key().empty()) {
      j[family.statistic_json_key() + "_min"] = stat_min;
      j[family.statistic_json_key() + "_max"] = stat_max;
    }
    j["counterexamples"] = nlohmann::json::array();
    for (const Counterexample& c : failures) {
      nlohmann::json one = {{"check", c.check}, {"kind", c.kind}, {"p", c.p},
                            {"rank", c.rank},   {"round", c.round}, {"detail", c.detail}};
      if (c.has_values) {
        one["expected"] = c.expected;
        one["actual"] = c.actual;
      }
      j["counterexamples"].push_back(one);
    }
    std::ofstream out(o.json);
    out << j.dump(2) << '\n';
    out.flush();
    if (!out) {
      std::cerr << "verify: cannot write " << o.json << '\n';
      return failed ? 1 : 2;  // a failed verification stays a failure
    }
  }
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  auto parsed = parse(argc, argv);
  if (const int* status = std::get_if<int>(&parsed)) return *status;
  return run(std::get<Options>(parsed));
}
