// Everything the verifier checks for one process count p.
#ifndef ROSCHED_VERIFY_VERIFY_P_H_
#define ROSCHED_VERIFY_VERIFY_P_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "verify/counterexample.h"
#include "verify/schedule_source.h"

namespace rosched::verify {

struct VerifyOptions {
  // For p <= run_to: full broadcast runs (every n of block_counts(q), every root of roots(p)),
  // baseblock of every rank and rangeblocks at every start. Above it: no broadcast run, and
  // baseblock and rangeblocks at `samples` evenly spread ranks and starts.
  std::int64_t run_to = 5000;
  std::int64_t samples = 64;
  // Which groups of checks run: the broadcast schedule (depends on the construction), the
  // structure (baseblock, rangeblocks, all-gather, census: depend on p only) and broadcast runs.
  bool schedule = true, structure = true, runs = true;
};

struct PResult {
  std::optional<Counterexample> counterexample;  // the first check that failed, if any
  double construct_seconds = 0;   // building the schedule of all ranks
  double schedule_seconds = 0;    // checking it (sched/schedule_check.h)
  double structure_seconds = 0;   // baseblock, rangeblocks, all-gather, census
  double run_seconds = 0;         // broadcast runs
  // Two-tree family only: broadcast rounds achieved minus the lecture's formula, smallest and
  // largest over the block counts run (structure check: n of block_counts(q)).
  std::int64_t rounds_excess_min = 0, rounds_excess_max = 0;
};

// The block counts of the broadcast runs: 1, 2, q - 1, q, q + 1, 3q + 2 (those >= 1, once each).
std::vector<std::int64_t> block_counts(int q);
// The roots of the broadcast runs: 0, p / 2, p - 1 (once each).
std::vector<std::int64_t> roots(std::int64_t p);

// Builds the schedule of all p ranks from source and checks, in order: the broadcast schedule
// (sched/schedule_check.h), baseblock and rangeblocks against the first phase run literally,
// the all-gather and census rounds, and the broadcast runs.
PResult verify_p(std::int64_t p, const ScheduleSource& source, const VerifyOptions& options);

// The two-tree family (verify/two_tree_check.h): the structure and colouring for root 0 (and,
// for p <= run_to, roots p / 2 and p - 1), then for p <= run_to round-by-round broadcast and
// reduction runs for every n of block_counts(q) and every root of roots(p).
PResult verify_two_tree_p(std::int64_t p, const VerifyOptions& options);

// The hypercube family (verify/hypercube_check.h): the propositions of the floor(log2 p)-cube
// if cube_checks (they depend on q only: the caller asks once per q), the units of p, and full
// broadcasts for every n of hypercube_block_counts(p): for p <= run_to round by round
// (run_hypercube) with roots 0, p / 2 and p - 1, above it rank by rank (stream_hypercube) with
// root 0.
PResult verify_hypercube_p(std::int64_t p, bool cube_checks, const VerifyOptions& options);

}  // namespace rosched::verify

#endif  // ROSCHED_VERIFY_VERIFY_P_H_
