// The interposer's routing rule (pmpi/policy.h): the controls' parser, the defaults measured in
// SMPI, the threshold directions, off/force/only, and properties over random calls.
#include "pmpi/policy.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace rosched::pmpi {
namespace {

constexpr std::int64_t kKiB = 1 << 10, kMiB = 1 << 20;

CallFacts facts(int p, std::int64_t bytes, bool contiguous = true, bool commutative = true) {
  CallFacts f;
  f.p = p;
  f.bytes = bytes;
  f.contiguous = contiguous;
  f.commutative = commutative;
  return f;
}

Controls parsed(const char* mode, const char* only, const char* threshold) {
  Controls c;
  const std::string error = parse_controls(mode, only, threshold, c);
  EXPECT_EQ(error, "") << mode << " " << only << " " << threshold;
  return c;
}

TEST(PmpiPolicy, ParsesTheControls) {
  Controls c = parsed("force", "bcast,allgatherv", "allgather=65536,alltoall=never");
  EXPECT_EQ(c.mode, Mode::kForce);
  EXPECT_TRUE(c.enabled[static_cast<int>(Collective::kBcast)]);
  EXPECT_TRUE(c.enabled[static_cast<int>(Collective::kAllgatherv)]);
  EXPECT_FALSE(c.enabled[static_cast<int>(Collective::kAllgather)]);
  EXPECT_EQ(c.threshold[static_cast<int>(Collective::kAllgather)], 65536);
  EXPECT_EQ(c.threshold[static_cast<int>(Collective::kAlltoall)], Controls::kNever);
  EXPECT_EQ(c.threshold[static_cast<int>(Collective::kReduce)], Controls::kUnset);
  c = parsed(nullptr, nullptr, nullptr);  // unset: the defaults
  EXPECT_EQ(c.mode, Mode::kAuto);
  for (bool on : c.enabled) EXPECT_TRUE(on);
  EXPECT_EQ(parsed("", "", "").mode, Mode::kAuto);
  EXPECT_EQ(parsed("off", nullptr, nullptr).mode, Mode::kOff);
}

TEST(PmpiPolicy, BadControlsAreErrorsNamingTheVariableAndLeaveControlsUnchanged) {
  const struct {
    const char *mode, *only, *threshold, *message;
  } cases[] = {
      {"fast", nullptr, nullptr, "ROSCHED_PMPI: 'fast' is not one of auto, off, force"},
      {nullptr, "bcast,gather", nullptr, "ROSCHED_PMPI_ONLY: 'gather' is not a collective"},
      {nullptr, "bcast,,reduce", nullptr, "ROSCHED_PMPI_ONLY: empty item"},
      {nullptr, nullptr, "reduce", "ROSCHED_PMPI_THRESHOLD: 'reduce' is not collective=bytes"},
      {nullptr, nullptr, "reduce=-5", "ROSCHED_PMPI_THRESHOLD: '-5' (for reduce)"},
      {nullptr, nullptr, "reduce=12k", "ROSCHED_PMPI_THRESHOLD: '12k' (for reduce)"},
      {nullptr, nullptr, "reduce=", "ROSCHED_PMPI_THRESHOLD: '' (for reduce)"},
      {nullptr, nullptr, "reduce=99999999999999999999", "ROSCHED_PMPI_THRESHOLD: '9999"},
      {nullptr, nullptr, "alltoallv=64", "ROSCHED_PMPI_THRESHOLD: alltoallv takes no threshold"},
      {nullptr, nullptr, "scan=1", "ROSCHED_PMPI_THRESHOLD: 'scan' is not a collective"},
  };
  for (const auto& t : cases) {
    Controls c;
    c.mode = Mode::kOff;
    const std::string error = parse_controls(t.mode, t.only, t.threshold, c);
    EXPECT_EQ(error.rfind(t.message, 0), 0u) << error;
    EXPECT_EQ(c.mode, Mode::kOff);
    for (bool on : c.enabled) EXPECT_TRUE(on);
  }
}

TEST(PmpiPolicy, AllreducesOnEqualMulticoreNodesGoToTheLaneAllreduces) {
  const Controls c;
  CallFacts nodes = facts(1152, 4);
  nodes.equal_nodes = true;
  // Every size: Rosched_Allreduce_node_aware (the route kNodeAware), where the flat rules would
  // take the n-way all-reduce (up to 2 KiB) or Rosched_Allreduce's trial (above).
  for (std::int64_t bytes : {std::int64_t{4}, std::int64_t{2048}, std::int64_t{2049},
                             std::int64_t{48 * 1024}, 16 * kMiB}) {
    nodes.bytes = bytes;
    EXPECT_EQ(decide(Collective::kAllreduce, nodes, c), Route::kNodeAware) << bytes;
    EXPECT_TRUE(uses_node_facts(Collective::kAllreduce, nodes, c)) << bytes;
  }
  nodes.equal_nodes = false;  // the same sizes elsewhere
  nodes.bytes = 2048;
  EXPECT_EQ(decide(Collective::kAllreduce, nodes, c), Route::kNway);
  nodes.bytes = 2049;
  EXPECT_EQ(decide(Collective::kAllreduce, nodes, c), Route::kModel);
  nodes.equal_nodes = true;
  nodes.commutative = false;  // the lane all-reduces need a commutative operation
  EXPECT_EQ(decide(Collective::kAllreduce, nodes, c), Route::kNative);
  EXPECT_FALSE(uses_node_facts(Collective::kAllreduce, nodes, c));
  nodes.commutative = true;
  nodes.contiguous = false;  // the measurements are of contiguous data
  EXPECT_EQ(decide(Collective::kAllreduce, nodes, c), Route::kNative);
  EXPECT_FALSE(uses_node_facts(Collective::kAllreduce, nodes, c));
  nodes.contiguous = true;
  // Not on equal multicore nodes: Rosched_Allreduce's own choice (a commutative operation), or
  // the library's.
  EXPECT_EQ(decide(Collective::kAllreduce, facts(1152, 16 * 1024), c), Route::kModel);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(1152, 16 * 1024, true, false), c), Route::kNative);
  // An explicit threshold decides alone; off is off.
  EXPECT_EQ(decide(Collective::kAllreduce, nodes, parsed(nullptr, nullptr, "allreduce=1024")),
            Route::kNative);
  EXPECT_EQ(decide(Collective::kAllreduce, nodes, parsed("off", nullptr, nullptr)), Route::kNative);
  EXPECT_EQ(decide(Collective::kAllreduce, nodes, parsed(nullptr, "bcast", nullptr)),
            Route::kNative);
  // The interposer asks for the node layout exactly where decide() reads the answer.
  EXPECT_FALSE(uses_node_facts(Collective::kReduce, nodes, c));
  EXPECT_FALSE(uses_node_facts(Collective::kAllreduce, nodes, parsed("force", nullptr, nullptr)));
  EXPECT_FALSE(
      uses_node_facts(Collective::kAllreduce, nodes, parsed(nullptr, nullptr, "allreduce=1024")));
  nodes.bytes = 0;
  EXPECT_FALSE(uses_node_facts(Collective::kAllreduce, nodes, c));
  EXPECT_FALSE(uses_node_facts(Collective::kAllreduce, facts(1, 4), c));
}

TEST(PmpiPolicy, AutoDefaultsAreTheMeasuredCrossovers) {
  const Controls c;
  EXPECT_EQ(decide(Collective::kBcast, facts(36, 4), c), Route::kModel);
  // The gathers and the reduction: rosched's entry points choose (they time the library's
  // collective against theirs at a size class's first call), at every size and operation.
  for (const std::int64_t bytes : {std::int64_t{4}, 64 * kKiB, 96 * kKiB, 16 * kMiB}) {
    EXPECT_EQ(decide(Collective::kAllgather, facts(36, bytes), c), Route::kModel);
    EXPECT_EQ(decide(Collective::kAllgatherv, facts(36, bytes), c), Route::kModel);
    EXPECT_EQ(decide(Collective::kReduce, facts(36, bytes), c), Route::kModel);
  }
  EXPECT_EQ(decide(Collective::kReduce, facts(36, kMiB, true, false), c), Route::kModel);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(36, 4), c), Route::kNway);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(36, 2048), c), Route::kNway);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(36, 2049), c), Route::kModel);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(36, 2049, true, false), c), Route::kNative);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(2, 2049), c), Route::kModel);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(2, 2048), c), Route::kNative);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(2, 2049, true, false), c), Route::kNative);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(36, 4, true, false), c), Route::kNative);
  // The all-to-alls: their entry points' own choice (the library's where it is faster); an
  // all-to-allv's bytes are its rank's own and do not decide.
  EXPECT_EQ(decide(Collective::kAlltoall, facts(36, 4), c), Route::kModel);
  EXPECT_EQ(decide(Collective::kAlltoallv, facts(36, 0), c), Route::kModel);
  EXPECT_EQ(decide(Collective::kAlltoallv, facts(1, 4096), c), Route::kNative);
  // Nothing to win: one process, no data, a reduction's datatype with gaps, invalid arguments
  // (-1). A gather's or exchange's gaps do not decide (another rank's layout may differ).
  EXPECT_EQ(decide(Collective::kAllgather, facts(1, 16 * kMiB), c), Route::kNative);
  EXPECT_EQ(decide(Collective::kBcast, facts(36, 0), c), Route::kNative);
  EXPECT_EQ(decide(Collective::kBcast, facts(36, -1), c), Route::kNative);
  EXPECT_EQ(decide(Collective::kReduce, facts(36, 16 * kMiB, false), c), Route::kNative);
  EXPECT_EQ(decide(Collective::kAllgather, facts(36, 16 * kMiB, false), c), Route::kModel);
  EXPECT_EQ(decide(Collective::kBcast, facts(36, 16 * kMiB, false), c), Route::kModel);
  // Two processes: a reduction is one message or one exchange in every algorithm, so the
  // defaults keep reduce and the n-way range of allreduce with the MPI library (above it a
  // commutative allreduce goes to Rosched_Allreduce's choice, the census or the library's); the
  // gathers still go to rosched's choice, and an explicit threshold decides for itself.
  EXPECT_EQ(decide(Collective::kReduce, facts(2, kMiB), c), Route::kNative);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(2, kMiB), c), Route::kModel);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(2, 4), c), Route::kNative);
  EXPECT_EQ(decide(Collective::kReduce, facts(3, kMiB), c), Route::kModel);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(3, 4), c), Route::kNway);
  EXPECT_EQ(decide(Collective::kAllgather, facts(2, kMiB), c), Route::kModel);
  const Controls low = parsed(nullptr, nullptr, "reduce=1024,allreduce=4096");
  EXPECT_EQ(decide(Collective::kReduce, facts(2, kMiB), low), Route::kTwoTree);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(2, 4), low), Route::kNway);
}

// A threshold replaces a gather's or the reduction's own choice by a size rule: rosched's
// algorithm from that size up, the library's below.
TEST(PmpiPolicy, AThresholdReplacesTheGathersAndReductionsChoice) {
  const Controls t = parsed(nullptr, nullptr, "allgather=98304,allgatherv=393216,reduce=24576");
  EXPECT_EQ(decide(Collective::kAllgather, facts(36, 96 * kKiB - 1), t), Route::kNative);
  EXPECT_EQ(decide(Collective::kAllgather, facts(36, 96 * kKiB), t), Route::kCirculant);
  EXPECT_EQ(decide(Collective::kAllgatherv, facts(36, 384 * kKiB - 1), t), Route::kNative);
  EXPECT_EQ(decide(Collective::kAllgatherv, facts(36, 384 * kKiB), t), Route::kCirculant);
  EXPECT_EQ(decide(Collective::kReduce, facts(36, 24 * kKiB - 1), t), Route::kNative);
  EXPECT_EQ(decide(Collective::kReduce, facts(36, 24 * kKiB), t), Route::kTwoTree);
  const Controls never = parsed(nullptr, nullptr, "allgather=never,reduce=never");
  EXPECT_EQ(decide(Collective::kAllgather, facts(36, 16 * kMiB), never), Route::kNative);
  EXPECT_EQ(decide(Collective::kReduce, facts(36, 16 * kMiB), never), Route::kNative);
}

TEST(PmpiPolicy, ThresholdsReplaceTheDefaultsInTheirDirection) {
  const Controls c = parsed(nullptr, nullptr, "bcast=4096,alltoall=64,reduce=never,allreduce=0");
  EXPECT_EQ(decide(Collective::kBcast, facts(8, 4095), c), Route::kNative);
  EXPECT_EQ(decide(Collective::kBcast, facts(8, 4096), c), Route::kCirculant);
  EXPECT_EQ(decide(Collective::kAlltoall, facts(8, 64), c), Route::kBruck);
  EXPECT_EQ(decide(Collective::kAlltoall, facts(8, 65), c), Route::kNative);
  EXPECT_EQ(decide(Collective::kReduce, facts(8, 64 * kMiB), c), Route::kNative);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(8, 4), c), Route::kNative);
}

TEST(PmpiPolicy, ForceOffOnlyAndInterCommunicators) {
  const Controls force = parsed("force", nullptr, nullptr);
  EXPECT_EQ(decide(Collective::kBcast, facts(1, 0), force), Route::kCirculant);
  EXPECT_EQ(decide(Collective::kAllgather, facts(8, -1, false), force), Route::kCirculant);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(8, 8), force), Route::kNway);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(8, 8, true, false), force), Route::kTwoTree);
  EXPECT_EQ(decide(Collective::kAllreduce, facts(8, kMiB), force), Route::kTwoTree);
  EXPECT_EQ(decide(Collective::kAlltoallv, facts(8, 0), force), Route::kBruck);
  CallFacts inter = facts(8, kMiB);
  inter.intercomm = true;
  EXPECT_EQ(decide(Collective::kBcast, inter, force), Route::kNative);
  const Controls only = parsed("force", "allgatherv", nullptr);
  EXPECT_EQ(decide(Collective::kAllgatherv, facts(8, 4), only), Route::kCirculant);
  EXPECT_EQ(decide(Collective::kBcast, facts(8, 4), only), Route::kNative);
}

TEST(PmpiPolicy, ReduceScatterBlockIsRoschedsChoiceOrAThreshold) {
  const Controls c;
  EXPECT_EQ(decide(Collective::kReduceScatterBlock, facts(36, 4), c), Route::kModel);
  EXPECT_EQ(decide(Collective::kReduceScatterBlock, facts(36, 16 * kMiB), c), Route::kModel);
  EXPECT_EQ(decide(Collective::kReduceScatterBlock, facts(1, 4), c), Route::kNative);
  EXPECT_EQ(decide(Collective::kReduceScatterBlock, facts(36, 4, false), c), Route::kNative);
  const Controls t = parsed(nullptr, nullptr, "reduce_scatter_block=65536");
  EXPECT_EQ(decide(Collective::kReduceScatterBlock, facts(36, 65535), t), Route::kNative);
  EXPECT_EQ(decide(Collective::kReduceScatterBlock, facts(36, 65536), t), Route::kCirculant);
  EXPECT_EQ(decide(Collective::kReduceScatterBlock, facts(36, 65536, true, false), t),
            Route::kNative);
  EXPECT_EQ(decide(Collective::kReduceScatterBlock, facts(36, kMiB),
                   parsed(nullptr, nullptr, "reduce_scatter_block=never")),
            Route::kNative);
  EXPECT_EQ(
      decide(Collective::kReduceScatterBlock, facts(36, kMiB), parsed(nullptr, "bcast", nullptr)),
      Route::kNative);
  EXPECT_EQ(decide(Collective::kReduceScatter, facts(36, 4), c), Route::kModel);
  EXPECT_EQ(decide(Collective::kReduceScatter, facts(36, 65536),
                   parsed(nullptr, nullptr, "reduce_scatter=65536")),
            Route::kCirculant);
  EXPECT_EQ(decide(Collective::kReduceScatter, facts(36, 65535),
                   parsed(nullptr, nullptr, "reduce_scatter=65536")),
            Route::kNative);
}

// Properties over random calls and controls.
RC_GTEST_PROP(PmpiPolicy, OffNeverRoutesAndForceAlwaysDoes, ()) {
  const auto c = static_cast<Collective>(*rc::gen::inRange(0, kCollectives));
  CallFacts f = facts(*rc::gen::inRange(1, 100000), *rc::gen::inRange<std::int64_t>(-1, 1LL << 34),
                      *rc::gen::arbitrary<bool>(), *rc::gen::arbitrary<bool>());
  Controls off;
  off.mode = Mode::kOff;
  RC_ASSERT(decide(c, f, off) == Route::kNative);
  Controls force;
  force.mode = Mode::kForce;
  const Route r = decide(c, f, force);
  // A non-commutative reduce-scatter is not rosched's to take (its blocks combine in schedule
  // order).
  const bool reduce_scatter =
      c == Collective::kReduceScatterBlock || c == Collective::kReduceScatter;
  RC_ASSERT((r == Route::kNative) == (reduce_scatter && !f.commutative));
  RC_ASSERT(r != Route::kModel);
  // Order-sensitive reductions never go to the n-way allreduce.
  if (!f.commutative) RC_ASSERT(r != Route::kNway);
}

// The gathers and exchanges route the same whatever one rank's layout (MPI lets their ranks lay
// a type signature out differently; a route by layout sent ranks into different collectives),
// and an all-to-allv whatever one rank's bytes.
RC_GTEST_PROP(PmpiPolicy, LayoutNeverRoutesAGatherOrExchange, ()) {
  const Collective c = *rc::gen::element(Collective::kBcast, Collective::kAllgather,
                                          Collective::kAllgatherv, Collective::kAlltoall,
                                          Collective::kAlltoallv);
  CallFacts f = facts(*rc::gen::inRange(1, 100000), *rc::gen::inRange<std::int64_t>(-1, 1LL << 34));
  Controls controls;
  controls.mode = *rc::gen::element(Mode::kAuto, Mode::kForce, Mode::kOff);
  // (an all-to-allv takes no threshold: parse_controls refuses one)
  if (c != Collective::kAlltoallv && *rc::gen::arbitrary<bool>()) {
    controls.threshold[static_cast<std::size_t>(c)] = *rc::gen::inRange<std::int64_t>(0, 1LL << 30);
  }
  const Route contiguous = decide(c, f, controls);
  f.contiguous = false;
  RC_ASSERT(decide(c, f, controls) == contiguous);
  // Nor do an all-to-allv's bytes, which are its rank's own (its counts).
  if (c == Collective::kAlltoallv) {
    f.bytes = *rc::gen::inRange<std::int64_t>(-1, 1LL << 34);
    RC_ASSERT(decide(c, f, controls) == contiguous);
  }
}

// In auto, a "from" collective that routes at b routes at every larger size, an "up to" one
// at every smaller positive size.
RC_GTEST_PROP(PmpiPolicy, AutoIsMonotoneInTheSize, ()) {
  const auto c = static_cast<Collective>(*rc::gen::inRange(1, 6));  // allgather .. alltoall
  const std::int64_t t = *rc::gen::inRange<std::int64_t>(0, 1LL << 30);
  Controls controls;
  controls.threshold[static_cast<std::size_t>(c)] = t;
  const std::int64_t a = *rc::gen::inRange<std::int64_t>(1, 1LL << 31);
  const std::int64_t b = *rc::gen::inRange<std::int64_t>(1, 1LL << 31);
  const std::int64_t lo = std::min(a, b), hi = std::max(a, b);
  const bool up_to = c == Collective::kAllreduce || c == Collective::kAlltoall;
  const bool at_lo = decide(c, facts(64, lo), controls) != Route::kNative;
  const bool at_hi = decide(c, facts(64, hi), controls) != Route::kNative;
  if (up_to) {
    if (at_hi) RC_ASSERT(at_lo);
    RC_ASSERT(at_lo == (lo <= t));
  } else {
    if (at_lo) RC_ASSERT(at_hi);
    RC_ASSERT(at_hi == (hi >= t));
  }
}

}  // namespace

// The report names what an entry point chose (its _choice query's answer, rosched_mpi.h), not
// "circulant" for every one of rosched's broadcasts or "model" for every reduction, and for an
// all-reduce also what Rosched_Allreduce_node_aware ran (5 two trees, 6 the node-aware reduction
// and broadcast), not "twotree" for both, and for an all-to-all what it ran (the library's,
// Bruck or linear), not "model"; an answer out of range stays "model".
TEST(PmpiPolicy, TheReportNamesWhatTheEntryPointChose) {
  using C = Collective;
  using R = Route;
  const std::vector<std::pair<C, std::vector<R>>> answers = {
      {C::kBcast,
       {R::kNative, R::kCirculant, R::kHypercube, R::kTwoTree, R::kKaryTree, R::kScatterAllgather,
        R::kKnomial}},
      {C::kAllgather, {R::kNative, R::kCirculant, R::kNway}},
      {C::kAllgatherv, {R::kNative, R::kCirculant, R::kLargest, R::kNway}},
      {C::kReduce,
       {R::kNative, R::kKnomial, R::kTwoTree, R::kNodeAware, R::kCirculant, R::kScatterGather,
        R::kScatterGather}},
      {C::kAllreduce,
       {R::kNative, R::kCensus, R::kScatterGather, R::kNodeAware, R::kNway, R::kTwoTree,
        R::kNodeAware, R::kKnomial, R::kScatterGather}},
      {C::kReduceScatterBlock, {R::kNative, R::kCirculant, R::kNodeAware, R::kNway, R::kNway}},
      {C::kReduceScatter, {R::kNative, R::kCirculant, R::kNodeAware, R::kNway, R::kNway}},
      {C::kAlltoall, {R::kNative, R::kBruck, R::kLinear}},
      {C::kAlltoallv, {R::kNative, R::kBruck, R::kLinear}}};
  for (const auto& [c, routes] : answers) {
    for (int a = 0; a < static_cast<int>(routes.size()); ++a) {
      EXPECT_EQ(chosen_route(c, a), routes[a]) << collective_name(c) << " answer " << a;
    }
    EXPECT_EQ(chosen_route(c, -1), R::kModel) << collective_name(c);
    EXPECT_EQ(chosen_route(c, static_cast<int>(routes.size())), R::kModel) << collective_name(c);
  }
  // The report's names: distinct, one per route.
  std::set<std::string> names;
  for (int r = 0; r < kRoutes; ++r) names.insert(route_name(static_cast<R>(r)));
  EXPECT_EQ(names.size(), static_cast<std::size_t>(kRoutes));
  EXPECT_STREQ(route_name(R::kKaryTree), "karytree");
  EXPECT_STREQ(route_name(R::kKnomial), "knomial");
  EXPECT_STREQ(route_name(R::kCensus), "census");
  EXPECT_STREQ(route_name(R::kScatterGather), "rsag");
  EXPECT_STREQ(route_name(R::kScatterAllgather), "scatterag");
  EXPECT_STREQ(route_name(R::kModel), "model");
  EXPECT_STREQ(route_name(R::kNodeAware), "nodeaware");
  EXPECT_STREQ(route_name(R::kLinear), "linear");
}

}  // namespace rosched::pmpi
