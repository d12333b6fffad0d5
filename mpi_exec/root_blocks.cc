#include "mpi_exec/root_blocks.h"

#include <vector>

#include "mpi_exec/tags.h"

namespace rosched::mpi {

void move_root_blocks(RootBlocks direction, const CommInfo& ci, char* base, const BlockCut& cut,
                      MPI_Datatype datatype, const TypeInfo& type, int root) {
  const auto block = [&](int b) { return base + cut.first(b) * type.extent; };
  const auto elements = [&](int b) { return static_cast<int>(cut.elements(b, 1)); };
  const bool gather = direction == RootBlocks::kGather;
  if (ci.rank != root) {
    const int b = ci.rank;
    if (elements(b) == 0) return;
    if (gather) {
      check(PMPI_Send(block(b), elements(b), datatype, root, tag::kRootBlocks, ci.c), "MPI_Send");
    } else {
      check(PMPI_Recv(block(b), elements(b), datatype, root, tag::kRootBlocks, ci.c,
                      MPI_STATUS_IGNORE),
            "MPI_Recv");
    }
    return;
  }
  std::vector<MPI_Request> requests;
  requests.reserve(static_cast<std::size_t>(ci.p - 1));
  for (int b = 0; b < ci.p; ++b) {
    if (b == root || elements(b) == 0) continue;
    requests.push_back(MPI_REQUEST_NULL);
    if (gather) {
      check(PMPI_Irecv(block(b), elements(b), datatype, b, tag::kRootBlocks, ci.c,
                       &requests.back()),
            "MPI_Irecv");
    } else {
      check(PMPI_Isend(block(b), elements(b), datatype, b, tag::kRootBlocks, ci.c,
                       &requests.back()),
            "MPI_Isend");
    }
  }
  check(PMPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
        "MPI_Waitall");
}

}  // namespace rosched::mpi
