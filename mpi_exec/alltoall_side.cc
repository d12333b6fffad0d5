// The shared parts of the all-to-alls (alltoall_side.h).
#include "mpi_exec/alltoall_side.h"

#include <climits>
#include <string>
#include <utility>

#include "mpi_exec/settings.h"

namespace rosched::mpi {

AlltoallSide::AlltoallSide(const void* base, const int* counts, const int* displs,
                           MPI_Datatype type, const TypeInfo& info, int p)
    : base_(const_cast<void*>(base)), dense_(contiguous(info)) {
  offset.resize(p);
  size.resize(p);
  std::int64_t at = 0;
  for (int j = 0; j < p; ++j) {
    size[j] = static_cast<std::int64_t>(counts[j]) * info.size;
    offset[j] = dense_ ? static_cast<std::int64_t>(displs[j]) * info.extent : at;
    at += size[j];
  }
  if (!dense_) {
    if (at > INT_MAX) throw Error(MPI_ERR_COUNT, "more than INT_MAX bytes to stage");
    staged_.emplace(static_cast<std::size_t>(at) + 1);
    std::vector<MPI_Aint> where(p);
    for (int j = 0; j < p; ++j) where[j] = static_cast<MPI_Aint>(displs[j]) * info.extent;
    blocks_type_ = std::make_unique<OwnedType>(hindexed(p, counts, where.data(), type));
    total_ = static_cast<int>(at);
  }
}

const char* alltoall_env_variant() {
  const std::string& v = settings().alltoall_variant;
  return v.empty() ? nullptr : v.c_str();
}

// The exchange itself, once arguments are checked: send and recv as bytes.
void alltoall_exchange(const CommInfo& ci, AlltoallSide& send, AlltoallSide& recv,
                       const AlltoallAlgorithm& algo, std::int64_t largest) {
  BruckBlocks b{send.data(), send.offset, send.size, recv.data(), recv.offset, recv.size};
  if (!algo.bruck) {
    run_linear(b, ci);
    return;
  }
  BruckEngine engine(BruckPlan(BruckSchedule(ci.p), *algo.bruck), ci.rank, std::move(b), largest);
  run_bruck(engine, ci);
}

// last_run's number (last_run.h) for a trial's answer (0 the library's, 1 `rule`, 2 linear).
int alltoall_ran(int answer, const AlltoallAlgorithm& rule) {
  return answer == 0 ? 0 : answer == 1 && rule.bruck ? 1 : 2;
}

}  // namespace rosched::mpi
