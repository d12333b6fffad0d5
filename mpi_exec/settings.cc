#include "mpi_exec/settings.h"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <utility>

#include "mpi_exec/rosched_mpi.h"

namespace rosched::mpi {
namespace {

// The number in environment variable `name`, its text in `text`: nullopt where it is unset or
// empty, NaN where the text is not a number from its start to its end.
std::optional<double> env_number(const char* name, const char*& text) {
  text = std::getenv(name);
  if (!text || !*text) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  return end != text && *end == '\0' ? value : std::nan("");
}

// A positive number into `factor`; unset or empty leaves it as it is, anything else too, with a
// warning on stderr.
void read_factor(const char* name, double& factor) {
  const char* text = nullptr;
  const std::optional<double> value = env_number(name, text);
  if (!value) return;
  if (*value > 0) {
    factor = *value;
    return;
  }
  std::fprintf(stderr, "rosched: %s=%s is not a positive number; ignored\n", name, text);
}

// A whole number in [lo, hi] into `value`; unset or empty leaves it as it is, anything else (not
// a number, a fraction, out of range) too, with a warning on stderr.
void read_whole(const char* name, int lo, int hi, int& value) {
  const char* text = nullptr;
  const std::optional<double> read = env_number(name, text);
  if (!read) return;
  if (*read >= lo && *read <= hi && *read == static_cast<int>(*read)) {
    value = static_cast<int>(*read);
    return;
  }
  std::fprintf(stderr, "rosched: %s=%s is not a whole number from %d to %d; ignored\n", name, text,
               lo, hi);
}

// The text of environment variable `name` where it names a value; nullptr where it is unset,
// empty or "auto" (the default kept).
const char* named_text(const char* name) {
  const char* text = std::getenv(name);
  return !text || !*text || std::strcmp(text, "auto") == 0 ? nullptr : text;
}

// One of the values `names` names into `value`; unset, empty or "auto" leaves it as it is,
// any other text too, with a warning on stderr (`listing`: the names taken).
template <typename Value>
void read_named(const char* name, std::initializer_list<std::pair<const char*, Value>> names,
                const char* listing, Value& value) {
  const char* text = named_text(name);
  if (!text) return;
  for (const auto& [known, named] : names) {
    if (std::strcmp(text, known) == 0) {
      value = named;
      return;
    }
  }
  std::fprintf(stderr, "rosched: %s=%s is not %s; using auto\n", name, text, listing);
}

Settings::Choice read_choice(const char* name) {
  Settings::Choice choice = Settings::Choice::kAuto;
  read_named(name,
             {{"model", Settings::Choice::kModel},
              {"rosched", Settings::Choice::kRosched},
              {"circulant", Settings::Choice::kRosched},
              {"native", Settings::Choice::kNative}},
             "auto, model, rosched (circulant) or native", choice);
  return choice;
}

// ROSCHED_NWAY_RULE into `rule` by the names the schedule takes (parse_nway_rule); unset, empty
// or "auto" leaves it as it is, any other text too, with a warning on stderr.
void read_nway_rule(NwayRule& rule) {
  const char* text = named_text("ROSCHED_NWAY_RULE");
  if (!text) return;
  try {
    rule = parse_nway_rule(text);
  } catch (const std::invalid_argument&) {
    std::fprintf(stderr, "rosched: ROSCHED_NWAY_RULE=%s is not %s; using %s\n", text,
                 nway_rule_listing().c_str(), nway_rule_name(rule));
  }
}

}  // namespace

Settings settings_from_environment() {
  Settings s;
  s.debug = env_flag("ROSCHED_DEBUG");
  s.verbose = env_flag("ROSCHED_VERBOSE");
  s.bcast = read_choice("ROSCHED_BCAST");
  s.reduce = read_choice("ROSCHED_REDUCE");
  s.allreduce = read_choice("ROSCHED_ALLREDUCE");
  s.allgather = read_choice("ROSCHED_ALLGATHER");
  s.allgatherv = read_choice("ROSCHED_ALLGATHERV");
  s.reduce_scatter = read_choice("ROSCHED_REDUCE_SCATTER");
  s.alltoall = read_choice("ROSCHED_ALLTOALL");
  s.alltoallv = read_choice("ROSCHED_ALLTOALLV");
  s.allmerge = read_choice("ROSCHED_ALLMERGE");
  read_factor("ROSCHED_BCAST_F", s.bcast_f);
  read_factor("ROSCHED_ALPHA", s.alpha);
  read_factor("ROSCHED_BETA", s.beta);
  read_whole("ROSCHED_WINDOW", 1, 64, s.window);
  read_named("ROSCHED_SENDS",
             {{"sync", Settings::Sends::kSynchronous}, {"eager", Settings::Sends::kEager}},
             "auto, sync or eager", s.sends);
  read_whole("ROSCHED_NODE_SIZE", 1, 1 << 30, s.node_size);
  read_factor("ROSCHED_TWOTREE_F", s.twotree_f);
  read_factor("ROSCHED_HYPERCUBE_F", s.hypercube_f);
  read_factor("ROSCHED_KARY_F", s.kary_f);
  read_whole("ROSCHED_KARY_DEGREE", 2, 64, s.kary_degree);
  read_factor("ROSCHED_ALLGATHERV_G", s.allgatherv_g);
  read_factor("ROSCHED_STREAM_PART", s.stream_part);
  read_whole("ROSCHED_NWAY_N", 1, 64, s.nway_n);
  read_whole("ROSCHED_BCAST_PORTS", 1, 64, s.bcast_ports);
  read_whole("ROSCHED_REDUCE_PORTS", 1, 64, s.reduce_ports);
  read_whole("ROSCHED_LANE_CHUNKS", 1, 64, s.lane_chunks);
  read_named("ROSCHED_NODE_REDUCE",
             {{"lanes", Settings::NodeReduce::kLanes}, {"gather", Settings::NodeReduce::kGather}},
             "auto, lanes or gather", s.node_reduce);
  read_nway_rule(s.nway_rule);
  if (const char* v = std::getenv("ROSCHED_ALLTOALL_VARIANT")) s.alltoall_variant = v;
  if (const char* keep = std::getenv("ROSCHED_SCRATCH_KEEP"); keep && *keep) {
    if (!parse_bytes(keep, &s.scratch_keep)) {
      std::fprintf(stderr,
                   "rosched: ROSCHED_SCRATCH_KEEP=%s is not a byte count (digits, optionally "
                   "followed by K, M or G); keeping the default, %zuM\n",
                   keep, Settings::kDefaultScratchKeep >> 20);
    }
  }
  return s;
}

bool parse_bytes(const char* text, std::size_t* bytes) {
  constexpr std::uint64_t kMost = std::uint64_t{1} << 60;
  std::uint64_t value = 0;
  const char* c = text;
  if (*c < '0' || *c > '9') return false;
  for (; *c >= '0' && *c <= '9'; ++c) {
    value = value * 10 + static_cast<std::uint64_t>(*c - '0');
    if (value > kMost) return false;
  }
  int shift = 0;
  if (*c == 'K' || *c == 'k') shift = 10;
  if (*c == 'M' || *c == 'm') shift = 20;
  if (*c == 'G' || *c == 'g') shift = 30;
  if (shift != 0) ++c;
  if (*c != '\0' || value > (kMost >> shift)) return false;
  *bytes = static_cast<std::size_t>(value << shift);
  return true;
}

bool env_flag(const char* name) {
  const char* text = std::getenv(name);
  return text && *text && std::strcmp(text, "0") != 0;
}

const Settings& settings() {
  static const Settings cached = settings_from_environment();  // thread-safe, once
  return cached;
}

std::atomic<int> debug_state{-1};

bool debug_checks_first() {
  int expected = -1;
  debug_state.compare_exchange_strong(expected, settings().debug ? 1 : 0,
                                      std::memory_order_relaxed);
  return debug_state.load(std::memory_order_relaxed) == 1;
}

}  // namespace rosched::mpi

extern "C" void Rosched_Set_debug(int on) {
  rosched::mpi::debug_state.store(on ? 1 : 0, std::memory_order_relaxed);
}
