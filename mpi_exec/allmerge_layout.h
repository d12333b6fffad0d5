// How Rosched_Allmerge (Algorithms 1 and 2 of Lang 2025) lays out the sorted runs it holds and
// sends, so that a block much larger than its neighbours is not rewritten in every round.
//
// A rank merges what it holds with what it receives, round after round. With blocks of similar
// sizes the runs double each round and every element is written O(1) times in all; but a block
// that holds most of a run's elements (a rank with half of all data, say) would be rewritten by
// every later merge, O(log p) times. So a run over a cyclic range r of ranks is kept in up to
// three sorted parts: if one block j of r holds more than twice as many elements as the rest of
// r together (it is "heavy" in r), the parts are [the blocks before j], [j], [the blocks after
// j]; else r is one part. A merge then merges part by part and hands a heavy block on without
// copying it; once the rest has grown to half the block's size, the block joins the merges,
// which then write at most 3 times what the rest adds, as for blocks of similar sizes.
//
// The layout is a function of r and the block sizes (recvcounts, known on every rank), so the
// receiver of a run knows its parts without being told. It coarsens as ranges grow: a block
// heavy in r is heavy in every sub-range of r that holds it (the rest only shrinks), so when
// adjacent runs are merged into r, each part of each of them lies within one part of r's
// layout. A merge never has to split a part.
#ifndef ROSCHED_MPI_EXEC_ALLMERGE_LAYOUT_H_
#define ROSCHED_MPI_EXEC_ALLMERGE_LAYOUT_H_

#include <array>
#include <cstdint>
#include <vector>

#include "sched/merge/merge_plan.h"

namespace rosched::mpi {

// Element counts of cyclic rank ranges: prefix sums of the p block sizes.
class BlockCounts {
 public:
  BlockCounts(const int* counts, int p);
  std::int64_t p() const { return p_; }
  std::int64_t total() const { return pre_[p_]; }
  std::int64_t before(std::int64_t rank) const { return pre_[rank]; }
  std::int64_t block(std::int64_t rank) const { return pre_[rank + 1] - pre_[rank]; }
  std::int64_t largest() const { return largest_; }
  std::int64_t of(const merge::Range& r) const;
  // Elements of the wrapped (low) part of r: origins 0 .. first + count - p - 1.
  std::int64_t low(const merge::Range& r) const;

 private:
  std::int64_t p_;
  std::vector<std::int64_t> pre_;
  std::int64_t largest_ = 0;
};

// The parts of a run over r, in range order (see the file comment): one or up to three
// non-empty ranges of ranks.
struct RunLayout {
  std::array<merge::Range, 3> part{};
  int parts = 0;
};

// O(1) when no block of r can be heavy (3 times the largest block is at most twice r's
// elements), else O(r.count).
RunLayout run_layout(const merge::Range& r, const BlockCounts& counts);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ALLMERGE_LAYOUT_H_
