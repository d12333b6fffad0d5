#include "mpi_exec/datatype.h"

#include <algorithm>
#include <cstring>

#include "mpi_exec/mpi_call.h"
#include "mpi_exec/tags.h"

namespace rosched::mpi {

TypeInfo type_info(MPI_Datatype type) {
  TypeInfo info;
  check(PMPI_Type_get_extent(type, &info.lb, &info.extent), "MPI_Type_get_extent");
  check(PMPI_Type_get_true_extent(type, &info.true_lb, &info.true_extent),
        "MPI_Type_get_true_extent");
  check(PMPI_Type_size(type, &info.size), "MPI_Type_size");
  return info;
}

TypedBuffer::TypedBuffer(const TypeInfo& info, int count)
    : storage_(count == 0 ? 0 : static_cast<std::size_t>(info.true_extent + (count - 1) * info.extent)),
      offset_(info.true_lb) {}

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

CyclicBlocks cyclic_blocks(char* base, std::int64_t first, std::int64_t count, std::int64_t p,
                           int block_count, MPI_Datatype type, MPI_Aint extent) {
  const std::int64_t head = std::min(count, p - first);  // blocks first .. p-1
  CyclicBlocks out;
  if (head == count) {
    out.at = base + static_cast<MPI_Aint>(first) * block_count * extent;
    out.count = static_cast<int>(count * block_count);
    out.type = type;
    return out;
  }
  int lengths[2] = {static_cast<int>(head * block_count),
                    static_cast<int>((count - head) * block_count)};
  MPI_Aint displacements[2] = {static_cast<MPI_Aint>(first) * block_count * extent, 0};
  out.owned = hindexed(2, lengths, displacements, type);
  out.at = base;
  out.count = 1;
  out.type = out.owned.get();
  return out;
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
