// The one interface every schedule family gives the verifier: its name, the groups of checks it
// has, the options it takes, and everything it checks for one process count p. verify/main.cc
// knows no family by name: it parses the options, asks the registry (verify/families.h) for the
// family, runs verify_p for every p in parallel and prints what the family's summary says.
//
// Adding a family: a class implementing Family in verify/<family>_family.cc (its checks beside
// it, its round-by-round runner in sim/), and one line in verify/families.cc.
#ifndef ROSCHED_VERIFY_FAMILY_H_
#define ROSCHED_VERIFY_FAMILY_H_

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/counterexample.h"

namespace rosched::verify {

using sim::Counterexample;

// What the command line says, for any family.
struct FamilyOptions {
  std::int64_t from = 1;       // the smallest p of the sweep
  std::int64_t run_to = 0;     // deep checks (round-by-round runs, ...) for p <= run_to
  std::int64_t samples = 64;   // sampled checks above run_to
  std::set<std::string> checks;  // the groups asked for (a subset of Family::check_groups())
  std::string construction = "fast", plugin;
  bool per_rank = false;
  // The family's own parameters (Family::params()) as given on the command line, by name.
  std::map<std::string, std::string> params;
};

// A parameter of one family, offered by verify as `--<name> <value_name>`; several families
// may declare the same name, each interpreting its value (which configure() parses).
struct FamilyParam {
  std::string name, value_name, help;
};

// Up to four timers and one integer statistic per p, summed (timers) or min/maxed (statistic)
// over the sweep; the family names them.
inline constexpr int kTimers = 4;
struct PResult {
  std::optional<Counterexample> counterexample;  // the first check that failed, if any
  std::array<double, kTimers> seconds{};         // thread-seconds per timer
  // A family statistic's range over what was checked for p, e.g. rounds minus a formula.
  struct Range {
    std::int64_t min, max;
  };
  std::optional<Range> statistic;
};

struct Timer {
  std::string label;     // in the summary line, e.g. "construct"
  std::string json_key;  // e.g. "construct_thread_seconds"
};

class Family {
 public:
  virtual ~Family() = default;
  // The value of --family.
  virtual std::string name() const = 0;
  // One paragraph for --help: what is checked.
  virtual std::string help() const = 0;
  // The groups --checks may name, in the order they run.
  virtual std::vector<std::string> check_groups() const = 0;
  // The groups that actually run when `asked` are asked for (a group may need another).
  virtual std::set<std::string> effective_checks(const std::set<std::string>& asked) const {
    return asked;
  }
  // Family-specific options it accepts (of "construction", "per-rank", "plugin", "samples").
  virtual std::set<std::string> options() const { return {}; }
  // Its own parameters (n, radix, variant, ...); configure() throws std::invalid_argument
  // for a value it cannot take.
  virtual std::vector<FamilyParam> params() const { return {}; }
  virtual std::int64_t default_run_to() const = 0;
  // The cost of a p with deep checks relative to one without (for the progress estimate).
  virtual double deep_cost_factor() const = 0;
  // About how many bytes verify_p(p) needs at its peak (measured: peak RSS over p at large p),
  // so that the tool can refuse up front what does not fit in memory.
  virtual std::int64_t bytes_for(std::int64_t p) const = 0;
  // Why these options check nothing for any p in [from, to], or "" if they check something.
  virtual std::string nothing_checked(const FamilyOptions& /*options*/, std::int64_t /*to*/) const {
    return "";
  }

  // Called once before the sweep; throws std::exception with a message for the user on bad
  // options (an unloadable plugin, ...).
  virtual void configure(const FamilyOptions& options) = 0;
  // Everything checked for one p; called from several threads at once.
  virtual PResult verify_p(std::int64_t p) const = 0;

  // The summary: "construction=fast" or "family=twotree"; the timers; the text after the
  // timers for the statistic's range [min, max] (empty if none); the options that reproduce a
  // failure after --from P --to P.
  virtual std::string label() const = 0;
  virtual std::vector<Timer> timers() const = 0;
  virtual std::string statistic_summary(std::int64_t /*min*/, std::int64_t /*max*/,
                                        bool /*all_ok*/) const {
    return "";
  }
  virtual std::string statistic_json_key() const { return ""; }
  virtual std::string reproduce_options() const { return "--family " + name(); }
};

// The interval [from, to) of a check's elapsed time: lap(seconds) adds the time since the
// previous lap (or construction) to seconds.
class Laps {
 public:
  Laps();
  void operator()(double& seconds);

 private:
  std::int64_t start_ns_;
};

// The block counts of the broadcast runs: 1, 2, q - 1, q, q + 1, 3q + 2 (those >= 1, once each).
std::vector<std::int64_t> block_counts(int q);
// The roots of the broadcast runs: 0, p / 2, p - 1 (once each).
std::vector<std::int64_t> roots(std::int64_t p);

}  // namespace rosched::verify

#endif  // ROSCHED_VERIFY_FAMILY_H_
