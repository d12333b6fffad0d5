#include "mpi_exec/node_layout.h"

#include <algorithm>
#include <memory>

#include "mpi_exec/settings.h"

namespace rosched::mpi {

NodeNumbers number_nodes(const std::vector<int>& key_of) {
  NodeNumbers out;
  const int p = static_cast<int>(key_of.size());
  out.number_of.assign(p, 0);
  out.node_rank_of.assign(p, 0);
  const int max_key = p == 0 ? 0 : *std::max_element(key_of.begin(), key_of.end());
  std::vector<int> number_of_key(static_cast<std::size_t>(max_key) + 1, -1);
  std::vector<int> size_of;  // per node number
  for (int r = 0; r < p; ++r) {
    int& number = number_of_key[static_cast<std::size_t>(key_of[r])];
    if (number < 0) {
      number = static_cast<int>(size_of.size());
      size_of.push_back(0);
    }
    out.number_of[r] = number;
    out.node_rank_of[r] = size_of[number]++;
    // A node's ranks form one range iff each rank's node is its predecessor's or a new one.
    if (r > 0 && number != out.number_of[r - 1] && out.node_rank_of[r] != 0) {
      out.consecutive = false;
    }
  }
  out.nodes = static_cast<int>(size_of.size());
  if (!size_of.empty()) {
    out.min_node_size = *std::min_element(size_of.begin(), size_of.end());
    out.max_node_size = *std::max_element(size_of.begin(), size_of.end());
  }
  return out;
}

namespace {

int free_layout(MPI_Comm, int, void* attribute, void*) {
  auto* layout = static_cast<NodeLayout*>(attribute);
  int rc = MPI_SUCCESS;
  for (MPI_Comm* c : {&layout->node, &layout->lane}) {
    if (*c != MPI_COMM_NULL && rc == MPI_SUCCESS) rc = PMPI_Comm_free(c);
  }
  delete layout;
  return rc;
}
RecordKey layout_key(free_layout);

// This rank's node: the communicator of the ranks that share it, and its key (the lowest rank
// of the node in comm).
MPI_Comm split_nodes(const CommInfo& comm, int* key) {
  MPI_Comm node = MPI_COMM_NULL;
  const int k = settings().node_size;
  if (k > 0) {
    *key = comm.rank / k * k;
    check(PMPI_Comm_split(comm.c, *key, comm.rank, &node), "MPI_Comm_split");
  } else {
    check(PMPI_Comm_split_type(comm.c, MPI_COMM_TYPE_SHARED, comm.rank, MPI_INFO_NULL, &node),
          "MPI_Comm_split_type");
    check(PMPI_Allreduce(&comm.rank, key, 1, MPI_INT, MPI_MIN, node), "MPI_Allreduce");
  }
  return node;
}

NodeLayout* build(const CommInfo& comm) {
  auto layout = std::make_unique<NodeLayout>();
  if (comm.p == 1) return layout.release();
  int key = 0;
  MPI_Comm node = split_nodes(comm, &key);
  std::vector<int> key_of(static_cast<std::size_t>(comm.p));
  int rc = PMPI_Allgather(&key, 1, MPI_INT, key_of.data(), 1, MPI_INT, comm.user);
  if (rc != MPI_SUCCESS) PMPI_Comm_free(&node);
  check_on(comm.user, rc, "MPI_Allgather");
  NodeNumbers numbers = number_nodes(key_of);
  layout->nodes = numbers.nodes;
  layout->min_node_size = numbers.min_node_size;
  layout->max_node_size = numbers.max_node_size;
  layout->consecutive = numbers.consecutive;
  layout->node_number = numbers.number_of[comm.rank];
  layout->node_rank = numbers.node_rank_of[comm.rank];
  if (!layout->hierarchical()) {
    check(PMPI_Comm_free(&node), "MPI_Comm_free");
    return layout.release();
  }
  layout->node = node;
  layout->number_of = std::move(numbers.number_of);
  layout->node_rank_of = std::move(numbers.node_rank_of);
  rc = PMPI_Comm_split(comm.c, layout->node_rank, layout->node_number, &layout->lane);
  if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_errhandler(layout->node, MPI_ERRORS_RETURN);
  if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_errhandler(layout->lane, MPI_ERRORS_RETURN);
  if (rc != MPI_SUCCESS) free_layout(MPI_COMM_NULL, 0, layout.release(), nullptr);
  check(rc, "MPI_Comm_split or MPI_Comm_set_errhandler");
  return layout.release();
}

}  // namespace

// The layout is an attribute of the private duplicate (freed with it, and its communicators
// with it); the CommCache keeps a pointer, so later calls need no lookup.
const NodeLayout& node_layout(const CommInfo& comm) {
  return duplicate_record(comm, layout_key, &CommCache::nodes, [&] { return build(comm); });
}

}  // namespace rosched::mpi
