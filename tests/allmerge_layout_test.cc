// The layout of Rosched_Allmerge's runs (mpi_exec/allmerge_layout.h) against a reference that
// tries every block of the range, and the property the executor relies on: the layouts of
// adjacent ranges lie within the parts of the layout of their union (a merge never splits a
// part).
#include "mpi_exec/allmerge_layout.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

namespace rosched::mpi {
namespace {

using merge::Range;

// The block of r with more than twice the rest of r, or -1: every block tried.
std::int64_t reference_heavy(const Range& r, const std::vector<int>& counts) {
  const std::int64_t p = static_cast<std::int64_t>(counts.size());
  std::int64_t total = 0;
  for (std::int64_t k = 0; k < r.count; ++k) total += counts[(r.first + k) % p];
  for (std::int64_t k = 0; k < r.count && r.count >= 2; ++k) {
    const std::int64_t c = counts[(r.first + k) % p];
    if (c > 2 * (total - c)) return (r.first + k) % p;
  }
  return -1;
}

// Block sizes drawn so that heavy blocks are common: mostly small, some zero, a few huge.
rc::Gen<std::vector<int>> block_sizes() {
  return rc::gen::nonEmpty(rc::gen::container<std::vector<int>>(rc::gen::weightedOneOf<int>(
      {{4, rc::gen::inRange(0, 10)}, {1, rc::gen::just(0)}, {1, rc::gen::inRange(100, 1000)}})));
}

// The ranks of r's parts in order, which must be exactly r's ranks.
std::vector<std::int64_t> ranks_of(const RunLayout& layout, std::int64_t p) {
  std::vector<std::int64_t> out;
  for (int k = 0; k < layout.parts; ++k) {
    for (std::int64_t i = 0; i < layout.part[k].count; ++i) out.push_back((layout.part[k].first + i) % p);
  }
  return out;
}

RC_GTEST_PROP(AllmergeLayout, PartsAroundTheHeavyBlock, ()) {
  const std::vector<int> counts = *block_sizes();
  const std::int64_t p = static_cast<std::int64_t>(counts.size());
  const BlockCounts blocks(counts.data(), static_cast<int>(p));
  const Range r{*rc::gen::inRange<std::int64_t>(0, p), *rc::gen::inRange<std::int64_t>(0, p + 1)};
  const RunLayout layout = run_layout(r, blocks);
  std::vector<std::int64_t> want;
  for (std::int64_t k = 0; k < r.count; ++k) want.push_back((r.first + k) % p);
  RC_ASSERT(ranks_of(layout, p) == want);
  const std::int64_t heavy = reference_heavy(r, counts);
  if (heavy < 0) {
    RC_ASSERT(layout.parts == (r.count > 0 ? 1 : 0));
  } else {  // the heavy block alone, between the non-empty parts before and after it
    int alone = -1;
    for (int k = 0; k < layout.parts; ++k) {
      RC_ASSERT(layout.part[k].count > 0);
      if (layout.part[k].first == heavy && layout.part[k].count == 1) alone = k;
    }
    RC_ASSERT(alone >= 0);
    RC_ASSERT(layout.parts == 1 + (heavy != r.first) + (heavy != (r.first + r.count - 1) % p));
  }
}

RC_GTEST_PROP(AllmergeLayout, MergingAdjacentRangesNeverSplitsAPart, ()) {
  const std::vector<int> counts = *block_sizes();
  const std::int64_t p = static_cast<std::int64_t>(counts.size());
  const BlockCounts blocks(counts.data(), static_cast<int>(p));
  const Range whole{*rc::gen::inRange<std::int64_t>(0, p), *rc::gen::inRange<std::int64_t>(0, p + 1)};
  const std::int64_t cut = *rc::gen::inRange<std::int64_t>(0, whole.count + 1);
  const RunLayout all = run_layout(whole, blocks);
  // Each rank's part index in the union's layout; every part of a piece must map to one index.
  std::vector<int> part_of(p, -1);
  for (int k = 0; k < all.parts; ++k) {
    for (std::int64_t i = 0; i < all.part[k].count; ++i) part_of[(all.part[k].first + i) % p] = k;
  }
  for (const Range& piece : {Range{whole.first, cut}, Range{(whole.first + cut) % p, whole.count - cut}}) {
    const RunLayout layout = run_layout(piece, blocks);
    for (int k = 0; k < layout.parts; ++k) {
      const Range& q = layout.part[k];
      for (std::int64_t i = 1; i < q.count; ++i) {
        RC_ASSERT(part_of[(q.first + i) % p] == part_of[q.first]);
      }
    }
  }
}

TEST(AllmergeLayout, HalfOfAllDataStaysApartUntilTheWholeRange) {
  const std::vector<int> counts = {70, 10, 10, 10, 10, 10, 10, 10};  // rank 0: half of 140
  const BlockCounts blocks(counts.data(), 8);
  EXPECT_EQ(run_layout(Range{7, 4}, blocks).parts, 3);  // 10 | 70 | 10 10: 70 > 2 x 30
  EXPECT_EQ(run_layout(Range{0, 4}, blocks).parts, 2);  // 70 | 10 10 10
  EXPECT_EQ(run_layout(Range{0, 5}, blocks).parts, 1);  // 70 is not more than 2 x 40
  EXPECT_EQ(run_layout(Range{1, 7}, blocks).parts, 1);
  EXPECT_EQ(run_layout(Range{3, 0}, blocks).parts, 0);
}

}  // namespace
}  // namespace rosched::mpi
