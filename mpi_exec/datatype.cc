#include "mpi_exec/datatype.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

#include "mpi_exec/kept_buffers.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"

namespace rosched::mpi {

namespace {

thread_local MPI_Datatype last_named = MPI_DATATYPE_NULL;
thread_local TypeInfo last_named_info;

}  // namespace

const TypeInfo& remember_predefined(MPI_Datatype type) {
  if (type != last_named) {
    last_named_info = type_info(type);
    last_named = type;
  }
  return last_named_info;
}

bool is_remembered_predefined(MPI_Datatype type) {
  return type != MPI_DATATYPE_NULL && type == last_named;
}

TypeInfo type_info(MPI_Datatype type) {
  if (type == last_named && type != MPI_DATATYPE_NULL) return last_named_info;
  TypeInfo info;
  check(PMPI_Type_get_extent(type, &info.lb, &info.extent), "MPI_Type_get_extent");
  check(PMPI_Type_get_true_extent(type, &info.true_lb, &info.true_extent),
        "MPI_Type_get_true_extent");
  check(PMPI_Type_size(type, &info.size), "MPI_Type_size");
  return info;
}

std::size_t span_of(const TypeInfo& t, int count) {
  return count == 0 ? 0 : static_cast<std::size_t>(t.true_extent + (count - 1) * t.extent);
}

void copy_elements(void* dst, const void* src, const TypeInfo& t, int count) {
  if (count == 0) return;
  std::memcpy(static_cast<char*>(dst) + t.true_lb, static_cast<const char*>(src) + t.true_lb,
              span_of(t, count));
}

namespace {

struct MakeSmall {
  std::unique_ptr<unsigned char[]> operator()(std::size_t bytes) const {
    return std::unique_ptr<unsigned char[]>(new unsigned char[bytes]);
  }
};
struct MakeLarge {
  PayloadBuffer operator()(std::size_t bytes) const { return PayloadBuffer(bytes); }
};

constexpr std::size_t kMiB = std::size_t{1} << 20;

// What ROSCHED_SCRATCH_KEEP (settings.h) leaves to each store: the small one first, up to
// 16 MiB, the large one the rest, up to 128 MiB by default.
std::size_t small_keep() { return std::min(16 * kSmallScratch, settings().scratch_keep); }
std::size_t large_keep() { return settings().scratch_keep - small_keep(); }

// Blocks of pipelined collectives and short vectors: up to 1 MiB, 16 of them, any fit.
thread_local KeptBuffers<std::unique_ptr<unsigned char[]>, MakeSmall> small_store(16, kSmallScratch,
                                                                                  small_keep(),
                                                                                  kSmallScratch);

// Whole vectors (accumulators, packed copies, landing places of one-block messages): above
// 1 MiB, at most 4 of them, each at most 64 MiB, 128 MiB in all by default, a request taking at
// most 4 times its size. Made per call, such buffers cost more than the collective where the
// system hands back their pages after each call (glibc's malloc does above its trim threshold):
// p = 2, the circulant reduction of 4 MiB took 1,689-1,788 us with them, 591 with this store,
// 513 with malloc keeping all its memory, Open MPI's MPI_Reduce 340-376 (docs/perf.md, "Scratch
// kept from call to call"). Not under SimGrid SMPI: its shared-malloc records are gone by the
// time this thread's buffers would be freed (at exit), and a simulation does not charge page
// faults.
#ifdef SMPI_H
constexpr std::size_t kLargeKept = 0;
#else
constexpr std::size_t kLargeKept = 4;
#endif
thread_local KeptBuffers<PayloadBuffer, MakeLarge> large_store(kLargeKept,
                                                               std::min(64 * kMiB, large_keep()),
                                                               large_keep(), 4);

}  // namespace

ScratchBuffer::ScratchBuffer(const TypeInfo& t, int count)
    : ScratchBuffer(span_of(t, count), t.true_lb) {}

ScratchBuffer::ScratchBuffer(std::size_t bytes, MPI_Aint offset) : offset_(offset) {
  if (bytes > kSmallScratch) {
    large_ = large_store.take(bytes, &capacity_);
  } else if (bytes > kInline) {
    store_ = small_store.take(bytes, &capacity_);
  }
}

ScratchBuffer::~ScratchBuffer() {
  if (store_) small_store.give(std::move(store_), capacity_);
  if (large_.data() != nullptr) large_store.give(std::move(large_), capacity_);
}

std::size_t scratch_kept_bytes() { return small_store.held() + large_store.held(); }

OwnedType::~OwnedType() {
  if (type_ != MPI_DATATYPE_NULL) PMPI_Type_free(&type_);
}

OwnedType& OwnedType::operator=(OwnedType&& other) noexcept {
  if (this != &other) {
    if (type_ != MPI_DATATYPE_NULL) PMPI_Type_free(&type_);
    type_ = other.type_;
    other.type_ = MPI_DATATYPE_NULL;
  }
  return *this;
}

CyclicBlocks cyclic_elements(char* base, std::int64_t first, std::int64_t count,
                             std::int64_t total, MPI_Datatype type, MPI_Aint extent) {
  const WrappedRange r = wrapped_range(first, count, total);
  CyclicBlocks out;
  if (r.tail == 0) {
    out.at = base + static_cast<MPI_Aint>(r.first) * extent;
    out.count = static_cast<int>(count);
    out.type = type;
    return out;
  }
  int lengths[2] = {static_cast<int>(r.head), static_cast<int>(r.tail)};
  MPI_Aint displacements[2] = {static_cast<MPI_Aint>(r.first) * extent, 0};
  out.owned = hindexed(2, lengths, displacements, type);
  out.at = base;
  out.count = 1;
  out.type = out.owned.get();
  return out;
}

void reduce_into_cyclic(const char* in, char* base, std::int64_t first, std::int64_t count,
                        std::int64_t total, MPI_Datatype type, MPI_Aint extent, MPI_Op op) {
  const WrappedRange r = wrapped_range(first, count, total);
  if (r.head > 0) {
    check(PMPI_Reduce_local(in, base + static_cast<MPI_Aint>(r.first) * extent,
                            static_cast<int>(r.head), type, op),
          "MPI_Reduce_local");
  }
  if (r.tail > 0) {
    check(PMPI_Reduce_local(in + static_cast<MPI_Aint>(r.head) * extent, base,
                            static_cast<int>(r.tail), type, op),
          "MPI_Reduce_local");
  }
}

std::vector<std::int64_t> block_starts(const int counts[], int p) {
  std::vector<std::int64_t> starts(static_cast<std::size_t>(p) + 1, 0);
  for (int b = 0; b < p; ++b) starts[b + 1] = starts[b] + counts[b];
  return starts;
}

OwnedType hindexed(int count, const int* lengths, const MPI_Aint* offsets, MPI_Datatype element) {
  MPI_Datatype t;
  check(PMPI_Type_create_hindexed(count, lengths, offsets, element, &t),
        "MPI_Type_create_hindexed");
  check(PMPI_Type_commit(&t), "MPI_Type_commit");
  return OwnedType(t);
}

void local_copy(const void* src, int src_count, MPI_Datatype src_type, void* dst, int dst_count,
                MPI_Datatype dst_type) {
  if (src_type == dst_type && src_count == dst_count) {
    return local_copy(src, dst, src_count, src_type, type_info(src_type));
  }
  check(PMPI_Sendrecv(src, src_count, src_type, 0, tag::kLocalCopy, dst, dst_count, dst_type, 0,
                     tag::kLocalCopy, self_comm(), MPI_STATUS_IGNORE),
        "MPI_Sendrecv (local copy)");
}

void local_copy(const void* src, void* dst, int count, MPI_Datatype type, const TypeInfo& info) {
  if (!contiguous(info)) {
    check(PMPI_Sendrecv(src, count, type, 0, tag::kLocalCopy, dst, count, type, 0,
                       tag::kLocalCopy, self_comm(), MPI_STATUS_IGNORE),
          "MPI_Sendrecv (local copy)");
    return;
  }
  const std::size_t bytes = static_cast<std::size_t>(count) * static_cast<std::size_t>(info.size);
  if (bytes > 0 && src != dst) std::memmove(dst, src, bytes);
}

}  // namespace rosched::mpi
