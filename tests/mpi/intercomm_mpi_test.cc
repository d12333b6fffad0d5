// Inter-communicators: every entry point that is an MPI collective (Rosched_Bcast, _Allgather,
// _Allgatherv, _Allreduce, _Reduce, _Reduce_scatter(_block), _Alltoall(v)) gives MPI's
// inter-communicator semantics by running the MPI library's own collective there, its results
// compared with the library's, element by element, and with what MPI says they are; its _choice
// query answers 0 (the library's). The named algorithms (_circulant, _nway, ...) and the
// collectives MPI does not have (Rosched_Allmerge) report MPI_ERR_COMM on every rank, naming the
// inter-communicator, and return (no hang).
#include <mpi.h>

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "mpi_exec/rosched_mpi.h"
#include "tests/mpi/mpi_test_util.h"

namespace rosched_mpi_test {
namespace {

// The two groups: world ranks of even number (group 0) and of odd number (group 1); local rank
// i of group g is world rank 2 i + g.
struct Groups {
  int color = 0, local_rank = 0, local_size = 0, remote_size = 0;
  MPI_Comm inter = MPI_COMM_NULL;
};

int world_of(int group, int local) { return 2 * local + group; }

Groups make_groups() {
  Groups g;
  g.color = rank % 2;
  g.local_rank = rank / 2;
  MPI_Comm local;
  MPI_Comm_split(MPI_COMM_WORLD, g.color, rank, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - g.color, 17, &g.inter);
  MPI_Comm_free(&local);
  MPI_Comm_set_errhandler(g.inter, MPI_ERRORS_RETURN);
  MPI_Comm_size(g.inter, &g.local_size);
  MPI_Comm_remote_size(g.inter, &g.remote_size);
  return g;
}

// Element i of world rank r's contribution.
int item(int r, int i) { return 1000 * (r + 1) + i; }

void test_rooted(const Groups& g) {
  for (const int count : {0, 5, 3000}) {
    for (const int root_group : {0, 1}) {
      // The root: the last rank of root_group; its group passes MPI_ROOT / MPI_PROC_NULL.
      const int root_size = root_group == g.color ? g.local_size : g.remote_size;
      const int root_local = root_size - 1;
      const int root_arg = g.color != root_group        ? root_local
                           : g.local_rank == root_local ? MPI_ROOT
                                                        : MPI_PROC_NULL;
      const std::string where = " (count " + std::to_string(count) + ", root in group " +
                                std::to_string(root_group) + ")";
      std::vector<int> mine(count), ours(count, -1), lib(count, -1);
      for (int i = 0; i < count; ++i) mine[i] = item(rank, i);
      // Bcast: the receiving group gets the root's data.
      if (root_arg == MPI_ROOT) ours = mine, lib = mine;
      int rc = Rosched_Bcast(ours.data(), count, MPI_INT, root_arg, g.inter);
      MPI_Bcast(lib.data(), count, MPI_INT, root_arg, g.inter);
      bool right = rc == MPI_SUCCESS && ours == lib;
      if (g.color != root_group) {
        for (int i = 0; i < count; ++i)
          right = right && ours[i] == item(world_of(root_group, root_local), i);
      }
      expect(right, "inter-communicator: Rosched_Bcast as MPI_Bcast" + where);
      // Reduce: the root gets the sum over the other group.
      std::fill(ours.begin(), ours.end(), -1);
      std::fill(lib.begin(), lib.end(), -1);
      rc = Rosched_Reduce(mine.data(), ours.data(), count, MPI_INT, MPI_SUM, root_arg, g.inter);
      MPI_Reduce(mine.data(), lib.data(), count, MPI_INT, MPI_SUM, root_arg, g.inter);
      right = rc == MPI_SUCCESS && ours == lib;
      if (root_arg == MPI_ROOT) {
        for (int i = 0; i < count; ++i) {
          int sum = 0;
          for (int l = 0; l < g.remote_size; ++l) sum += item(world_of(1 - g.color, l), i);
          right = right && ours[i] == sum;
        }
      }
      expect(right, "inter-communicator: Rosched_Reduce as MPI_Reduce" + where);
    }
  }
}

void test_unrooted(const Groups& g) {
  const int other = 1 - g.color;
  for (const int n : {0, 1, 700}) {
    const std::string where = " (" + std::to_string(n) + " per rank)";
    // Allreduce: every rank gets the sum over the other group.
    std::vector<int> mine(n), ours(n, -1), lib(n, -1);
    for (int i = 0; i < n; ++i) mine[i] = item(rank, i);
    int rc = Rosched_Allreduce(mine.data(), ours.data(), n, MPI_INT, MPI_SUM, g.inter);
    MPI_Allreduce(mine.data(), lib.data(), n, MPI_INT, MPI_SUM, g.inter);
    bool right = rc == MPI_SUCCESS && ours == lib;
    for (int i = 0; i < n; ++i) {
      int sum = 0;
      for (int l = 0; l < g.remote_size; ++l) sum += item(world_of(other, l), i);
      right = right && ours[i] == sum;
    }
    expect(right, "inter-communicator: Rosched_Allreduce as MPI_Allreduce" + where);
    // Allgather: every rank gets the other group's blocks, in its ranks' order.
    std::vector<int> all(n * g.remote_size, -1), all_lib(n * g.remote_size, -1);
    rc = Rosched_Allgather(mine.data(), n, MPI_INT, all.data(), n, MPI_INT, g.inter);
    MPI_Allgather(mine.data(), n, MPI_INT, all_lib.data(), n, MPI_INT, g.inter);
    right = rc == MPI_SUCCESS && all == all_lib;
    for (int l = 0; l < g.remote_size; ++l) {
      for (int i = 0; i < n; ++i) right = right && all[l * n + i] == item(world_of(other, l), i);
    }
    expect(right, "inter-communicator: Rosched_Allgather as MPI_Allgather" + where);
    // Allgatherv: the other group's rank l sends n + l elements (this group sends its own n + l).
    std::vector<int> sendv(n + g.local_rank), counts(g.remote_size), displs(g.remote_size);
    for (int i = 0; i < n + g.local_rank; ++i) sendv[i] = item(rank, i);
    int total = 0;
    for (int l = 0; l < g.remote_size; ++l) counts[l] = n + l, displs[l] = total, total += n + l;
    std::vector<int> vall(total, -1), vall_lib(total, -1);
    rc = Rosched_Allgatherv(sendv.data(), n + g.local_rank, MPI_INT, vall.data(), counts.data(),
                            displs.data(), MPI_INT, g.inter);
    MPI_Allgatherv(sendv.data(), n + g.local_rank, MPI_INT, vall_lib.data(), counts.data(),
                   displs.data(), MPI_INT, g.inter);
    expect(rc == MPI_SUCCESS && vall == vall_lib,
           "inter-communicator: Rosched_Allgatherv as MPI_Allgatherv" + where);
    // Alltoall(v): block l of this rank's send buffer goes to the other group's rank l.
    std::vector<int> to(n * g.remote_size), from(n * g.remote_size, -1),
        from_lib(n * g.remote_size, -1);
    for (int i = 0; i < n * g.remote_size; ++i) to[i] = item(rank, i);
    rc = Rosched_Alltoall(to.data(), n, MPI_INT, from.data(), n, MPI_INT, g.inter);
    MPI_Alltoall(to.data(), n, MPI_INT, from_lib.data(), n, MPI_INT, g.inter);
    expect(rc == MPI_SUCCESS && from == from_lib,
           "inter-communicator: Rosched_Alltoall as MPI_Alltoall" + where);
    std::vector<int> sc(g.remote_size, n), sd(g.remote_size);
    for (int l = 0; l < g.remote_size; ++l) sd[l] = l * n;
    std::fill(from.begin(), from.end(), -1);
    std::fill(from_lib.begin(), from_lib.end(), -1);
    rc = Rosched_Alltoallv(to.data(), sc.data(), sd.data(), MPI_INT, from.data(), sc.data(),
                           sd.data(), MPI_INT, g.inter);
    MPI_Alltoallv(to.data(), sc.data(), sd.data(), MPI_INT, from_lib.data(), sc.data(), sd.data(),
                  MPI_INT, g.inter);
    expect(rc == MPI_SUCCESS && from == from_lib,
           "inter-communicator: Rosched_Alltoallv as MPI_Alltoallv" + where);
  }
}

// The reduce-scatters where both groups have the same size (MPI's inter-communicator
// reduce-scatter sends each group's vectors to the other group's blocks).
void test_reduce_scatters(const Groups& g) {
  if (g.local_size != g.remote_size) return;
  for (const int n : {0, 3, 500}) {
    const std::string where = " (" + std::to_string(n) + " per rank)";
    std::vector<int> mine(n * g.local_size), ours(n, -1), lib(n, -1);
    for (int i = 0; i < n * g.local_size; ++i) mine[i] = item(rank, i);
    int rc = Rosched_Reduce_scatter_block(mine.data(), ours.data(), n, MPI_INT, MPI_SUM, g.inter);
    MPI_Reduce_scatter_block(mine.data(), lib.data(), n, MPI_INT, MPI_SUM, g.inter);
    expect(rc == MPI_SUCCESS && ours == lib,
           "inter-communicator: Rosched_Reduce_scatter_block as "
           "MPI_Reduce_scatter_block" +
               where);
    std::vector<int> counts(g.local_size, n);
    std::fill(ours.begin(), ours.end(), -1);
    std::fill(lib.begin(), lib.end(), -1);
    rc = Rosched_Reduce_scatter(mine.data(), ours.data(), counts.data(), MPI_INT, MPI_SUM, g.inter);
    MPI_Reduce_scatter(mine.data(), lib.data(), counts.data(), MPI_INT, MPI_SUM, g.inter);
    expect(rc == MPI_SUCCESS && ours == lib,
           "inter-communicator: Rosched_Reduce_scatter as MPI_Reduce_scatter" + where);
  }
}

void test_choices(const Groups& g) {
  std::vector<int> counts(g.remote_size, 8);
  int a = -1, b = -1, c = -1, d = -1, e = -1, f = -1, h = -1, k = -1;
  const bool ok =
      Rosched_Bcast_choice(g.inter, 1 << 16, MPI_INT, &a) == MPI_SUCCESS &&
      Rosched_Allreduce_choice(g.inter, 1 << 16, MPI_INT, MPI_SUM, &b) == MPI_SUCCESS &&
      Rosched_Reduce_choice(g.inter, 1 << 16, MPI_INT, MPI_SUM, &c) == MPI_SUCCESS &&
      Rosched_Allgather_choice(g.inter, 1 << 12, MPI_INT, &d) == MPI_SUCCESS &&
      Rosched_Allgatherv_choice(g.inter, counts.data(), MPI_INT, &e) == MPI_SUCCESS &&
      Rosched_Reduce_scatter_block_choice(g.inter, 8, MPI_INT, MPI_SUM, &f) == MPI_SUCCESS &&
      Rosched_Reduce_scatter_choice(g.inter, counts.data(), MPI_INT, MPI_SUM, &h) == MPI_SUCCESS &&
      Rosched_Alltoall_choice(g.inter, 8, MPI_INT, &k) == MPI_SUCCESS;
  expect(ok && a == 0 && b == 0 && c == 0 && d == 0 && e == 0 && f == 0 && h == 0 && k == 0,
         "inter-communicator: every _choice query answers 0 (the library's)");
}

void no_merge(const void*, int, const void*, int, void*, MPI_Datatype, void*) {}

// The named algorithms and the all-merge (and its query): MPI_ERR_COMM on every rank, naming
// the inter-communicator.
void test_named(const Groups& g) {
  std::vector<int> buf(64 * (g.local_size + g.remote_size), 0), out(buf.size(), 0);
  std::vector<int> counts(g.remote_size + g.local_size, 1), displs(counts.size(), 0);
  for (std::size_t i = 0; i < displs.size(); ++i) displs[i] = static_cast<int>(i);
  const std::vector<std::pair<std::string, std::function<int()>>> calls = {
      {"Rosched_Bcast_circulant",
       [&] { return Rosched_Bcast_circulant(buf.data(), 8, MPI_INT, 0, g.inter); }},
      {"Rosched_Bcast_kary_tree",
       [&] { return Rosched_Bcast_kary_tree(buf.data(), 8, MPI_INT, 0, g.inter); }},
      {"Rosched_Bcast_knomial",
       [&] { return Rosched_Bcast_knomial(buf.data(), 8, MPI_INT, 0, g.inter); }},
      {"Rosched_Allgather_circulant",
       [&] {
         return Rosched_Allgather_circulant(buf.data(), 1, MPI_INT, out.data(), 1, MPI_INT,
                                            g.inter);
       }},
      {"Rosched_Allgatherv_circulant",
       [&] {
         return Rosched_Allgatherv_circulant(buf.data(), 1, MPI_INT, out.data(), counts.data(),
                                             displs.data(), MPI_INT, g.inter);
       }},
      {"Rosched_Allgatherv_nway",
       [&] {
         return Rosched_Allgatherv_nway(buf.data(), 1, MPI_INT, out.data(), counts.data(),
                                        displs.data(), MPI_INT, g.inter);
       }},
      {"Rosched_Allgather_nway",
       [&] {
         return Rosched_Allgather_nway(buf.data(), 1, MPI_INT, out.data(), 1, MPI_INT, g.inter);
       }},
      {"Rosched_Allreduce_nway",
       [&] {
         return Rosched_Allreduce_nway(buf.data(), out.data(), 8, MPI_INT, MPI_SUM, g.inter);
       }},
      {"Rosched_Allreduce_two_tree",
       [&] {
         return Rosched_Allreduce_two_tree(buf.data(), out.data(), 8, MPI_INT, MPI_SUM, g.inter);
       }},
      {"Rosched_Allreduce_knomial",
       [&] {
         return Rosched_Allreduce_knomial(buf.data(), out.data(), 8, MPI_INT, MPI_SUM, g.inter);
       }},
      {"Rosched_Allreduce_nport",
       [&] {
         return Rosched_Allreduce_nport(buf.data(), out.data(), 8, MPI_INT, MPI_SUM, g.inter);
       }},
      {"Rosched_Reduce_circulant",
       [&] {
         return Rosched_Reduce_circulant(buf.data(), out.data(), 8, MPI_INT, MPI_SUM, 0, g.inter);
       }},
      {"Rosched_Reduce_scatter_block_circulant",
       [&] {
         return Rosched_Reduce_scatter_block_circulant(buf.data(), out.data(), 1, MPI_INT, MPI_SUM,
                                                       g.inter);
       }},
      {"Rosched_Reduce_scatter_block_nport",
       [&] {
         return Rosched_Reduce_scatter_block_nport(buf.data(), out.data(), 1, MPI_INT, MPI_SUM,
                                                   g.inter);
       }},
      {"Rosched_Allmerge",
       [&] {
         return Rosched_Allmerge(buf.data(), 1, out.data(), counts.data(), MPI_INT, no_merge,
                                 nullptr, g.inter, ROSCHED_ALLMERGE_AUTO);
       }},
      {"Rosched_Allmerge_choice",
       [&] {
         int a = -1;
         return Rosched_Allmerge_choice(g.inter, counts.data(), MPI_INT, &a);
       }},
      {"Rosched_Alltoall_variant",
       [&] {
         return Rosched_Alltoall_variant("basic", buf.data(), 1, MPI_INT, out.data(), 1, MPI_INT,
                                         g.inter);
       }},
  };
  for (const auto& [name, call] : calls) {
    std::string text;
    const int cls = capture_stderr(call, text);
    expect(cls == MPI_ERR_COMM && text.find("inter-communicator") != std::string::npos,
           "inter-communicator: " + name + " reports MPI_ERR_COMM naming it (got class " +
               std::to_string(cls) + ", \"" + text + "\")");
  }
}

}  // namespace

void test_inter_communicators() {
  if (p < 2) return;
  Groups g = make_groups();
  test_rooted(g);
  test_unrooted(g);
  test_reduce_scatters(g);
  test_choices(g);
  test_named(g);
  MPI_Comm_free(&g.inter);
}

}  // namespace rosched_mpi_test
