// Small helpers over MPI datatypes for the collectives.
#ifndef ROSCHED_MPI_EXEC_DATATYPE_H_
#define ROSCHED_MPI_EXEC_DATATYPE_H_

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "mpi_exec/payload.h"

namespace rosched::mpi {

// Size and extent of a datatype (checked beforehand: see args.h).
struct TypeInfo {
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  int size = 0;
};
// Asks MPI (three queries), except for the last predefined datatype recorded on this thread by
// remember_predefined: a predefined datatype is never freed, so its handle always means the same
// type, and a collective on MPI_INT asks MPI nothing about the type after its first call.
TypeInfo type_info(MPI_Datatype type);

// Records `type`, which the caller has found predefined (MPI_COMBINER_NAMED), as this thread's
// last predefined datatype; returns its type_info.
const TypeInfo& remember_predefined(MPI_Datatype type);

// Whether `type` is this thread's last recorded predefined datatype.
bool is_remembered_predefined(MPI_Datatype type);

// Whether elements are packed without gaps (size == extent, no lower bounds): then count of
// them are count * size bytes from the buffer's address, to be copied byte by byte.
inline bool contiguous(const TypeInfo& t) {
  return t.lb == 0 && t.true_lb == 0 && t.extent == t.size && t.true_extent == t.size;
}

// Bytes that count elements of a datatype span (its true extent respected): what a buffer of
// them must hold.
std::size_t span_of(const TypeInfo& t, int count);

// Copies count elements of a datatype from src to dst, both where element 0 starts in buffers
// of span_of(t, count) bytes (ScratchBuffer): the whole span byte by byte, which
// begins true_lb bytes from there (a datatype's data can start before its element 0's address).
void copy_elements(void* dst, const void* src, const TypeInfo& t, int count);

// Scratch memory of a call: count elements of a datatype, true extent respected, or `bytes`
// bytes; left uninitialised. A program repeats its collectives, so the storage is taken from,
// and goes back to, this thread's buffers of earlier calls where one fits: up to 1 MiB (16 kept,
// operator new), an allocation per buffer costing more than the reduction of a short vector;
// above it (4 kept, each at most 64 MiB, 128 MiB in all) payload memory (payload.h), whose pages
// the system would otherwise map afresh at every call (datatype.cc). ROSCHED_SCRATCH_KEEP
// (settings.h) bounds what a thread keeps. Up to 64 bytes it is part of the object. Under
// SimGrid SMPI buffers above 1 MiB are made and freed per call.
inline constexpr std::size_t kSmallScratch = std::size_t{1} << 20;
class ScratchBuffer {
 public:
  ScratchBuffer(const TypeInfo& t, int count);
  explicit ScratchBuffer(std::size_t bytes, MPI_Aint offset = 0);
  ~ScratchBuffer();
  ScratchBuffer(ScratchBuffer&&) = default;
  ScratchBuffer& operator=(ScratchBuffer&&) = delete;
  // Where element 0 starts.
  void* data() {
    return (store_ ? store_.get() : large_.data() != nullptr ? large_.data() : inline_) - offset_;
  }

 private:
  static constexpr std::size_t kInline = 64;  // spans up to this live in the object itself
  std::size_t capacity_ = 0;
  std::unique_ptr<unsigned char[]> store_;  // spans above kInline, up to kSmallScratch
  PayloadBuffer large_;                     // spans above kSmallScratch
  MPI_Aint offset_;
  alignas(std::max_align_t) unsigned char inline_[kInline];
};

// Bytes this thread keeps for its next calls (at most settings().scratch_keep).
std::size_t scratch_kept_bytes();

// A committed datatype, freed on destruction.
class OwnedType {
 public:
  OwnedType() = default;
  explicit OwnedType(MPI_Datatype t) : type_(t) {}
  ~OwnedType();
  OwnedType(const OwnedType&) = delete;
  OwnedType& operator=(const OwnedType&) = delete;
  OwnedType(OwnedType&& other) noexcept : type_(other.type_) { other.type_ = MPI_DATATYPE_NULL; }
  OwnedType& operator=(OwnedType&& other) noexcept;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// The committed datatype of `count` pieces, lengths[i] elements of `element` at byte offsets[i]
// (MPI_Type_create_hindexed, then MPI_Type_commit).
OwnedType hindexed(int count, const int* lengths, const MPI_Aint* offsets, MPI_Datatype element);

// A vector of n elements cut into p blocks: block b starts at element first(b) (first(p) = n);
// n / p elements each, one more for the first n mod p (equal blocks where p divides n), or,
// given starts (p + 1 prefix sums of the blocks' counts, starts[p] = n, kept by the caller),
// block b at starts[b].
struct BlockCut {
  std::int64_t n, p;
  const std::int64_t* starts = nullptr;
  std::int64_t first(std::int64_t b) const {
    return starts ? starts[b] : b * (n / p) + std::min(b, n % p);
  }
  // Elements of the blocks b .. b + c - 1 (mod p), 0 <= b < p, 0 <= c <= p.
  std::int64_t elements(std::int64_t b, std::int64_t c) const {
    return b + c <= p ? first(b + c) - first(b) : n - first(b) + first(b + c - p);
  }
};

// The p + 1 prefix sums of counts[0 .. p - 1] (starts[0] = 0, starts[p] the total): a BlockCut's
// starts for blocks of those counts one after the other.
std::vector<std::int64_t> block_starts(const int counts[], int p);

// Elements first .. first + count - 1 (mod total) of a buffer of `total` elements that wraps
// around (0 <= first < 2 total, 0 <= count <= total): `head` elements from element `first` (taken
// mod total) to the end, then `tail` from element 0.
struct WrappedRange {
  std::int64_t first = 0, head = 0, tail = 0;
};
inline WrappedRange wrapped_range(std::int64_t first, std::int64_t count, std::int64_t total) {
  if (first >= total && total > 0) first -= total;
  const std::int64_t head = std::min(count, total - first);
  return {first, head, count - head};
}

// `count` elements of `type` from element `first` on, of a buffer `base` of `total` elements
// that wraps around (element j at byte offset j * extent), as the (address, count, datatype) of
// one MPI call: the plain elements where the range does not wrap around (no datatype to build:
// a datatype's creation and commit cost more than a small block's transfer), else a committed
// datatype of the two pieces, from base.
struct CyclicBlocks {
  char* at = nullptr;
  int count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  OwnedType owned;  // the two-piece datatype, if one was built
};
CyclicBlocks cyclic_elements(char* base, std::int64_t first, std::int64_t count, std::int64_t total,
                             MPI_Datatype type, MPI_Aint extent);

// Combines `count` elements at `in` (element j at in + j * extent) into the elements first ..
// first + count - 1 (mod total) of a buffer `base` of `total` elements that wraps around, as
// MPI_Reduce_local(in, base's, op) does: at most two calls, the second from the buffer's start.
void reduce_into_cyclic(const char* in, char* base, std::int64_t first, std::int64_t count,
                        std::int64_t total, MPI_Datatype type, MPI_Aint extent, MPI_Op op);

// The same for the blocks b .. b + c - 1 (mod cut.p) of a buffer cut as `cut` cuts it.
inline CyclicBlocks cyclic_blocks(char* base, const BlockCut& cut, std::int64_t b, std::int64_t c,
                                  MPI_Datatype type, MPI_Aint extent) {
  return cyclic_elements(base, cut.first(b), cut.elements(b, c), cut.n, type, extent);
}

// Copies src_count elements of src_type at src to dst_count elements of dst_type at dst (the
// type signatures must match), within this process: memcpy for one datatype without gaps on
// both sides, else through MPI (a send to itself).
void local_copy(const void* src, int src_count, MPI_Datatype src_type, void* dst, int dst_count,
                MPI_Datatype dst_type);
inline void local_copy(const void* src, void* dst, int count, MPI_Datatype type) {
  local_copy(src, count, type, dst, count, type);
}
// The same, the datatype's TypeInfo known (no queries).
void local_copy(const void* src, void* dst, int count, MPI_Datatype type, const TypeInfo& info);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_DATATYPE_H_
