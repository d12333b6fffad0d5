// The tree reductions (two-tree, binomial, circulant, Rosched_Reduce's choice) and the two-tree
// all-reduce against their definitions: every root, sizes with 0,
// a non-commutative user-defined operation whose result depends on the order (composition of
// affine maps x -> a x + b modulo 2^32), MPI_SUM and MPI_MAX against Open MPI's own,
// MPI_IN_PLACE, a derived type with gaps, and bad arguments.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "mpi_exec/rosched_mpi.h"
#include "tests/mpi/mpi_test_util.h"

namespace rosched_mpi_test {
namespace {

struct Affine {
  std::uint32_t a, b;  // x -> a x + b
};

// f op g = "f, then g": x -> a_g (a_f x + b_f) + b_g. Associative, not commutative.
Affine then(const Affine& f, const Affine& g) { return {g.a * f.a, g.a * f.b + g.b}; }

void compose(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* x = static_cast<Affine*>(in);
  auto* y = static_cast<Affine*>(inout);
  for (int i = 0; i < *len; ++i) y[i] = then(x[i], y[i]);  // inout = in op inout
}

Affine contribution(int r, int i) {
  return {static_cast<std::uint32_t>(2 * pattern(r, i) + 1), static_cast<std::uint32_t>(r * 7 + i)};
}

Affine expected_composition(int i) {
  Affine acc = contribution(0, i);
  for (int r = 1; r < p; ++r) acc = then(acc, contribution(r, i));
  return acc;
}

// MPI_SUM over the ints of the vector type below (8 ints per element, 6 used): predefined
// operations are for predefined types only, so derived types need a user-defined one.
void sum_vector(void* in, void* inout, int* len, MPI_Datatype*) {
  const int used[] = {0, 1, 3, 4, 6, 7};
  auto* x = static_cast<int*>(in);
  auto* y = static_cast<int*>(inout);
  for (int e = 0; e < *len; ++e)
    for (int at : used) y[8 * e + at] += x[8 * e + at];
}

bool same(const Affine& x, const Affine& y) { return x.a == y.a && x.b == y.b; }

const int kCounts[] = {0, 1, 2, 7, 101, 5000};

using ReduceFn = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, int, MPI_Comm);

void test_reduce_non_commutative(MPI_Datatype pair, MPI_Op op, ReduceFn reduce,
                                 const std::string& name) {
  for (int count : kCounts) {
    for (int root = 0; root < p; ++root) {
      for (bool in_place : {false, true}) {
        std::vector<Affine> send(count), recv(count + 1, Affine{0, 0});
        for (int i = 0; i < count; ++i) send[i] = contribution(rank, i);
        if (in_place && rank == root) std::copy(send.begin(), send.end(), recv.begin());
        const void* from = in_place && rank == root ? MPI_IN_PLACE : send.data();
        const int rc = reduce(from, recv.data(), count, pair, op, root, MPI_COMM_WORLD);
        bool ok = rc == MPI_SUCCESS && same(recv[count], Affine{0, 0});
        if (rank == root) {
          for (int i = 0; i < count && ok; ++i) ok = same(recv[i], expected_composition(i));
        }
        expect(ok, name + " non-commutative count=" + std::to_string(count) +
                       " root=" + std::to_string(root) + (in_place ? " in place" : ""));
      }
    }
  }
}

// MPI_SUM of these counts of ints to every root, in place and not, against MPI_Reduce; the
// element past the root's count stays untouched.
template <typename Counts>
void test_reduce_sums(ReduceFn reduce, const std::string& name, const Counts& counts) {
  for (int count : counts) {
    for (int root = 0; root < p; ++root) {
      for (bool in_place : {false, true}) {
        std::vector<int> send(count), mine(count + 1, -1), native(count);
        for (int i = 0; i < count; ++i) send[i] = pattern(rank, i) % 1000;
        if (in_place && rank == root) std::copy(send.begin(), send.end(), mine.begin());
        const void* from = in_place && rank == root ? MPI_IN_PLACE : send.data();
        const int rc = reduce(from, mine.data(), count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
        MPI_Reduce(send.data(), native.data(), count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
        bool ok = rc == MPI_SUCCESS && mine[count] == -1;
        for (int i = 0; i < count && ok && rank == root; ++i) ok = mine[i] == native[i];
        expect(ok, name + " MPI_SUM count=" + std::to_string(count) + " root=" +
                       std::to_string(root) + (in_place ? " in place" : ""));
      }
    }
  }
}

void test_reduce_sum_and_derived(ReduceFn reduce, const std::string& name) {
  test_reduce_sums(reduce, name, kCounts);
  // A vector type with gaps (3 blocks of 2 ints, stride 3) and a user-defined sum over it: the
  // gaps stay untouched. 1,100 of them (26,400 bytes) take the node-aware reduction's forms for
  // long vectors on equal nodes (from 24 KiB).
  MPI_Datatype vec;
  MPI_Type_vector(3, 2, 3, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  MPI_Op vec_sum;
  MPI_Op_create(sum_vector, 1, &vec_sum);
  for (int count : {1, 9, 300, 1100}) {
    const int root = p / 2;
    std::vector<int> send(count * 8, 1), recv(count * 8 + 1, -1);
    for (int i = 0; i < count * 8; ++i) send[i] = (rank + 1) * (i % 5);
    const int rc = reduce(send.data(), recv.data(), count, vec, vec_sum, root, MPI_COMM_WORLD);
    bool ok = rc == MPI_SUCCESS;
    if (rank == root) {
      for (int i = 0; i < count * 8 && ok; ++i) {
        const int at = i % 8;
        const bool gap = at == 2 || at == 5;
        ok = recv[i] == (gap ? -1 : (p * (p + 1) / 2) * (i % 5));
      }
    }
    expect(ok, name + " vector type count=" + std::to_string(count));
  }
  MPI_Op_free(&vec_sum);
  MPI_Type_free(&vec);
}

using AllreduceFn = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);

void test_allreduce(MPI_Datatype pair, MPI_Op op, AllreduceFn allreduce, const std::string& name) {
  for (int count : kCounts) {
    for (bool in_place : {false, true}) {
      std::vector<Affine> send(count), recv(count + 1, Affine{0, 0});
      for (int i = 0; i < count; ++i) send[i] = contribution(rank, i);
      if (in_place) std::copy(send.begin(), send.end(), recv.begin());
      const int rc = allreduce(in_place ? MPI_IN_PLACE : send.data(), recv.data(), count, pair, op,
                               MPI_COMM_WORLD);
      bool ok = rc == MPI_SUCCESS && same(recv[count], Affine{0, 0});
      for (int i = 0; i < count && ok; ++i) ok = same(recv[i], expected_composition(i));
      expect(ok, name + " non-commutative count=" + std::to_string(count) +
                     (in_place ? " in place" : ""));
    }
  }
  std::vector<double> x(333), mx(333), native(333);
  for (int i = 0; i < 333; ++i) x[i] = (rank * 37 + i * 11) % 23 - 0.5 * rank;
  const int rc = allreduce(x.data(), mx.data(), 333, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(x.data(), native.data(), 333, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  expect(rc == MPI_SUCCESS && mx == native, name + " MPI_MAX double");
  for (int count : kCounts) {  // a commutative sum, in place and not (node-aware where it applies)
    for (bool in_place : {false, true}) {
      std::vector<int> send(count), mine(count + 1, -1), want(count);
      for (int i = 0; i < count; ++i) send[i] = pattern(rank, i) % 1000;
      if (in_place) std::copy(send.begin(), send.end(), mine.begin());
      const int got = allreduce(in_place ? MPI_IN_PLACE : send.data(), mine.data(), count, MPI_INT,
                                MPI_SUM, MPI_COMM_WORLD);
      MPI_Allreduce(send.data(), want.data(), count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      bool ok = got == MPI_SUCCESS && mine[count] == -1;
      for (int i = 0; i < count && ok; ++i) ok = mine[i] == want[i];
      expect(ok, name + " MPI_SUM count=" + std::to_string(count) + (in_place ? " in place" : ""));
    }
  }
  // The vector type with gaps and a user-defined commutative sum: every rank's gaps untouched
  // (the multi-lane path cuts the vector into segments by elements of the type's extent).
  MPI_Datatype vec;
  MPI_Type_vector(3, 2, 3, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  MPI_Op vec_sum;
  MPI_Op_create(sum_vector, 1, &vec_sum);
  for (int count : {1, 5, 9, 300}) {
    for (bool in_place : {false, true}) {
      std::vector<int> send(count * 8), recv(count * 8 + 1, -1);
      for (int i = 0; i < count * 8; ++i) send[i] = (rank + 1) * (i % 5);
      if (in_place) {
        for (int i = 0; i < count * 8; ++i)
          if (i % 8 != 2 && i % 8 != 5) recv[i] = send[i];
      }
      const int rc = allreduce(in_place ? MPI_IN_PLACE : send.data(), recv.data(), count, vec,
                               vec_sum, MPI_COMM_WORLD);
      bool ok = rc == MPI_SUCCESS && recv[count * 8] == -1;
      for (int i = 0; i < count * 8 && ok; ++i) {
        const bool gap = i % 8 == 2 || i % 8 == 5;
        ok = recv[i] == (gap ? -1 : (p * (p + 1) / 2) * (i % 5));
      }
      expect(ok, name + " vector type count=" + std::to_string(count) +
                     (in_place ? " in place" : ""));
    }
  }
  MPI_Op_free(&vec_sum);
  MPI_Type_free(&vec);
}

void test_errors() {
  MPI_Comm comm = errors_return_comm();
  int buf[4] = {0, 0, 0, 0};
  int cls = 0;
  MPI_Error_class(Rosched_Reduce_two_tree(buf, buf + 2, -1, MPI_INT, MPI_SUM, 0, comm), &cls);
  expect(cls == MPI_ERR_COUNT, "reduce two-tree negative count gives MPI_ERR_COUNT");
  MPI_Error_class(Rosched_Reduce_two_tree(buf, buf + 2, 1, MPI_INT, MPI_SUM, p, comm), &cls);
  expect(cls == MPI_ERR_ROOT, "reduce two-tree root = p gives MPI_ERR_ROOT");
  MPI_Error_class(Rosched_Reduce_two_tree(buf, buf + 2, 1, MPI_INT, MPI_OP_NULL, 0, comm), &cls);
  expect(cls == MPI_ERR_OP, "reduce two-tree MPI_OP_NULL gives MPI_ERR_OP");
  MPI_Error_class(Rosched_Reduce_binomial(buf, buf + 2, -1, MPI_INT, MPI_SUM, 0, comm), &cls);
  expect(cls == MPI_ERR_COUNT, "reduce binomial negative count gives MPI_ERR_COUNT");
  MPI_Error_class(Rosched_Reduce(buf, buf + 2, 1, MPI_INT, MPI_SUM, -1, comm), &cls);
  expect(cls == MPI_ERR_ROOT, "reduce root = -1 gives MPI_ERR_ROOT");
  MPI_Error_class(Rosched_Allreduce_two_tree(buf, buf + 2, -3, MPI_INT, MPI_SUM, comm), &cls);
  expect(cls == MPI_ERR_COUNT, "allreduce two-tree negative count gives MPI_ERR_COUNT");
  if (p > 1) {
    // Debug mode: MPI_IN_PLACE at a non-root rank is an error on every rank, not a hang.
    Rosched_Set_debug(1);
    MPI_Error_class(Rosched_Reduce_two_tree(rank == 0 ? buf : MPI_IN_PLACE, buf + 2, 1, MPI_INT,
                                            MPI_SUM, 0, comm),
                    &cls);
    expect(cls == MPI_ERR_ARG, "debug: MPI_IN_PLACE off the root gives MPI_ERR_ARG on every rank");
    MPI_Error_class(
        Rosched_Reduce_two_tree(buf, buf + 2, 1, MPI_INT, MPI_SUM, rank == 0 ? 1 : 0, comm), &cls);
    expect(cls == MPI_ERR_ROOT, "debug: mismatched reduce root gives MPI_ERR_ROOT on every rank");
    Rosched_Set_debug(0);
  }
  MPI_Comm_free(&comm);
}

}  // namespace

void test_two_tree_reductions() {
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_UINT32_T, &pair);
  MPI_Type_commit(&pair);
  MPI_Op op;
  MPI_Op_create(compose, 0, &op);  // not commutative
  test_reduce_non_commutative(pair, op, Rosched_Reduce_two_tree, "reduce two-tree");
  test_reduce_sum_and_derived(Rosched_Reduce_two_tree, "reduce two-tree");
  test_reduce_non_commutative(pair, op, Rosched_Reduce_binomial, "reduce binomial");
  test_reduce_sum_and_derived(Rosched_Reduce_binomial, "reduce binomial");
  test_reduce_sum_and_derived(Rosched_Reduce_circulant, "reduce circulant");
  test_reduce_sum_and_derived(Rosched_Reduce_scatter_gather, "reduce scatter-gather");
  test_reduce_sum_and_derived(Rosched_Reduce_nport, "reduce n-port scatter-gather");
  test_reduce_sum_and_derived(Rosched_Reduce_kary_tree, "reduce k-ary tree");
  // The circulant, the k-ary tree and the reduce-scatter + gather reductions combine out of rank
  // order: a non-commutative operation is an error.
  const std::pair<ReduceFn, const char*> unordered[] = {
      {Rosched_Reduce_circulant, "reduce circulant"},
      {Rosched_Reduce_scatter_gather, "reduce scatter-gather"},
      {Rosched_Reduce_nport, "reduce n-port scatter-gather"},
      {Rosched_Reduce_kary_tree, "reduce k-ary tree"}};
  for (const auto& [reduce, name] : unordered) {
    MPI_Comm comm = errors_return_comm();
    std::vector<Affine> send(3, Affine{1, 0}), recv(3);
    int cls = 0;
    MPI_Error_class(reduce(send.data(), recv.data(), 3, pair, op, 0, comm), &cls);
    expect(cls == MPI_ERR_OP, std::string(name) + ", non-commutative operation gives MPI_ERR_OP");
    MPI_Error_class(reduce(send.data(), recv.data(), -1, MPI_INT, MPI_SUM, 0, comm), &cls);
    expect(cls == MPI_ERR_COUNT, std::string(name) + " negative count gives MPI_ERR_COUNT");
    MPI_Comm_free(&comm);
  }
  test_reduce_non_commutative(pair, op, Rosched_Reduce, "reduce chosen");
  test_reduce_sum_and_derived(Rosched_Reduce, "reduce chosen");
  test_allreduce(pair, op, Rosched_Allreduce_two_tree, "allreduce two-tree");
  test_allreduce(pair, op, Rosched_Allreduce_knomial, "allreduce k-nomial");
  // The library's for a non-commutative operation, or (many blocks: ROSCHED_ALLREDUCE=rosched)
  // the two-tree all-reduce; the commutative cases: its choice, or forced the census, the
  // reduce-scatter + all-gather or the lanes.
  test_allreduce(pair, op, Rosched_Allreduce, "allreduce chosen");
  test_errors();
  MPI_Op_free(&op);
  MPI_Type_free(&pair);
}

// Rosched_Reduce_node_aware and Rosched_Allreduce_node_aware: on one node (mpirun here) or with
// ROSCHED_NODE_SIZE (--nodes=K) on nodes of K ranks; a non-commutative operation takes the flat
// two-tree reduction.
void test_node_aware_reductions() {
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_UINT32_T, &pair);
  MPI_Type_commit(&pair);
  MPI_Op op;
  MPI_Op_create(compose, 0, &op);
  test_reduce_non_commutative(pair, op, Rosched_Reduce_node_aware, "reduce node-aware");
  test_reduce_sum_and_derived(Rosched_Reduce_node_aware, "reduce node-aware");
  test_allreduce(pair, op, Rosched_Allreduce_node_aware, "allreduce node-aware");
  // Longer reductions, on equal nodes: below 24 KiB (6,144 ints) the trees in the nodes and the
  // carrier lane's reduction (as for the counts above), from there the node-aware
  // reduce-scatter + gather, from 512 KiB (131,072 ints) the multi-lane reduction (every count
  // with ROSCHED_NODE_REDUCE=lanes, run_mpi_tests.sh).
  test_reduce_sums(Rosched_Reduce_node_aware, "reduce node-aware",
                   std::vector<int>{6143, 6144, 60001, 131071, 131072});
  // Longer vectors, on equal nodes: from 48 KiB (12,288 ints) to 724 KiB (185,344 ints) one lane
  // with the reduce-scatter + all-gather among the nodes' ranks 0 (in place too), but from
  // 24 KiB (6,144 ints) the multi-lane all-reduce where it goes as one chunk on n ports (also
  // below about 144 KiB, where its pipeline would be one chunk: 6,144 to 32,768 ints with
  // n = 2); from 724 KiB the multi-lane all-reduce, pipelined in several chunks (4 for 1.2 MB;
  // the counts above take one).
  // With n = 2 set (Rosched_Set_nway) the lane's reduce-scatter + all-gather runs on 2 ports
  // (lane_allreduce_form), and for the short vectors (7 and 1,000 ints) the lane takes the
  // n-port form or the n-way all-reduce by the rule's estimates. 800 KB (200,000 ints): 3 chunks,
  // or one, its lanes on 2 ports, where n = 2 is set (one_chunk_ports) or ROSCHED_LANE_CHUNKS=1
  // (run_mpi_tests.sh).
  for (const int ports : {0, 2}) {
    Rosched_Set_nway(ports, nullptr);
    for (const int count : {7, 1000, 6143, 6144, 12288, 16383, 16384, 30001, 32767, 32768, 90001,
                            185343, 185344, 200000, 300000}) {
      if (ports > 0 && count > 200000) continue;  // the pipeline at 1.2 MB: run once above
      for (const bool in_place : {false, true}) {
        std::vector<int> send(count), mine(count), want(count);
        for (int i = 0; i < count; ++i) send[i] = pattern(rank, i) % 1000;
        if (in_place) mine = send;
        const int rc =
            Rosched_Allreduce_node_aware(in_place ? MPI_IN_PLACE : send.data(), mine.data(), count,
                                         MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(send.data(), want.data(), count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        expect(rc == MPI_SUCCESS && mine == want,
               "allreduce node-aware MPI_SUM count=" + std::to_string(count) +
                   (in_place ? " in place" : "") + ", n = " + std::to_string(ports));
      }
    }
  }
  Rosched_Set_nway(0, nullptr);
  MPI_Op_free(&op);
  MPI_Type_free(&pair);
}

}  // namespace rosched_mpi_test
