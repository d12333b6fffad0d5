// MPI_MAXLOC and MPI_MINLOC on the predefined pair types: MPI_DOUBLE_INT (a double and an int,
// 12 bytes of data in an element of 16: a gap the library must neither read as data nor rely on)
// and MPI_2INT, with ties (the smallest index wins), through every reduction algorithm by name,
// in place and not, compared field by field with the MPI library's result.
#include <mpi.h>

#include <string>
#include <vector>

#include "mpi_exec/rosched_mpi.h"
#include "tests/mpi/mpi_test_util.h"

namespace rosched_mpi_test {
namespace {

struct DoubleInt {
  double value;
  int index;
};
struct TwoInt {
  int value, index;
};

// Rank r's element i: values in five levels (ties across ranks), the rank as the index.
DoubleInt double_int(int r, int i) { return {static_cast<double>((r * 7 + i) % 5) / 4, r}; }
TwoInt two_int(int r, int i) { return {(r * 3 + i) % 5, r}; }

bool same(const DoubleInt& a, const DoubleInt& b) {
  return a.value == b.value && a.index == b.index;
}
bool same(const TwoInt& a, const TwoInt& b) { return a.value == b.value && a.index == b.index; }

template <typename T>
bool all_same(const std::vector<T>& a, const std::vector<T>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same(a[i], b[i])) return false;
  }
  return true;
}

template <typename T>
void test_pairs(const char* type_name, MPI_Datatype type, MPI_Op op, T (*make)(int, int), int n) {
  std::vector<T> in(n), lib(n), ours(n);
  for (int i = 0; i < n; ++i) in[i] = make(rank, i);
  const std::string at = std::string(" on ") + type_name + " (" + std::to_string(n) + ")";
  MPI_Allreduce(in.data(), lib.data(), n, type, op, MPI_COMM_WORLD);
  for (const auto& [name, fn] : named_allreduces()) {
    ours.assign(n, T{});
    int rc = fn(in.data(), ours.data(), n, type, op, MPI_COMM_WORLD);
    expect(rc == MPI_SUCCESS && all_same(ours, lib), std::string(name) + at);
    ours = in;
    rc = fn(MPI_IN_PLACE, ours.data(), n, type, op, MPI_COMM_WORLD);
    expect(rc == MPI_SUCCESS && all_same(ours, lib), std::string(name) + " in place" + at);
  }
  const int root = p / 2;
  for (const auto& [name, fn] : named_reduces()) {
    ours.assign(n, T{});
    const int rc = fn(in.data(), ours.data(), n, type, op, root, MPI_COMM_WORLD);
    expect(rc == MPI_SUCCESS && (rank != root || all_same(ours, lib)), std::string(name) + at);
  }
  // The reduce-scatters: element i of block b is rank's element b * n + i.
  std::vector<T> vec(static_cast<std::size_t>(n) * p), block_lib(n);
  for (std::size_t i = 0; i < vec.size(); ++i) vec[i] = make(rank, static_cast<int>(i));
  MPI_Reduce_scatter_block(vec.data(), block_lib.data(), n, type, op, MPI_COMM_WORLD);
  for (const auto& [name, fn] : named_reduce_scatter_blocks()) {
    ours.assign(n, T{});
    const int rc = fn(vec.data(), ours.data(), n, type, op, MPI_COMM_WORLD);
    expect(rc == MPI_SUCCESS && all_same(ours, block_lib), std::string(name) + at);
  }
}

}  // namespace

void test_loc_pairs() {
  for (const int n : {1, 7, 3000}) {
    test_pairs("MPI_DOUBLE_INT, MPI_MAXLOC", MPI_DOUBLE_INT, MPI_MAXLOC, double_int, n);
    test_pairs("MPI_DOUBLE_INT, MPI_MINLOC", MPI_DOUBLE_INT, MPI_MINLOC, double_int, n);
    test_pairs("MPI_2INT, MPI_MINLOC", MPI_2INT, MPI_MINLOC, two_int, n);
  }
}

}  // namespace rosched_mpi_test
