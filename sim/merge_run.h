// Interval-arithmetic runs of the merge-allreduce schedules (sched/merge/merge_plan.h; Lang
// 2025): every slot of a rank holds a cyclic range of ranks' blocks, and a run checks, rank by
// rank and round by round, that
//   - every part a rank sends is what its slot holds (a prefix only of Algorithm 0's gathered,
//     unmerged blocks);
//   - sends meet receives: the rank it sends to receives from it, and claims exactly the ranges
//     sent (main and partial parts), and vice versa;
//   - every merge combines non-empty slots whose ranges are adjacent in the given order and
//     together at most p blocks (so no block is merged twice);
//   - the final operation gives [rank, rank + p): every rank's block exactly once.
// It also counts, per rank, the blocks sent, the largest message and the merge work (blocks
// written by merges and copies, as mpi_exec/allmerge.cc does them: a received run taken as it
// is costs nothing; Algorithm 0's tree writes all p blocks per level).
#ifndef ROSCHED_SIM_MERGE_RUN_H_
#define ROSCHED_SIM_MERGE_RUN_H_

#include <cstdint>
#include <functional>
#include <optional>

#include "sched/merge/merge_plan.h"
#include "sim/counterexample.h"

namespace rosched::sim {

// Per-rank figures, min and max over the ranks checked (in blocks).
struct MergeStats {
  std::int64_t min_volume = 0, max_volume = 0;  // blocks sent
  std::int64_t max_message = 0;                 // largest message (both parts)
  std::int64_t min_work = 0, max_work = 0;      // blocks written by merges and copies
  std::int64_t ranks = 0;                       // ranks checked
};

struct MergeRunResult {
  std::optional<Counterexample> counterexample;
  MergeStats stats;
};

using MergeRoundOf = std::function<merge::MergeRound(std::int64_t rank, std::int64_t round)>;

// Checks rank `rank` of a run of `rounds` rounds with round_of (its own rounds and those of its
// partners) and the final operation; adds its figures to stats. Check "merge-run".
std::optional<Counterexample> check_merge_rank(std::int64_t p, std::int64_t rounds,
                                               const MergeRoundOf& round_of,
                                               const merge::MergeOp& final_op, std::int64_t rank,
                                               MergeStats& stats);

// Every rank of the plan's schedules (round_of, if given, replaces MergeSchedule(plan, rank)
// .round, e.g. to corrupt one), and the round count ceil(log2 p). O(p log p).
MergeRunResult run_merge(const merge::MergePlan& plan, const MergeRoundOf& round_of = nullptr);

// The same for the ranks listed only (the rest as partners): for sampled checks at large p.
MergeRunResult run_merge_ranks(const merge::MergePlan& plan, const std::int64_t* ranks,
                               std::int64_t count, const MergeRoundOf& round_of = nullptr);

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_MERGE_RUN_H_
