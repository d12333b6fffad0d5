// KeptBuffers (mpi_exec/kept_buffers.h) against a reference that keeps the multiset of the kept
// buffers' sizes and applies the rules one by one: random sequences of take and give under
// random limits hand out buffers of the sizes the reference says, reuse exactly where it does,
// keep what it keeps, and free every other buffer (none leaks, none is freed twice).
#include "mpi_exec/kept_buffers.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <numeric>
#include <vector>

namespace rosched::mpi {
namespace {

// A buffer's stand-in: its real size, and how many exist.
struct Block {
  explicit Block(std::size_t s) : size(s) { ++live; }
  ~Block() { --live; }
  std::size_t size;
  static inline int live = 0;
  static inline int made = 0;
};
using Storage = std::unique_ptr<Block>;
struct Make {
  Storage operator()(std::size_t bytes) const {
    ++Block::made;
    return std::make_unique<Block>(bytes);
  }
};

// The rules, over the sizes alone.
struct Reference {
  std::size_t count, largest, total, slack;
  std::vector<std::size_t> kept;

  std::size_t held() const { return std::accumulate(kept.begin(), kept.end(), std::size_t{0}); }
  // The size handed out for `bytes`, and whether it is a kept one.
  std::size_t take(std::size_t bytes, bool* reused) {
    auto best = kept.end();
    for (auto it = kept.begin(); it != kept.end(); ++it) {
      if (*it >= bytes && *it <= slack * bytes && (best == kept.end() || *it < *best)) best = it;
    }
    *reused = best != kept.end();
    if (!*reused) return bytes;
    const std::size_t size = *best;
    kept.erase(best);
    return size;
  }
  void give(std::size_t size) {
    if (count == 0 || size > largest || size > total) return;
    while (kept.size() == count || held() + size > total) {
      auto smallest = std::min_element(kept.begin(), kept.end());
      if (*smallest > size) return;
      kept.erase(smallest);
    }
    kept.push_back(size);
  }
};

TEST(KeptBuffers, ReusesAKeptBuffer) {
  KeptBuffers<Storage, Make> store(4, 100, 200, 2);
  std::size_t capacity = 0;
  Storage a = store.take(50, &capacity);
  Block* const first = a.get();
  store.give(std::move(a), capacity);
  EXPECT_EQ(store.kept(), 1u);
  Storage b = store.take(40, &capacity);
  EXPECT_EQ(b.get(), first);  // the same memory again
  EXPECT_EQ(capacity, 50u);
  EXPECT_EQ(store.kept(), 0u);
  Storage c = store.take(20, &capacity);  // more than twice as large: not b's
  EXPECT_NE(c.get(), first);
  EXPECT_EQ(capacity, 20u);
}

TEST(KeptBuffers, FreesWhatItCannotKeep) {
  const int before = Block::live;
  {
    KeptBuffers<Storage, Make> store(2, 100, 140, 1);
    std::size_t c1 = 0, c2 = 0, c3 = 0, c4 = 0;
    Storage a = store.take(101, &c1), b = store.take(60, &c2), c = store.take(70, &c3),
            d = store.take(80, &c4);
    store.give(std::move(a), c1);  // above `largest`: freed
    EXPECT_EQ(store.kept(), 0u);
    store.give(std::move(b), c2);
    store.give(std::move(c), c3);  // 130 bytes in two
    EXPECT_EQ(store.held(), 130u);
    store.give(std::move(d), c4);  // two at most, 140 bytes: 60 goes, then 70 goes
    EXPECT_EQ(store.kept(), 1u);
    EXPECT_EQ(store.held(), 80u);
    EXPECT_EQ(Block::live, before + 1);
  }
  EXPECT_EQ(Block::live, before);
}

TEST(KeptBuffers, KeepsNothingWithCountZero) {
  KeptBuffers<Storage, Make> store(0, 100, 100, 4);
  std::size_t capacity = 0;
  Storage a = store.take(10, &capacity);
  store.give(std::move(a), capacity);
  EXPECT_EQ(store.kept(), 0u);
}

RC_GTEST_PROP(KeptBuffers, FollowsTheReference, ()) {
  const std::size_t count = *rc::gen::inRange<std::size_t>(0, 7);
  const std::size_t largest = *rc::gen::inRange<std::size_t>(1, 300);
  const std::size_t total = *rc::gen::inRange<std::size_t>(1, 600);
  const std::size_t slack = *rc::gen::inRange<std::size_t>(1, 6);
  const int live_before = Block::live;
  {
    KeptBuffers<Storage, Make> store(count, largest, total, slack);
    Reference ref{count, largest, total, slack, {}};
    std::vector<std::pair<Storage, std::size_t>> in_use;
    const int steps = *rc::gen::inRange(1, 120);
    for (int step = 0; step < steps; ++step) {
      if (in_use.empty() || *rc::gen::inRange(0, 2) == 0) {
        const std::size_t bytes = *rc::gen::inRange<std::size_t>(1, 320);
        bool reused = false;
        const std::size_t want = ref.take(bytes, &reused);
        const int made_before = Block::made;
        std::size_t capacity = 0;
        Storage s = store.take(bytes, &capacity);
        RC_ASSERT(capacity == want);
        RC_ASSERT(s->size == capacity);  // what it says it holds
        RC_ASSERT(s->size >= bytes);
        RC_ASSERT((Block::made == made_before) == reused);
        in_use.emplace_back(std::move(s), capacity);
      } else {
        const std::size_t i = *rc::gen::inRange<std::size_t>(0, in_use.size());
        ref.give(in_use[i].second);
        store.give(std::move(in_use[i].first), in_use[i].second);
        in_use.erase(in_use.begin() + static_cast<std::ptrdiff_t>(i));
      }
      RC_ASSERT(store.kept() == ref.kept.size());
      RC_ASSERT(store.held() == ref.held());
      RC_ASSERT(store.kept() <= count);
      RC_ASSERT(store.held() <= total);
      RC_ASSERT(Block::live == live_before + static_cast<int>(in_use.size() + store.kept()));
    }
  }
  RC_ASSERT(Block::live == live_before);
}

}  // namespace
}  // namespace rosched::mpi
