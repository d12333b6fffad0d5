// Datatypes whose data does not start at the buffer's address: an int at byte -4 of each
// 12-byte element (lower bound -4: element i is the int 3 i - 1 ints from the buffer), or at
// byte +4 (true lower bound +4: the int 3 i + 1). Every algorithm, called by name so that each runs
// whatever its size, must read and write exactly those ints (the MPI library's collective gives the
// reference; the gaps between them keep their bytes), through its scratch buffers too; under the
// sanitized run a scratch buffer that ignored the lower bound is a heap overflow (or underflow).
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

constexpr int kGap = -7;  // the ints outside the typemap
int shift = -1;           // the type's int, in ints from its element's address: -1 or +1

// The type: one int at byte 4 * shift, lower bound min(0, 4 * shift), extent 12.
MPI_Datatype shifted_int() {
  const int one = 1;
  const MPI_Aint at = shift * static_cast<MPI_Aint>(sizeof(int));
  MPI_Datatype member = MPI_INT, raw, type;
  MPI_Type_create_struct(1, &one, &at, &member, &raw);
  MPI_Type_create_resized(raw, std::min<MPI_Aint>(at, 0), 3 * static_cast<MPI_Aint>(sizeof(int)),
                          &type);
  MPI_Type_free(&raw);
  MPI_Type_commit(&type);
  return type;
}

// n elements of the type: 3 n + 1 ints, the buffer at int 1 - min(shift, 0) (element i at int
// 3 i + max(shift, 0)); gaps kGap.
struct Shifted {
  std::vector<int> ints;
  explicit Shifted(int n) : ints(3 * static_cast<std::size_t>(n) + 1, kGap) {}
  void* buf() { return ints.data() + (shift < 0 ? 1 : 0); }
  int& at(int i) { return ints[3 * static_cast<std::size_t>(i) + (shift < 0 ? 0 : 1)]; }
};

// The sum of len elements of the type (a user's operation: MPI's predefined ones are not
// defined on a struct type): element i is the int at 3 i + shift ints from the pointer.
void shifted_sum(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int i = 0; i < *len; ++i) {
    static_cast<int*>(inout)[3 * i + shift] += static_cast<int*>(in)[3 * i + shift];
  }
}

// "lower bound -4: what (n elements)", or "true lower bound +4: ...".
std::string label(const std::string& what, int n) {
  return std::string(shift < 0 ? "lower bound -4: " : "true lower bound +4: ") + what + " (" +
         std::to_string(n) + " elements)";
}

Shifted filled(int n, int seed) {
  Shifted s(n);
  for (int i = 0; i < n; ++i) s.at(i) = seed * 1000 + i;
  return s;
}

// Runs `ours` and `library` (each filling its own result), compares the whole int arrays.
void compare(const std::string& what, const std::function<int(Shifted&, MPI_Datatype)>& ours,
             const std::function<int(Shifted&, MPI_Datatype)>& library, int n, MPI_Datatype type) {
  Shifted a(n), b(n);
  const int rc = ours(a, type);
  library(b, type);
  expect(rc == MPI_SUCCESS && a.ints == b.ints, label(what, n));
}

void test_reductions(MPI_Datatype type, MPI_Op sum, int n) {
  Shifted in = filled(n, rank + 1);
  for (const auto& [name, fn] : named_allreduces()) {
    compare(
        name,
        [&](Shifted& out, MPI_Datatype t) {
          return fn(in.buf(), out.buf(), n, t, sum, MPI_COMM_WORLD);
        },
        [&](Shifted& out, MPI_Datatype t) {
          return MPI_Allreduce(in.buf(), out.buf(), n, t, sum, MPI_COMM_WORLD);
        },
        n, type);
    compare(
        std::string(name) + " in place",
        [&](Shifted& out, MPI_Datatype t) {
          out = in;
          return fn(MPI_IN_PLACE, out.buf(), n, t, sum, MPI_COMM_WORLD);
        },
        [&](Shifted& out, MPI_Datatype t) {
          out = in;
          return MPI_Allreduce(MPI_IN_PLACE, out.buf(), n, t, sum, MPI_COMM_WORLD);
        },
        n, type);
  }
  const int root = p - 1;
  for (const auto& [name, fn] : named_reduces()) {
    compare(
        name,
        [&](Shifted& out, MPI_Datatype t) {
          return fn(in.buf(), out.buf(), n, t, sum, root, MPI_COMM_WORLD);
        },
        [&](Shifted& out, MPI_Datatype t) {
          return MPI_Reduce(in.buf(), out.buf(), n, t, sum, root, MPI_COMM_WORLD);
        },
        n, type);
    compare(
        std::string(name) + " in place at the root",
        [&](Shifted& out, MPI_Datatype t) {
          out = in;
          return fn(rank == root ? MPI_IN_PLACE : in.buf(), out.buf(), n, t, sum, root,
                    MPI_COMM_WORLD);
        },
        [&](Shifted& out, MPI_Datatype t) {
          out = in;
          return MPI_Reduce(rank == root ? MPI_IN_PLACE : in.buf(), out.buf(), n, t, sum, root,
                            MPI_COMM_WORLD);
        },
        n, type);
  }
  // The reduce-scatters: n elements per rank.
  Shifted vec = filled(n * p, rank + 1);
  for (const auto& [name, fn] : named_reduce_scatter_blocks()) {
    compare(
        name,
        [&](Shifted& out, MPI_Datatype t) {
          return fn(vec.buf(), out.buf(), n, t, sum, MPI_COMM_WORLD);
        },
        [&](Shifted& out, MPI_Datatype t) {
          return MPI_Reduce_scatter_block(vec.buf(), out.buf(), n, t, sum, MPI_COMM_WORLD);
        },
        n, type);
  }
  // The irregular ones: n elements for even ranks, none for odd ones.
  std::vector<int> counts(p);
  for (int r = 0; r < p; ++r) counts[r] = r % 2 == 0 ? n : 0;
  using ReduceScatter = int (*)(const void*, void*, const int*, MPI_Datatype, MPI_Op, MPI_Comm);
  for (const auto& [name, fn] : std::vector<std::pair<const char*, ReduceScatter>>{
           {"Rosched_Reduce_scatter", Rosched_Reduce_scatter},
           {"Rosched_Reduce_scatter_circulant", Rosched_Reduce_scatter_circulant},
           {"Rosched_Reduce_scatter_nport", Rosched_Reduce_scatter_nport},
           {"Rosched_Reduce_scatter_node_aware", Rosched_Reduce_scatter_node_aware}}) {
    compare(
        std::string(name) + ", odd ranks' counts 0",
        [&](Shifted& out, MPI_Datatype t) {
          return fn(vec.buf(), out.buf(), counts.data(), t, sum, MPI_COMM_WORLD);
        },
        [&](Shifted& out, MPI_Datatype t) {
          return MPI_Reduce_scatter(vec.buf(), out.buf(), counts.data(), t, sum, MPI_COMM_WORLD);
        },
        n, type);
  }
}

void test_movement(MPI_Datatype type, int n) {
  const int root = p / 2;
  for (const auto& [name, fn] : named_broadcasts()) {
    compare(
        name,
        [&](Shifted& out, MPI_Datatype t) {
          if (rank == root) out = filled(n, 5);
          return fn(out.buf(), n, t, root, MPI_COMM_WORLD);
        },
        [&](Shifted& out, MPI_Datatype t) {
          if (rank == root) out = filled(n, 5);
          return MPI_Bcast(out.buf(), n, t, root, MPI_COMM_WORLD);
        },
        n, type);
  }
  Shifted mine = filled(n, rank + 1);
  using Allgather = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm);
  for (const auto& [name, fn] : std::vector<std::pair<const char*, Allgather>>{
           {"Rosched_Allgather", Rosched_Allgather},
           {"Rosched_Allgather_circulant", Rosched_Allgather_circulant},
           {"Rosched_Allgather_nway", Rosched_Allgather_nway},
           {"Rosched_Allgather_node_aware", Rosched_Allgather_node_aware}}) {
    Shifted a(n * p), b(n * p);
    const int rc = fn(mine.buf(), n, type, a.buf(), n, type, MPI_COMM_WORLD);
    MPI_Allgather(mine.buf(), n, type, b.buf(), n, type, MPI_COMM_WORLD);
    expect(rc == MPI_SUCCESS && a.ints == b.ints, label(name, n));
    // In place: this rank's block already at its place in the result.
    Shifted c(n * p), d(n * p);
    for (int i = 0; i < n; ++i) c.at(rank * n + i) = d.at(rank * n + i) = mine.at(i);
    const int rc2 = fn(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, c.buf(), n, type, MPI_COMM_WORLD);
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d.buf(), n, type, MPI_COMM_WORLD);
    expect(rc2 == MPI_SUCCESS && c.ints == d.ints && c.ints == b.ints,
           label(std::string(name) + " in place", n));
  }
  // Allgatherv: rank r contributes n + r elements, displacements in reverse rank order.
  std::vector<int> counts(p), displs(p);
  int total = 0;
  for (int r = p - 1; r >= 0; --r) counts[r] = n + r, displs[r] = total, total += n + r;
  Shifted v = filled(n + rank, rank + 1);
  using Allgatherv = int (*)(const void*, int, MPI_Datatype, void*, const int*, const int*,
                             MPI_Datatype, MPI_Comm);
  for (const auto& [name, fn] : std::vector<std::pair<const char*, Allgatherv>>{
           {"Rosched_Allgatherv", Rosched_Allgatherv},
           {"Rosched_Allgatherv_circulant", Rosched_Allgatherv_circulant},
           {"Rosched_Allgatherv_node_aware", Rosched_Allgatherv_node_aware},
           {"Rosched_Allgatherv_largest", Rosched_Allgatherv_largest},
           {"Rosched_Allgatherv_nway", Rosched_Allgatherv_nway}}) {
    Shifted a(total), b(total);
    const int rc =
        fn(v.buf(), n + rank, type, a.buf(), counts.data(), displs.data(), type, MPI_COMM_WORLD);
    MPI_Allgatherv(v.buf(), n + rank, type, b.buf(), counts.data(), displs.data(), type,
                   MPI_COMM_WORLD);
    expect(rc == MPI_SUCCESS && a.ints == b.ints, label(name, n) + " and more");
    // In place: this rank's contribution already at its displacement.
    Shifted c(total);
    for (int i = 0; i < n + rank; ++i) c.at(displs[rank] + i) = v.at(i);
    const int rc2 = fn(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, c.buf(), counts.data(), displs.data(),
                       type, MPI_COMM_WORLD);
    expect(rc2 == MPI_SUCCESS && c.ints == b.ints, label(std::string(name) + " in place", n));
  }
  // Alltoall(v), every variant: n elements per pair; for the v form n + (r + d) % 3 from rank r
  // to rank d, blocks in reverse order.
  Shifted to = filled((n + 2) * p, rank + 1);
  std::vector<int> sc(p), sd(p), rcounts(p), rd(p);
  int sent = 0, got = 0;
  for (int d = p - 1; d >= 0; --d) sc[d] = n + (rank + d) % 3, sd[d] = sent, sent += sc[d];
  for (int r = p - 1; r >= 0; --r) rcounts[r] = n + (r + rank) % 3, rd[r] = got, got += rcounts[r];
  for (const char* variant :
       {"auto", "basic", "modified", "zerorot", "zerocopy", "padded", "twophase", "linear"}) {
    Shifted a(n * p), b(n * p);
    const int rc =
        Rosched_Alltoall_variant(variant, to.buf(), n, type, a.buf(), n, type, MPI_COMM_WORLD);
    MPI_Alltoall(to.buf(), n, type, b.buf(), n, type, MPI_COMM_WORLD);
    expect(rc == MPI_SUCCESS && a.ints == b.ints,
           label(std::string("Rosched_Alltoall_variant ") + variant, n));
  }
  for (const char* variant : {"auto", "padded", "twophase", "linear"}) {  // the v form's
    Shifted c(got), e(got);
    const int rc = Rosched_Alltoallv_variant(variant, to.buf(), sc.data(), sd.data(), type, c.buf(),
                                             rcounts.data(), rd.data(), type, MPI_COMM_WORLD);
    MPI_Alltoallv(to.buf(), sc.data(), sd.data(), type, e.buf(), rcounts.data(), rd.data(), type,
                  MPI_COMM_WORLD);
    expect(rc == MPI_SUCCESS && c.ints == e.ints,
           label(std::string("Rosched_Alltoallv_variant ") + variant, n) + " and more");
  }
}

// The classic broadcast of a structure of scattered variables: buffer MPI_BOTTOM, one element of
// a datatype of absolute addresses (here the n ints of a vector), every broadcast by name.
void test_bottom() {
  for (const int n : {1, 1000, 100000}) {
    std::vector<int> ours(n, -1), lib(n, -1);
    const auto absolute = [&](std::vector<int>& v) {
      MPI_Aint at;
      MPI_Get_address(v.data(), &at);
      MPI_Datatype t;
      MPI_Type_create_hindexed(1, &n, &at, MPI_INT, &t);
      MPI_Type_commit(&t);
      return t;
    };
    MPI_Datatype to = absolute(ours), tl = absolute(lib);
    const int root = p - 1;
    if (rank == root) {
      for (int i = 0; i < n; ++i) lib[i] = 7 * i + 1;
    }
    MPI_Bcast(MPI_BOTTOM, 1, tl, root, MPI_COMM_WORLD);
    for (const auto& [name, fn] : named_broadcasts()) {
      std::fill(ours.begin(), ours.end(), -1);
      if (rank == root) ours = lib;
      const int rc = fn(MPI_BOTTOM, 1, to, root, MPI_COMM_WORLD);
      expect(rc == MPI_SUCCESS && ours == lib,
             std::string("MPI_BOTTOM: ") + name + " (" + std::to_string(n) + " ints)");
    }
    MPI_Type_free(&to);
    MPI_Type_free(&tl);
  }
}

void no_op(void*, void*, int*, MPI_Datatype*) {}

// A datatype of no bytes (MPI_Type_contiguous(0, MPI_INT)) with counts of 5: nothing to move,
// every algorithm by name returns MPI_SUCCESS as the library's collective does, and no byte of
// the buffers changes.
void test_empty_type() {
  MPI_Datatype empty;
  MPI_Type_contiguous(0, MPI_INT, &empty);
  MPI_Type_commit(&empty);
  MPI_Op op;
  MPI_Op_create(no_op, 1, &op);
  const std::vector<int> untouched(8 * p, -3);
  std::vector<int> in = untouched, out = untouched;
  const auto same = [&] { return in == untouched && out == untouched; };
  const int n = 5;
  for (const auto& [name, fn] : named_broadcasts()) {
    expect(fn(out.data(), n, empty, 0, MPI_COMM_WORLD) == MPI_SUCCESS && same(),
           std::string("empty datatype: ") + name);
  }
  for (const auto& [name, fn] : named_allreduces()) {
    expect(fn(in.data(), out.data(), n, empty, op, MPI_COMM_WORLD) == MPI_SUCCESS && same(),
           std::string("empty datatype: ") + name);
  }
  for (const auto& [name, fn] : named_reduces()) {
    expect(fn(in.data(), out.data(), n, empty, op, p - 1, MPI_COMM_WORLD) == MPI_SUCCESS && same(),
           std::string("empty datatype: ") + name);
  }
  for (const auto& [name, fn] : named_reduce_scatter_blocks()) {
    expect(fn(in.data(), out.data(), n, empty, op, MPI_COMM_WORLD) == MPI_SUCCESS && same(),
           std::string("empty datatype: ") + name);
  }
  std::vector<int> counts(p, n), displs(p);
  for (int r = 0; r < p; ++r) displs[r] = r * n;
  expect(
      Rosched_Allgather(in.data(), n, empty, out.data(), n, empty, MPI_COMM_WORLD) == MPI_SUCCESS &&
          Rosched_Allgatherv(in.data(), n, empty, out.data(), counts.data(), displs.data(), empty,
                             MPI_COMM_WORLD) == MPI_SUCCESS &&
          Rosched_Alltoall(in.data(), n, empty, out.data(), n, empty, MPI_COMM_WORLD) ==
              MPI_SUCCESS &&
          same(),
      "empty datatype: Rosched_Allgather, _Allgatherv, _Alltoall");
  MPI_Op_free(&op);
  MPI_Type_free(&empty);
}

}  // namespace

std::vector<std::pair<const char*, AllreduceFn>> named_allreduces() {
  return {{"Rosched_Allreduce", Rosched_Allreduce},
          {"Rosched_Allreduce_census", Rosched_Allreduce_census},
          {"Rosched_Allreduce_scatter_gather", Rosched_Allreduce_scatter_gather},
          {"Rosched_Allreduce_two_tree", Rosched_Allreduce_two_tree},
          {"Rosched_Allreduce_knomial", Rosched_Allreduce_knomial},
          {"Rosched_Allreduce_nport", Rosched_Allreduce_nport},
          {"Rosched_Allreduce_nway", Rosched_Allreduce_nway},
          {"Rosched_Allreduce_node_aware", Rosched_Allreduce_node_aware}};
}

std::vector<std::pair<const char*, ReduceFn>> named_reduces() {
  return {{"Rosched_Reduce", Rosched_Reduce},
          {"Rosched_Reduce_circulant", Rosched_Reduce_circulant},
          {"Rosched_Reduce_two_tree", Rosched_Reduce_two_tree},
          {"Rosched_Reduce_binomial", Rosched_Reduce_binomial},
          {"Rosched_Reduce_scatter_gather", Rosched_Reduce_scatter_gather},
          {"Rosched_Reduce_nport", Rosched_Reduce_nport},
          {"Rosched_Reduce_kary_tree", Rosched_Reduce_kary_tree},
          {"Rosched_Reduce_node_aware", Rosched_Reduce_node_aware}};
}

std::vector<std::pair<const char*, ReduceScatterBlockFn>> named_reduce_scatter_blocks() {
  return {{"Rosched_Reduce_scatter_block", Rosched_Reduce_scatter_block},
          {"Rosched_Reduce_scatter_block_circulant", Rosched_Reduce_scatter_block_circulant},
          {"Rosched_Reduce_scatter_block_nport", Rosched_Reduce_scatter_block_nport},
          {"Rosched_Reduce_scatter_block_node_aware", Rosched_Reduce_scatter_block_node_aware}};
}

std::vector<std::pair<const char*, BcastFn>> named_broadcasts() {
  return {{"Rosched_Bcast", Rosched_Bcast},
          {"Rosched_Bcast_circulant", Rosched_Bcast_circulant},
          {"Rosched_Bcast_node_aware", Rosched_Bcast_node_aware},
          {"Rosched_Bcast_two_tree", Rosched_Bcast_two_tree},
          {"Rosched_Bcast_hypercube", Rosched_Bcast_hypercube},
          {"Rosched_Bcast_kary_tree", Rosched_Bcast_kary_tree},
          {"Rosched_Bcast_knomial", Rosched_Bcast_knomial},
          {"Rosched_Bcast_scatter_allgather", Rosched_Bcast_scatter_allgather}};
}

void test_lower_bound() {
  for (const int s : {-1, 1}) {
    shift = s;
    MPI_Datatype type = shifted_int();
    MPI_Op sum;
    MPI_Op_create(shifted_sum, 1, &sum);
    for (const int n : {1, 7, 1000}) {
      test_reductions(type, sum, n);
      test_movement(type, n);
    }
    MPI_Op_free(&sum);
    MPI_Type_free(&type);
  }
  test_bottom();
  test_empty_type();
}

}  // namespace rosched_mpi_test
