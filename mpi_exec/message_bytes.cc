#include "mpi_exec/message_bytes.h"

#include <algorithm>
#include <climits>
#include <string>
#include <utility>

#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

ByteUnits byte_units(std::int64_t bytes, std::int64_t parts_or) {
  ByteUnits u;
  std::int64_t unit = 1;
  while (bytes / unit > INT_MAX && unit < (std::int64_t{1} << 30)) unit *= 2;
  if (bytes % unit != 0 || parts_or % unit != 0 || bytes / unit > INT_MAX) return u;
  u.ok = true;
  u.count = static_cast<int>(bytes / unit);
  u.info = {0, static_cast<MPI_Aint>(unit), 0, static_cast<MPI_Aint>(unit), static_cast<int>(unit)};
  if (unit > 1) {
    MPI_Datatype t;
    check(PMPI_Type_contiguous(static_cast<int>(unit), MPI_BYTE, &t), "MPI_Type_contiguous");
    check(PMPI_Type_commit(&t), "MPI_Type_commit");
    u.owned = OwnedType(t);
    u.type = t;
  }
  return u;
}

ByteUnits message_units(int count, const TypeInfo& type, int parts) {
  const std::int64_t part = std::int64_t{count} * type.size;
  return byte_units(part * parts, part);
}

ByteUnits blocks_units(const int recvcounts[], int p, int size) {
  std::int64_t total = 0, parts_or = 0;
  for (int j = 0; j < p; ++j) {
    const std::int64_t bytes = std::int64_t{recvcounts[j]} * size;
    total += bytes;
    parts_or |= bytes;
  }
  return byte_units(total, parts_or);
}

void require_units(const ByteUnits& units, std::int64_t bytes) {
  if (!units.ok) {
    throw Error(MPI_ERR_COUNT, std::to_string(bytes) +
                                   " bytes: more than INT_MAX, and no unit of a power of two "
                                   "bytes that divides them (each of the blocks they are cut "
                                   "into, for an all-gather) counts them in an int");
  }
}

MessageBytes::MessageBytes(void* buffer, int count, MPI_Datatype datatype, const TypeInfo& type,
                           ByteUnits units, bool fill, int parts)
    : buffer_(buffer),
      count_(count),
      parts_(parts),
      datatype_(datatype),
      extent_(type.extent),
      units_(std::move(units)) {
  const std::int64_t bytes = std::int64_t{count} * type.size * parts;
  require_units(units_, bytes);
  if (parts_ > 1 && std::int64_t{count_} * parts_ <= INT_MAX) {  // one copy where an int counts
    count_ *= parts_;
    parts_ = 1;
  }
  if (contiguous(type)) {
    data_ = buffer;
    return;
  }
  packed_.emplace(static_cast<std::size_t>(bytes));
  data_ = packed_->data();
  if (fill && bytes > 0) copy_parts(true);
}

void MessageBytes::store() const {
  if (data_ != buffer_ && units_.count > 0) copy_parts(false);
}

void MessageBytes::copy_parts(bool pack) const {
  const int units = units_.count / parts_;  // per part
  for (int j = 0; j < parts_; ++j) {
    char* const user = static_cast<char*>(buffer_) + MPI_Aint{j} * count_ * extent_;
    char* const bytes = static_cast<char*>(data_) + MPI_Aint{j} * units * units_.info.size;
    if (pack) {
      local_copy(user, count_, datatype_, bytes, units, units_.type);
    } else {
      local_copy(bytes, units, units_.type, user, count_, datatype_);
    }
  }
}

std::int64_t blocks_bytes(const int recvcounts[], int p, int size) {
  std::int64_t total = 0;
  for (int j = 0; j < p; ++j) total += recvcounts[j];
  return total * size;
}

int largest_block(const int recvcounts[], int p) {
  return static_cast<int>(std::max_element(recvcounts, recvcounts + p) - recvcounts);
}

bool largest_block_dominates(const int recvcounts[], int p) {
  std::int64_t total = 0;
  for (int j = 0; j < p; ++j) total += recvcounts[j];
  return total > 0 && 2 * std::int64_t{recvcounts[largest_block(recvcounts, p)]} >= total;
}

BlocksBytes::BlocksBytes(void* base, int p, int rank, const int recvcounts[], const int displs[],
                         MPI_Datatype recvtype, const TypeInfo& rtype)
    : base_(static_cast<char*>(base)),
      p_(p),
      rank_(rank),
      recvcounts_(recvcounts),
      user_displs_(displs),
      recvtype_(recvtype),
      extent_(rtype.extent),
      counts_(p),
      displs_(p) {
  const std::int64_t bytes = blocks_bytes(recvcounts, p, rtype.size);
  units_ = blocks_units(recvcounts, p, rtype.size);
  require_units(units_, bytes);
  const std::int64_t unit = units_.info.size;
  // The blocks one after the other in rank order, in units.
  std::int64_t at = 0;
  for (int j = 0; j < p; ++j) {
    counts_[j] = static_cast<int>(std::int64_t{recvcounts[j]} * rtype.size / unit);
    displs_[j] = static_cast<int>(at);
    at += counts_[j];
  }
  // In place where the caller's blocks lie so: a contiguous datatype, each block right after
  // the one before.
  bool in_place = contiguous(rtype);
  for (int j = 1; j < p && in_place; ++j) {
    in_place = std::int64_t{displs[j]} == std::int64_t{displs[j - 1]} + recvcounts[j - 1];
  }
  if (in_place) {
    data_ = base_ + displs[0] * extent_;
    return;
  }
  packed_.emplace(static_cast<std::size_t>(bytes));
  data_ = packed_->data();
  if (counts_[rank] > 0) {
    local_copy(base_ + displs[rank] * extent_, recvcounts[rank], recvtype,
               static_cast<char*>(data_) + std::int64_t{displs_[rank]} * unit, counts_[rank],
               units_.type);
  }
}

void BlocksBytes::store() const {
  if (!packed_) return;
  const std::int64_t unit = units_.info.size;
  for (int j = 0; j < p_; ++j) {
    if (j == rank_ || counts_[j] == 0) continue;
    local_copy(static_cast<const char*>(data_) + std::int64_t{displs_[j]} * unit, counts_[j],
               units_.type, base_ + user_displs_[j] * extent_, recvcounts_[j], recvtype_);
  }
}

}  // namespace rosched::mpi
