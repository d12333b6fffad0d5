// The routing rule of the interposition library (policy.h).
#include "pmpi/policy.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace rosched::pmpi {
namespace {

constexpr std::array<const char*, kCollectives> kNames = {
    "bcast", "allgather", "allgatherv", "reduce", "allreduce", "alltoall", "alltoallv",
    "reduce_scatter_block", "reduce_scatter"};

// The auto defaults (policy.h): kUnset, rosched's entry point chooses (kModel); else bytes from
// which (or up to which) rosched runs, each the geometric middle of the last size measured
// slower and the first measured faster, so that a message of a measured size rounded down to
// whole elements routes as measured.
constexpr std::array<std::int64_t, kCollectives> kDefaultThreshold = {
    Controls::kUnset,        // bcast: Rosched_Bcast's own choice
    Controls::kUnset,        // allgather: Rosched_Allgather's own choice
    Controls::kUnset,        // allgatherv: Rosched_Allgatherv's own choice
    Controls::kUnset,        // reduce: Rosched_Reduce's own choice
    2048,                    // allreduce: up to 2 KiB
    Controls::kUnset,        // alltoall: Rosched_Alltoall's own choice
    Controls::kUnset,        // alltoallv: Rosched_Alltoallv's own choice
    Controls::kUnset,   // reduce_scatter_block: Rosched_Reduce_scatter_block's own choice
    Controls::kUnset};  // reduce_scatter: Rosched_Reduce_scatter's own choice

// Collectives whose rule is "up to" rather than "from".
bool rule_is_up_to(Collective c) {
  return c == Collective::kAllreduce || c == Collective::kAlltoall ||
         c == Collective::kAlltoallv;
}

int index_of(Collective c) { return static_cast<int>(c); }

// Whether MPI requires the same datatype (not only the same type signature) on every rank.
bool same_datatype_everywhere(Collective c) {
  return c == Collective::kReduce || c == Collective::kAllreduce ||
         c == Collective::kReduceScatterBlock || c == Collective::kReduceScatter;
}

// The collective named `word` (kCollectives if none).
int find_collective(const std::string& word) {
  for (int i = 0; i < kCollectives; ++i) {
    if (word == kNames[static_cast<std::size_t>(i)]) return i;
  }
  return kCollectives;
}

// Splits "a,b,c" (empty items are errors).
template <typename Each>
std::string for_each_item(const char* variable, const char* list, Each&& each) {
  std::string text(list);
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
    if (item.empty()) return std::string(variable) + ": empty item in '" + text + "'";
    std::string error = each(item);
    if (!error.empty()) return std::string(variable) + ": " + error;
    if (comma == std::string::npos) return "";
    start = comma + 1;
  }
}

std::string known_names() {
  std::string names;
  for (const char* n : kNames) names += std::string(names.empty() ? "" : ", ") + n;
  return names;
}

// The rosched algorithm a collective runs when routed to rosched.
Route rosched_route(Collective c, const CallFacts& facts, std::int64_t nway_limit) {
  switch (c) {
    case Collective::kBcast:
    case Collective::kAllgather:
    case Collective::kAllgatherv: return Route::kCirculant;
    case Collective::kReduce: return Route::kTwoTree;
    case Collective::kAllreduce:
      // The n-way allreduce needs a commutative operation and is meant for short vectors; longer
      // ones take Rosched_Allreduce_node_aware: the lane all-reduces on equal multicore nodes,
      // else the two-tree allreduce (reduce to rank 0, then broadcast; keeps rank order).
      return facts.commutative && facts.bytes <= nway_limit ? Route::kNway : Route::kTwoTree;
    case Collective::kAlltoall:
    case Collective::kAlltoallv: return Route::kBruck;
    case Collective::kReduceScatterBlock:
    case Collective::kReduceScatter:
      return facts.commutative ? Route::kCirculant : Route::kNative;
  }
  return Route::kNative;
}

}  // namespace

const char* collective_name(Collective c) { return kNames[static_cast<std::size_t>(c)]; }

const char* route_name(Route r) {
  static constexpr std::array<const char*, kRoutes> names = {
      "native", "circulant", "twotree", "nway", "bruck", "hypercube", "model", "largest",
      "karytree", "nodeaware", "knomial", "census", "rsag", "scatterag", "linear"};
  return names[static_cast<std::size_t>(r)];
}

Route chosen_route(Collective c, int algorithm) {
  using R = Route;
  static constexpr std::array<R, 7> bcast = {R::kNative,  R::kCirculant, R::kHypercube,
                                             R::kTwoTree, R::kKaryTree,  R::kScatterAllgather,
                                             R::kKnomial};
  static constexpr std::array<R, 3> allgather = {R::kNative, R::kCirculant, R::kNway};
  static constexpr std::array<R, 4> allgatherv = {R::kNative, R::kCirculant, R::kLargest, R::kNway};
  static constexpr std::array<R, 7> reduce = {R::kNative,       R::kKnomial,   R::kTwoTree,
                                              R::kNodeAware,    R::kCirculant, R::kScatterGather,
                                              R::kScatterGather};
  static constexpr std::array<R, 9> allreduce = {R::kNative,    R::kCensus,  R::kScatterGather,
                                                 R::kNodeAware, R::kNway,    R::kTwoTree,
                                                 R::kNodeAware, R::kKnomial, R::kScatterGather};
  static constexpr std::array<R, 5> reduce_scatter = {R::kNative, R::kCirculant, R::kNodeAware,
                                                      R::kNway, R::kNway};
  static constexpr std::array<R, 3> alltoall = {R::kNative, R::kBruck, R::kLinear};
  const auto pick = [algorithm](const auto& answers) {
    return algorithm >= 0 && algorithm < static_cast<int>(answers.size()) ? answers[algorithm]
                                                                           : R::kModel;
  };
  switch (c) {
    case Collective::kBcast: return pick(bcast);
    case Collective::kAllgather: return pick(allgather);
    case Collective::kAllgatherv: return pick(allgatherv);
    case Collective::kReduce: return pick(reduce);
    case Collective::kAllreduce: return pick(allreduce);
    case Collective::kReduceScatterBlock:
    case Collective::kReduceScatter: return pick(reduce_scatter);
    case Collective::kAlltoall:
    case Collective::kAlltoallv: return pick(alltoall);
  }
  return R::kModel;
}

std::string parse_controls(const char* mode, const char* only, const char* threshold,
                           Controls& controls) {
  Controls parsed = controls;
  if (mode != nullptr && *mode != '\0') {
    const std::string m(mode);
    if (m == "auto") parsed.mode = Mode::kAuto;
    else if (m == "off") parsed.mode = Mode::kOff;
    else if (m == "force") parsed.mode = Mode::kForce;
    else return "ROSCHED_PMPI: '" + m + "' is not one of auto, off, force";
  }
  if (only != nullptr && *only != '\0') {
    parsed.enabled.fill(false);
    std::string error = for_each_item("ROSCHED_PMPI_ONLY", only, [&](const std::string& item) {
      const int i = find_collective(item);
      if (i == kCollectives) return "'" + item + "' is not a collective (" + known_names() + ")";
      parsed.enabled[static_cast<std::size_t>(i)] = true;
      return std::string();
    });
    if (!error.empty()) return error;
  }
  if (threshold != nullptr && *threshold != '\0') {
    std::string error =
        for_each_item("ROSCHED_PMPI_THRESHOLD", threshold, [&](const std::string& item) {
          const std::size_t eq = item.find('=');
          if (eq == std::string::npos) return "'" + item + "' is not collective=bytes";
          const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
          const int i = find_collective(name);
          if (i == kCollectives) return "'" + name + "' is not a collective (" + known_names() + ")";
          if (static_cast<Collective>(i) == Collective::kAlltoallv) {
            return std::string("alltoallv takes no threshold (its sizes differ between ranks; "
                               "ROSCHED_PMPI=force routes it)");
          }
          std::int64_t bytes = Controls::kNever;
          if (value != "never") {
            errno = 0;
            char* end = nullptr;
            const long long v = std::strtoll(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0' || errno != 0 || v < 0) {
              return "'" + value + "' (for " + name + ") is not a byte count >= 0 or 'never'";
            }
            bytes = v;
          }
          parsed.threshold[static_cast<std::size_t>(i)] = bytes;
          return std::string();
        });
    if (!error.empty()) return error;
  }
  controls = parsed;
  return "";
}

Route decide(Collective c, const CallFacts& facts, const Controls& controls) {
  const std::size_t i = static_cast<std::size_t>(index_of(c));
  if (facts.intercomm || controls.mode == Mode::kOff || !controls.enabled[i]) return Route::kNative;
  std::int64_t t = controls.threshold[i];
  if (t == Controls::kUnset) t = kDefaultThreshold[i];
  // Up to this size an allreduce routed to rosched is the n-way one (force included; "never"
  // keeps the default limit). Only the allreduce's route uses it.
  const std::int64_t nway_limit = t >= 0 ? t : kDefaultThreshold[i];
  if (controls.mode == Mode::kForce) return rosched_route(c, facts, nway_limit);
  // Gaps only keep a reduction with the library: MPI gives every rank of a reduction the same
  // datatype, while the gathers' and exchanges' ranks may lay the same type signature out each
  // in its own way (a root's strided column, the others' contiguous rows), and a route that
  // followed one rank's layout would send its ranks into different collectives.
  // An all-to-allv's bytes are this rank's only (its counts are its own): they do not decide.
  const bool no_data = c != Collective::kAlltoallv && facts.bytes <= 0;
  if (facts.p < 2 || no_data || (!facts.contiguous && same_datatype_everywhere(c))) {
    return Route::kNative;
  }
  // Two processes: every algorithm reduces by one message (reduce) or one exchange
  // (allreduce), so rosched has no round to save and only fixed costs differ (Open MPI 4.1,
  // p = 2: the two-tree reduction 1.2-2.9x and the n-way allreduce 1.6-3.0x of the library's
  // time, results/collectives_p2_local.tsv). The default rule keeps the reduction and the
  // n-way range of the all-reduce with the MPI library; above that range a commutative
  // all-reduce goes to Rosched_Allreduce, whose trial times the census, one exchange of the
  // whole vector with no copy, against the library's (0.43-0.54 of Open MPI 4.1's time at
  // 64 KiB-1 MiB on kept buffers; docs/perf.md, "Buffers made per call"). An explicit threshold
  // decides for itself.
  const bool one_exchange = c == Collective::kReduce || c == Collective::kAllreduce;
  if (facts.p == 2 && one_exchange && controls.threshold[i] == Controls::kUnset) {
    const bool census_range =
        c == Collective::kAllreduce && facts.commutative && facts.bytes > nway_limit;
    return census_range ? Route::kModel : Route::kNative;
  }
  if (t == Controls::kUnset) return Route::kModel;  // no rule set and none by default
  if (t == Controls::kNever) return Route::kNative;
  const bool wins = rule_is_up_to(c) ? facts.bytes <= t : facts.bytes >= t;
  // On equal multicore nodes, by default: Rosched_Allreduce_node_aware, whose lane all-reduces
  // were measured faster than the libraries' at every size.
  if (facts.equal_nodes && uses_node_facts(c, facts, controls)) return Route::kNodeAware;
  // Above the n-way range elsewhere, by default: Rosched_Allreduce, whose timed first call of
  // each size class picks the library's, the census or the reduce-scatter + all-gather (a
  // commutative operation; two processes decided above, the same way).
  const bool allreduce_model = c == Collective::kAllreduce && !wins &&
                               controls.threshold[i] == Controls::kUnset && facts.commutative;
  if (!wins && !allreduce_model) return Route::kNative;
  // A non-commutative reduction within the n-way range goes to the MPI library in auto.
  if (c == Collective::kAllreduce && !facts.commutative) return Route::kNative;
  if (allreduce_model) return Route::kModel;
  return rosched_route(c, facts, nway_limit);
}

bool uses_node_facts(Collective c, const CallFacts& facts, const Controls& controls) {
  const std::size_t i = static_cast<std::size_t>(index_of(c));
  return c == Collective::kAllreduce && controls.mode == Mode::kAuto && controls.enabled[i] &&
         controls.threshold[i] == Controls::kUnset && !facts.intercomm && facts.p > 1 &&
         facts.contiguous && facts.commutative && facts.bytes > 0;
}

}  // namespace rosched::pmpi
