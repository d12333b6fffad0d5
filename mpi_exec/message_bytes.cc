#include "mpi_exec/message_bytes.h"

#include <climits>
#include <string>
#include <utility>

#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

ByteUnits byte_units(std::int64_t bytes) {
  ByteUnits u;
  std::int64_t unit = 1;
  while (bytes / unit > INT_MAX && unit < (std::int64_t{1} << 30)) unit *= 2;
  if (bytes % unit != 0 || bytes / unit > INT_MAX) return u;
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

ByteUnits message_units(int count, const TypeInfo& type) {
  return byte_units(std::int64_t{count} * type.size);
}

void require_units(const ByteUnits& units, std::int64_t bytes) {
  if (!units.ok) {
    throw Error(MPI_ERR_COUNT, std::to_string(bytes) +
                                   " bytes: more than INT_MAX, and no unit of a power of two "
                                   "bytes that divides them counts them in an int");
  }
}

MessageBytes::MessageBytes(void* buffer, int count, MPI_Datatype datatype, const TypeInfo& type,
                           ByteUnits units, bool fill)
    : buffer_(buffer), count_(count), datatype_(datatype), units_(std::move(units)) {
  const std::int64_t bytes = std::int64_t{count} * type.size;
  require_units(units_, bytes);
  if (contiguous(type)) {
    data_ = buffer;
    return;
  }
  packed_ = PayloadBuffer(static_cast<std::size_t>(bytes));
  data_ = packed_.data();
  if (fill && bytes > 0) local_copy(buffer, count, datatype, data_, units_.count, units_.type);
}

void MessageBytes::store() const {
  if (data_ != buffer_ && units_.count > 0) {
    local_copy(data_, units_.count, units_.type, buffer_, count_, datatype_);
  }
}

std::int64_t blocks_bytes(const int recvcounts[], int p, int size) {
  std::int64_t total = 0;
  for (int j = 0; j < p; ++j) total += recvcounts[j];
  return total * size;
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
  units_ = byte_units(bytes);
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
  packed_ = PayloadBuffer(static_cast<std::size_t>(bytes));
  data_ = packed_.data();
  if (counts_[rank] > 0) {
    local_copy(base_ + displs[rank] * extent_, recvcounts[rank], recvtype,
               packed_.data() + std::int64_t{displs_[rank]} * unit, counts_[rank], units_.type);
  }
}

void BlocksBytes::store() const {
  if (packed_.data() == nullptr || data_ != packed_.data()) return;
  const std::int64_t unit = units_.info.size;
  for (int j = 0; j < p_; ++j) {
    if (j == rank_ || counts_[j] == 0) continue;
    local_copy(packed_.data() + std::int64_t{displs_[j]} * unit, counts_[j], units_.type,
               base_ + user_displs_[j] * extent_, recvcounts_[j], recvtype_);
  }
}

}  // namespace rosched::mpi
