// A set of block numbers 0..kMaxQ as a bitset: the value type that RANGEBLOCKS returns and
// that the receive-schedule construction keeps its "blocks seen so far" in.
#ifndef ROSCHED_SCHED_CIRCULANT_BLOCK_SET_H_
#define ROSCHED_SCHED_CIRCULANT_BLOCK_SET_H_

#include <cstdint>

namespace rosched {

class BlockSet {
 public:
  constexpr BlockSet() = default;
  static constexpr BlockSet from_bits(std::uint64_t bits) { return BlockSet(bits); }
  // The set {0, 1, ..., k}; empty for k < 0.
  static constexpr BlockSet upto(int k) {
    return BlockSet(k < 0 ? 0 : (std::uint64_t{2} << k) - 1);
  }

  constexpr bool contains(int b) const { return b >= 0 && b < 64 && ((bits_ >> b) & 1U); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr std::uint64_t bits() const { return bits_; }
  int size() const { return __builtin_popcountll(bits_); }
  // Largest member; precondition: !empty().
  int max() const { return 63 - __builtin_clzll(bits_); }

  constexpr void insert(int b) { bits_ |= std::uint64_t{1} << b; }
  constexpr BlockSet operator|(BlockSet o) const { return BlockSet(bits_ | o.bits_); }
  constexpr BlockSet operator&(BlockSet o) const { return BlockSet(bits_ & o.bits_); }
  constexpr BlockSet minus(BlockSet o) const { return BlockSet(bits_ & ~o.bits_); }
  constexpr BlockSet& operator|=(BlockSet o) {
    bits_ |= o.bits_;
    return *this;
  }
  constexpr bool operator==(BlockSet o) const { return bits_ == o.bits_; }
  constexpr bool operator!=(BlockSet o) const { return bits_ != o.bits_; }

 private:
  constexpr explicit BlockSet(std::uint64_t bits) : bits_(bits) {}
  std::uint64_t bits_ = 0;
};

}  // namespace rosched

#endif  // ROSCHED_SCHED_CIRCULANT_BLOCK_SET_H_
