// Messages as bytes. MPI lets the ranks of a collective describe one message by different
// datatypes, as long as the type signatures match (MPI 4.0, Sec. 6.1: a broadcast's root may send
// 6 MPI_INTs that another rank receives as one vector of three pairs). rosched's algorithms cut
// a message into blocks and parts; cut by elements of each rank's own datatype, two such ranks
// would cut at different bytes (wrong data, truncated messages, hangs). So the broadcasts and
// the all-gathers run on the message's bytes, which every rank counts alike: the caller's
// buffer itself where its datatype has no gaps, else a packed copy, and all cuts and decisions
// (block counts, candidates, size classes) on the byte count.
#ifndef ROSCHED_MPI_EXEC_MESSAGE_BYTES_H_
#define ROSCHED_MPI_EXEC_MESSAGE_BYTES_H_

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "mpi_exec/datatype.h"

namespace rosched::mpi {

// `bytes` bytes as whole units of one contiguous datatype, counted in an int: MPI_BYTE up to
// INT_MAX bytes, else the smallest power of two of bytes that divides them and brings the count
// to at most INT_MAX (a datatype built for the call). Where the bytes are parts that are cut
// apart (an all-gather's blocks), the unit also divides every part: parts_or is the bitwise OR
// of the parts' byte counts (a power of two divides each of them if and only if it divides
// that). Not representable (ok false): more than INT_MAX bytes and no such unit (an odd count
// of bytes, say).
struct ByteUnits {
  bool ok = false;
  int count = 0;
  MPI_Datatype type = MPI_BYTE;
  TypeInfo info;
  OwnedType owned;  // the unit's datatype, where it is not MPI_BYTE
};
ByteUnits byte_units(std::int64_t bytes, std::int64_t parts_or);
inline ByteUnits byte_units(std::int64_t bytes) { return byte_units(bytes, bytes); }

// byte_units of `parts` parts of count elements of a datatype of type.size bytes each.
ByteUnits message_units(int count, const TypeInfo& type, int parts = 1);

// byte_units of p blocks, recvcounts[j] elements of `size` bytes each.
ByteUnits blocks_units(const int recvcounts[], int p, int size);

// Throws MPI_ERR_COUNT, naming the byte count, unless units.ok.
void require_units(const ByteUnits& units, std::int64_t bytes);

// One rank's copy of a message, count elements of datatype at buffer, as units (message_units,
// or `units` if the caller has them already): the buffer itself where the datatype is
// contiguous, else a packed copy in scratch memory (ScratchBuffer), filled from the buffer when
// `fill` (the ranks that hold the data). store() copies a packed copy back to the buffer (the ranks
// that received it). `parts` > 1: the message is that many parts of count elements each, one after
// the other (an all-gather's result: more than INT_MAX elements in all, so copied part by part;
// `units` then message_units(count, type, parts)). Throws MPI_ERR_COUNT where the bytes are not
// representable.
class MessageBytes {
 public:
  MessageBytes(void* buffer, int count, MPI_Datatype datatype, const TypeInfo& type, bool fill)
      : MessageBytes(buffer, count, datatype, type, message_units(count, type), fill) {}
  MessageBytes(void* buffer, int count, MPI_Datatype datatype, const TypeInfo& type,
               ByteUnits units, bool fill, int parts = 1);
  void* data() const { return data_; }
  int count() const { return units_.count; }
  MPI_Datatype type() const { return units_.type; }
  const TypeInfo& info() const { return units_.info; }
  void store() const;

 private:
  void copy_parts(bool pack) const;  // the buffer into the packed copy, or back

  void* buffer_;
  int count_, parts_;
  MPI_Datatype datatype_;
  MPI_Aint extent_;
  ByteUnits units_;
  std::optional<ScratchBuffer> packed_;
  void* data_;
};

// The p blocks of an all-gather's result, block j recvcounts[j] elements of recvtype at
// displs[j] extents from base, as units, one after the other in rank order: counts() and
// displs() (the running sums of counts()) in units of type(), from data(). So every rank sees
// the same layout, whatever its datatype and displacements (MPI lets both differ between ranks;
// the node-aware all-gather needs the blocks in order). In place where the caller's blocks are
// so (a contiguous datatype, each block right after the one before), else in a packed copy,
// filled with this rank's own block (which must be in place in the result already); store()
// copies the other ranks' blocks from it to their places.
class BlocksBytes {
 public:
  BlocksBytes(void* base, int p, int rank, const int recvcounts[], const int displs[],
              MPI_Datatype recvtype, const TypeInfo& rtype);
  void* data() const { return data_; }
  const int* counts() const { return counts_.data(); }
  const int* displs() const { return displs_.data(); }
  MPI_Datatype type() const { return units_.type; }
  const TypeInfo& info() const { return units_.info; }
  void store() const;

 private:
  char* base_;
  int p_, rank_;
  const int* recvcounts_;
  const int* user_displs_;
  MPI_Datatype recvtype_;
  MPI_Aint extent_;
  ByteUnits units_;
  std::vector<int> counts_, displs_;
  std::optional<ScratchBuffer> packed_;
  void* data_;
};

// The bytes of p blocks of recvcounts elements of a datatype of `size` bytes.
std::int64_t blocks_bytes(const int recvcounts[], int p, int size);

// The largest block (the first of equal ones) of recvcounts[0 .. p-1], and whether it is at
// least half of all elements (and there are any): where Rosched_Allgatherv also times
// largest_bcast_allgatherv_on, and the distributions whose decisions Rosched_Allgatherv and
// Rosched_Allmerge keep apart from the others'.
int largest_block(const int recvcounts[], int p);
bool largest_block_dominates(const int recvcounts[], int p);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_MESSAGE_BYTES_H_
