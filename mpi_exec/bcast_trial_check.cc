#include "mpi_exec/bcast_trial_check.h"

#include <string>

namespace rosched::mpi {

BcastTrialCheck::BcastTrialCheck(const CommInfo& ci, void* buffer, int count,
                                 MPI_Datatype datatype, int root)
    : ci_(ci), buffer_(buffer), count_(count), datatype_(datatype), root_(root) {
  reference_ = packed();
  // Every rank packs the same type signature, so the packed sizes agree.
  check(PMPI_Bcast(reference_.data(), static_cast<int>(reference_.size()), MPI_BYTE, root_, ci_.c),
        "MPI_Bcast");
}

std::vector<char> BcastTrialCheck::packed() const {
  int size = 0;
  check(PMPI_Pack_size(count_, datatype_, ci_.c, &size), "MPI_Pack_size");
  std::vector<char> bytes(static_cast<std::size_t>(size));
  int position = 0;
  check(PMPI_Pack(buffer_, count_, datatype_, bytes.data(), size, &position, ci_.c), "MPI_Pack");
  bytes.resize(static_cast<std::size_t>(position));
  return bytes;
}

void BcastTrialCheck::before() {
  if (ci_.rank == root_) return;
  std::vector<char> garbage(reference_.size());
  for (std::size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<char>(~reference_[i]);
  int position = 0;
  check(PMPI_Unpack(garbage.data(), static_cast<int>(garbage.size()), &position, buffer_, count_,
                    datatype_, ci_.c),
        "MPI_Unpack");
}

void BcastTrialCheck::after(const char* name) {
  const int mine = ci_.rank != root_ && packed() != reference_ ? ci_.rank : ci_.p;
  int first = ci_.p;
  check(PMPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, ci_.c), "MPI_Allreduce");
  if (first < ci_.p) {
    throw Error(MPI_ERR_INTERN, std::string("Rosched_Bcast's trial: candidate \"") + name +
                                    "\" delivered wrong bytes (rank " + std::to_string(first) +
                                    " first; ROSCHED_DEBUG check)");
  }
}

}  // namespace rosched::mpi
