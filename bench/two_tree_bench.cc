// Google Benchmark: cost of one rank's place in the two trees (sched/two_tree.h: parents,
// children, edge colours, arrival rounds, O(log p)), and of a whole broadcast schedule
// description, per rank.
//
//   bazel run -c opt //bench:two_tree_bench
//
// Node/<p>: ns per rank for two_tree_node, over 4,096 ranks spread evenly over [0, p) (cycled).
// BcastSchedule/<p>: the same plus walking all rounds of TwoTreeBcastSchedule for n = 64.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "sched/two_tree/two_tree.h"
#include "sched/two_tree/two_tree_schedule.h"

namespace {

constexpr std::int64_t kPs[] = {1000, 65536, 1 << 20, 1000003, (1 << 24) + 1, 2147483647};

std::vector<std::int64_t> spread_ranks(std::int64_t p) {
  std::vector<std::int64_t> ranks;
  const std::int64_t n = std::min<std::int64_t>(p, 4096);
  for (std::int64_t i = 0; i < n; ++i) ranks.push_back((i * p) / n + (i % 7) % (p / n));
  return ranks;
}

void Node(benchmark::State& state) {
  const std::int64_t p = state.range(0);
  const std::vector<std::int64_t> ranks = spread_ranks(p);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(rosched::two_tree_node(p, 0, ranks[i]));
    if (++i == ranks.size()) i = 0;
  }
}

void BcastSchedule(benchmark::State& state) {
  const std::int64_t p = state.range(0);
  const std::vector<std::int64_t> ranks = spread_ranks(p);
  std::size_t i = 0;
  for (auto _ : state) {
    const rosched::TwoTreeBcastSchedule s(p, 64, ranks[i], 0);
    for (std::int64_t r = 0; r < s.rounds(); ++r) benchmark::DoNotOptimize(s.round(r));
    if (++i == ranks.size()) i = 0;
  }
}

void ApplyPs(benchmark::internal::Benchmark* b) {
  for (std::int64_t p : kPs) b->Arg(p);
}

BENCHMARK(Node)->Apply(ApplyPs);
BENCHMARK(BcastSchedule)->Apply(ApplyPs);

}  // namespace

BENCHMARK_MAIN();
