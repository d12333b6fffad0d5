// Google Benchmark: cost of one rank's receive + send schedule under both constructions, and of
// the schedules of all ranks (what an irregular all-gather needs).
//
//   bazel run -c opt //bench:schedule_bench
//
// PerRank/<construction>/<p>: ns per rank (receive + send), over 4,096 ranks spread evenly over
// [0, p) (cycled). AllRanks/<construction>/<p>: the full schedule of all p ranks (every receive
// schedule, sched/full_schedule.h: the all-ranks construction, into freshly allocated storage).
// AllRanksReused/fast/<p>: the same into reused storage.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "sched/circulant/full_schedule.h"
#include "sched/circulant/phase_schedule.h"

namespace {

using rosched::Construction;

constexpr std::int64_t kPs[] = {1000, 65536, 1 << 20, 1000003, (1 << 24) + 1, 2147483647};

void PerRank(benchmark::State& state, Construction c) {
  const std::int64_t p = state.range(0);
  const rosched::Skips s(p);
  std::vector<std::int64_t> ranks;
  const std::int64_t n = std::min<std::int64_t>(p, 4096);
  for (std::int64_t i = 0; i < n; ++i) ranks.push_back((i * p) / n + (i % 7) % (p / n));
  std::size_t i = 0;
  for (auto _ : state) {
    const rosched::RankSchedule sched = rosched::rank_schedule(s, ranks[i], c);
    benchmark::DoNotOptimize(sched);
    if (++i == ranks.size()) i = 0;
  }
  state.counters["q"] = s.q();
}

void AllRanks(benchmark::State& state, Construction c) {
  const rosched::Skips s(state.range(0));
  for (auto _ : state) {
    rosched::FullSchedule f = rosched::full_schedule(s, c);
    benchmark::DoNotOptimize(f);
  }
  state.counters["ns_per_rank"] = benchmark::Counter(
      static_cast<double>(state.range(0)), benchmark::Counter::kIsIterationInvariantRate |
                                               benchmark::Counter::kInvert);
}

// The same into one FullSchedule whose storage is reused (as the verifier does): without the
// page faults of 2 p q fresh bytes.
void AllRanksReused(benchmark::State& state, Construction c) {
  const rosched::Skips s(state.range(0));
  rosched::FullSchedule f(s);
  for (auto _ : state) {
    rosched::full_schedule(s, c, f);
    benchmark::DoNotOptimize(f);
  }
  state.counters["ns_per_rank"] = benchmark::Counter(
      static_cast<double>(state.range(0)), benchmark::Counter::kIsIterationInvariantRate |
                                               benchmark::Counter::kInvert);
}

void ApplyPs(benchmark::internal::Benchmark* b) {
  for (std::int64_t p : kPs) b->Arg(p);
}

BENCHMARK_CAPTURE(PerRank, fast, Construction::fast)->Apply(ApplyPs);
BENCHMARK_CAPTURE(PerRank, paper, Construction::paper)->Apply(ApplyPs);
BENCHMARK_CAPTURE(AllRanks, fast, Construction::fast)->Arg(1152)->Arg(65536)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(AllRanksReused, fast, Construction::fast)->Arg(1152)->Arg(65536)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(AllRanks, paper, Construction::paper)->Arg(1152)->Arg(65536)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
