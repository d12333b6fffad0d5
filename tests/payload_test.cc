// PayloadBuffer / PayloadArray (mpi_exec/payload.h): the memory is there, writable to its last
// byte, filled where asked, moved without a double free, and empty buffers hold nothing.
#include "mpi_exec/payload.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <utility>

namespace rosched::mpi {
namespace {

TEST(PayloadBuffer, HoldsWhatWasAsked) {
  PayloadBuffer b(1 << 20);
  ASSERT_NE(b.data(), nullptr);
  EXPECT_EQ(b.size(), std::size_t{1} << 20);
  std::memset(b.data(), 0xab, b.size());
  EXPECT_EQ(b.data()[0], 0xab);
  EXPECT_EQ(b.data()[b.size() - 1], 0xab);
}

TEST(PayloadBuffer, EmptyHoldsNothing) {
  PayloadBuffer b(0);
  EXPECT_EQ(b.data(), nullptr);
  EXPECT_EQ(b.size(), 0u);
  PayloadBuffer d;
  EXPECT_EQ(d.data(), nullptr);
}

TEST(PayloadBuffer, MovesOwnership) {
  PayloadBuffer a(100);
  unsigned char* at = a.data();
  PayloadBuffer b(std::move(a));
  EXPECT_EQ(b.data(), at);
  EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): the moved-from state
  EXPECT_EQ(a.size(), 0u);
  PayloadBuffer c(7);
  c = std::move(b);  // c's own 7 bytes are freed
  EXPECT_EQ(c.data(), at);
  EXPECT_EQ(c.size(), 100u);
  PayloadBuffer& same = c;
  c = std::move(same);  // a move onto itself keeps the buffer
  EXPECT_EQ(c.data(), at);
}

TEST(PayloadBuffer, ImpossibleSizeThrows) {
  EXPECT_THROW(PayloadBuffer(static_cast<std::size_t>(-1) / 2), std::bad_alloc);
}

TEST(PayloadArray, FilledAndIndexed) {
  PayloadArray<int> a(1000, 42);
  EXPECT_EQ(a.size(), 1000u);
  EXPECT_EQ(std::accumulate(a.begin(), a.end(), 0L), 42000L);
  a[999] = 7;
  EXPECT_EQ(a.data()[999], 7);
  EXPECT_EQ(a.end() - a.begin(), 1000);
  PayloadArray<double> none(0);
  EXPECT_EQ(none.begin(), none.end());
}

}  // namespace
}  // namespace rosched::mpi
