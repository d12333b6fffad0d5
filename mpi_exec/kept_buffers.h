// Buffers a thread gives back after a call, kept for its next calls (ScratchBuffer, datatype.h):
// a program repeats its collectives, and a buffer made per call costs an allocation and, above
// the allocator's trim threshold, the mapping of every page again (docs/perf.md, "Scratch kept
// from call to call").
#ifndef ROSCHED_MPI_EXEC_KEPT_BUFFERS_H_
#define ROSCHED_MPI_EXEC_KEPT_BUFFERS_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>

namespace rosched::mpi {

// At most `count` (up to kMaxCount) buffers, each at most `largest` bytes, `total` bytes in all.
// take(bytes) hands out the smallest kept buffer that holds `bytes` and is at most `slack` times
// that, else a new one from make(bytes); give() keeps a buffer, freeing smaller kept ones to make
// room for it, or frees it where it is too large or the kept ones are all larger. Storage is a
// movable owner (destroying it frees the memory); Make a callable Storage(std::size_t bytes).
template <class Storage, class Make>
class KeptBuffers {
 public:
  static constexpr std::size_t kMaxCount = 16;

  KeptBuffers(std::size_t count, std::size_t largest, std::size_t total, std::size_t slack,
              Make make = Make())
      : count_(std::min(count, kMaxCount)),
        largest_(largest),
        total_(total),
        slack_(std::max<std::size_t>(slack, 1)),
        make_(std::move(make)) {}

  // A buffer of at least `bytes`; *capacity is what it holds.
  Storage take(std::size_t bytes, std::size_t* capacity) {
    std::size_t best = kept_;
    for (std::size_t i = 0; i < kept_; ++i) {
      if (sizes_[i] >= bytes && sizes_[i] <= slack_ * bytes &&
          (best == kept_ || sizes_[i] < sizes_[best])) {
        best = i;
      }
    }
    if (best == kept_) {
      *capacity = bytes;
      return make_(bytes);
    }
    *capacity = sizes_[best];
    Storage out = std::move(stores_[best]);
    remove(best);
    return out;
  }

  // Takes back `store`, which holds `capacity` bytes.
  void give(Storage store, std::size_t capacity) {
    if (count_ == 0 || capacity > largest_ || capacity > total_) return;  // freed here
    while (kept_ == count_ || held_ + capacity > total_) {
      std::size_t smallest = 0;
      for (std::size_t i = 1; i < kept_; ++i) {
        if (sizes_[i] < sizes_[smallest]) smallest = i;
      }
      if (sizes_[smallest] > capacity) return;  // the kept ones are larger: this one is freed
      stores_[smallest] = Storage();
      remove(smallest);
    }
    stores_[kept_] = std::move(store);
    sizes_[kept_++] = capacity;
    held_ += capacity;
  }

  std::size_t kept() const { return kept_; }
  std::size_t held() const { return held_; }

 private:
  void remove(std::size_t i) {  // the last entry takes entry i's place
    held_ -= sizes_[i];
    --kept_;
    stores_[i] = std::move(stores_[kept_]);
    sizes_[i] = sizes_[kept_];
  }

  std::size_t count_, largest_, total_, slack_;
  Make make_;
  std::array<Storage, kMaxCount> stores_;
  std::array<std::size_t, kMaxCount> sizes_{};
  std::size_t kept_ = 0, held_ = 0;
};

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_KEPT_BUFFERS_H_
