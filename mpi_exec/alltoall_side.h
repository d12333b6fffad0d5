// One side of an all-to-all as bytes, the exchange of rosched's algorithms over two sides, and
// the parts Rosched_Alltoall (alltoall.cc) and Rosched_Alltoallv (alltoallv.cc) share. Internal.
//
// Blocks are moved as bytes. A send or receive datatype that is not dense (gaps, a lower
// bound) is staged through one contiguous buffer by one local copy with a derived datatype of
// all blocks; MPI_IN_PLACE takes the data from the receive buffer (staged first). The caller's
// send buffer and counts are never written.
#ifndef ROSCHED_MPI_EXEC_ALLTOALL_SIDE_H_
#define ROSCHED_MPI_EXEC_ALLTOALL_SIDE_H_

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "mpi_exec/alltoall_bruck.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// One side of the exchange: P blocks of counts[j] elements of `type` at displs[j] extents from
// base, as bytes: in place when the type is dense, else in a contiguous staging buffer.
class AlltoallSide {
 public:
  // Throws Error(MPI_ERR_COUNT) for a side with gaps of more than INT_MAX bytes.
  AlltoallSide(const void* base, const int* counts, const int* displs, MPI_Datatype type,
               const TypeInfo& info, int p);
  char* data() { return dense_ ? static_cast<char*>(base_) : static_cast<char*>(staged_->data()); }
  void stage_in() {
    if (!dense_) local_copy(base_, 1, blocks_type_->get(), data(), total_, MPI_BYTE);
  }
  void stage_out() {
    if (!dense_) local_copy(data(), total_, MPI_BYTE, base_, 1, blocks_type_->get());
  }
  std::vector<std::int64_t> offset, size;

 private:
  void* base_;
  bool dense_;
  std::optional<ScratchBuffer> staged_;  // scratch kept from call to call (datatype.h)
  std::unique_ptr<OwnedType> blocks_type_;
  int total_ = 0;
};

// ROSCHED_ALLTOALL_VARIANT, or nullptr where it is unset or empty.
const char* alltoall_env_variant();

// The exchange itself, once arguments are checked: send and recv as bytes.
void alltoall_exchange(const CommInfo& ci, AlltoallSide& send, AlltoallSide& recv,
                       const AlltoallAlgorithm& algo, std::int64_t largest);

// last_run's number (last_run.h) for a trial's answer (0 the library's, 1 `rule`, 2 linear).
int alltoall_ran(int answer, const AlltoallAlgorithm& rule);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ALLTOALL_SIDE_H_
