// Rosched_Reduce, Rosched_Allreduce, Rosched_Allgather and Rosched_Allgatherv choose between the
// MPI library's collective and rosched's (mpi_exec/library_choice.h): at p = 2 the library's,
// elsewhere the first call of each size class times both. What must hold whichever wins: the timed
// first call delivers the right result (also in place, where every trial overwrites the input),
// every later call too (the ranks must have kept the same answer, else they would run different
// algorithms and hang or mix data), and a repeat of a call handed to the library (the short way, no
// checks) still rejects a bad root, falls back to the full checks for MPI_IN_PLACE off the root and
// in debug mode, and never uses a freed communicator's duplicate.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "mpi_exec/rosched_mpi.h"
#include "tests/mpi/mpi_test_util.h"

namespace rosched_mpi_test {

int value(int r, int i) { return pattern(r, i) % 1000 - 500; }
int sum_of(int i) {
  int s = 0;
  for (int r = 0; r < p; ++r) s += value(r, i);
  return s;
}

// One Rosched_Reduce of `count` ints to `root` on comm, in place at the root or not; checks the
// root's result and that recvbuf past the vector is untouched.
void reduce_once(MPI_Comm comm, int count, int root, bool in_place, const std::string& what) {
  std::vector<int> send(count), recv(count + 1, -7);
  for (int i = 0; i < count; ++i) send[i] = value(rank, i);
  if (in_place && rank == root) recv.assign(send.begin(), send.end()), recv.push_back(-7);
  const void* from = in_place && rank == root ? MPI_IN_PLACE : send.data();
  const int rc = Rosched_Reduce(from, recv.data(), count, MPI_INT, MPI_SUM, root, comm);
  bool ok = rc == MPI_SUCCESS && recv[count] == -7;
  if (rank == root) {
    for (int i = 0; i < count && ok; ++i) ok = recv[i] == sum_of(i);
  }
  expect(ok, what);
}

// One Rosched_Allreduce of `count` ints on comm with op (MPI_SUM or a user-defined one that
// sums), in place or not.
void allreduce_once(MPI_Comm comm, int count, MPI_Op op, bool in_place, const std::string& what) {
  std::vector<int> send(count), recv(count + 1, -7);
  for (int i = 0; i < count; ++i) send[i] = value(rank, i);
  if (in_place) recv.assign(send.begin(), send.end()), recv.push_back(-7);
  const int rc = Rosched_Allreduce(in_place ? MPI_IN_PLACE : send.data(), recv.data(), count,
                                   MPI_INT, op, comm);
  bool ok = rc == MPI_SUCCESS && recv[count] == -7;
  for (int i = 0; i < count && ok; ++i) ok = recv[i] == sum_of(i);
  expect(ok, what);
}

void sum_ints(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[i] += static_cast<int*>(in)[i];
}

namespace {

// One Rosched_Allgather of `count` ints per rank on comm, in place or not.
void allgather_once(MPI_Comm comm, int count, bool in_place, const std::string& what) {
  int size = 0, me = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &me);
  std::vector<int> send(count), recv(static_cast<std::size_t>(count) * size + 1, -7);
  for (int i = 0; i < count; ++i) send[i] = pattern(me, i);
  if (in_place) std::copy(send.begin(), send.end(), recv.begin() + std::size_t{1} * me * count);
  const int rc = Rosched_Allgather(in_place ? MPI_IN_PLACE : send.data(), count, MPI_INT,
                                   recv.data(), count, MPI_INT, comm);
  bool ok = rc == MPI_SUCCESS && recv.back() == -7;
  for (int j = 0; j < size && ok; ++j)
    for (int i = 0; i < count && ok; ++i)
      ok = recv[std::size_t{1} * j * count + i] == pattern(j, i);
  expect(ok, what);
}

// One Rosched_Allgatherv on comm of about `count` ints per rank: with `one`, rank 0 holds 99%
// of them (where Rosched_Allgatherv also times the largest block's broadcast), else equal
// counts; in place or not.
void allgatherv_once(MPI_Comm comm, int count, bool one, bool in_place, const std::string& what) {
  int size = 0, me = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &me);
  std::vector<int> counts(size, count), displs(size, 0);
  if (one && size > 1) {
    for (int j = 1; j < size; ++j) counts[j] = count / 100;
    counts[0] = count * size - (size - 1) * (count / 100);
  }
  for (int j = 1; j < size; ++j) displs[j] = displs[j - 1] + counts[j - 1];
  const int total = displs[size - 1] + counts[size - 1];
  std::vector<int> send(counts[me]), recv(total + 1, -7);
  for (int i = 0; i < counts[me]; ++i) send[i] = pattern(me, i);
  if (in_place) std::copy(send.begin(), send.end(), recv.begin() + displs[me]);
  const int rc = Rosched_Allgatherv(in_place ? MPI_IN_PLACE : send.data(), counts[me], MPI_INT,
                                    recv.data(), counts.data(), displs.data(), MPI_INT, comm);
  bool ok = rc == MPI_SUCCESS && recv.back() == -7;
  for (int j = 0; j < size && ok; ++j)
    for (int i = 0; i < counts[j] && ok; ++i) ok = recv[displs[j] + i] == pattern(j, i);
  expect(ok, what);
}

// A fresh communicator, so that no earlier call has decided its size classes: sizes of several
// classes (the first call of each is the timed one), each called four times, in place and not,
// with every root. (Also in debug mode: test_checked_trials.)
void test_timed_choices() {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  for (int count : {1, 3, 100, 2000, 40000}) {
    for (int call = 0; call < 4; ++call) {
      const bool in_place = (call + count) % 2 == 1;  // odd counts: the timed call in place
      const std::string what = "count " + std::to_string(count) + ", call " + std::to_string(call) +
                               (in_place ? ", in place" : "");
      reduce_once(comm, count, (call + count) % p, in_place, "reduce timed choice, " + what);
      allreduce_once(comm, count, MPI_SUM, in_place, "allreduce timed choice, " + what);
      allgather_once(comm, count / 8 + 1, in_place, "allgather timed choice, " + what);
      for (bool one : {false, true}) {
        allgatherv_once(
            comm, count / 8 + 1, one, in_place,
            std::string("allgatherv timed choice, ") + (one ? "one large block, " : "") + what);
      }
    }
  }
  MPI_Comm_free(&comm);
}

// Repeats of one call (the library's short way wherever the library was chosen), then the
// cases the short way must not take.
void test_repeats() {
  MPI_Comm comm = errors_return_comm();
  for (int call = 0; call < 3 * p; ++call) {
    reduce_once(comm, 4, call % p, call % 3 == 0, "reduce repeat, call " + std::to_string(call));
    allreduce_once(comm, 4, MPI_SUM, call % 3 == 0,
                   "allreduce repeat, call " + std::to_string(call));
    allgather_once(comm, 4, call % 3 == 0, "allgather repeat, call " + std::to_string(call));
    // Twice each distribution in turn: a repeat, then other counts (same total at p <= 100).
    allgatherv_once(comm, 300, call % 4 >= 2, call % 3 == 0,
                    "allgatherv repeat, call " + std::to_string(call));
  }
  int buf[8] = {};
  int cls = 0;
  for (int root : {p, -1}) {
    MPI_Error_class(Rosched_Reduce(buf, buf + 4, 4, MPI_INT, MPI_SUM, root, comm), &cls);
    expect(cls == MPI_ERR_ROOT,
           "reduce repeat: root " + std::to_string(root) + " gives MPI_ERR_ROOT");
  }
  if (p > 1) {
    Rosched_Set_debug(1);  // MPI_IN_PLACE off the root: an error on every rank
    MPI_Error_class(
        Rosched_Reduce(rank == 0 ? buf : MPI_IN_PLACE, buf + 4, 4, MPI_INT, MPI_SUM, 0, comm),
        &cls);
    expect(cls == MPI_ERR_ARG, "reduce repeat: debug mode sees MPI_IN_PLACE off the root");
    MPI_Error_class(Rosched_Allreduce(buf, buf + 4, rank == 0 ? 3 : 4, MPI_INT, MPI_SUM, comm),
                    &cls);
    expect(cls == MPI_ERR_COUNT, "allreduce repeat: debug mode sees a mismatched count");
    Rosched_Set_debug(0);
  }
  // A send size that differs from the repeated call's: the full checks.
  MPI_Error_class(Rosched_Allgather(buf, 8, MPI_INT, buf + 4, 4, MPI_INT, comm), &cls);
  expect(cls == MPI_ERR_TRUNCATE,
         "allgather repeat: sendcount 8 for recvcount 4 gives MPI_ERR_TRUNCATE");
  {
    allgatherv_once(comm, 2, false, false, "allgatherv repeat before a wrong send size");
    allgatherv_once(comm, 2, false, false, "allgatherv repeat before a wrong send size, again");
    std::vector<int> counts(p, 2), displs(p), all(2 * p);
    for (int j = 0; j < p; ++j) displs[j] = 2 * j;
    MPI_Error_class(Rosched_Allgatherv(buf, 3, MPI_INT, all.data(), counts.data(), displs.data(),
                                       MPI_INT, comm),
                    &cls);
    expect(cls == MPI_ERR_TRUNCATE,
           "allgatherv repeat: sendcount 3 for recvcount 2 gives MPI_ERR_TRUNCATE");
    counts[0] = -1;
    MPI_Error_class(Rosched_Allgatherv(MPI_IN_PLACE, 0, MPI_INT, all.data(), counts.data(),
                                       displs.data(), MPI_INT, comm),
                    &cls);
    expect(cls == MPI_ERR_COUNT, "allgatherv repeat: a negative count gives MPI_ERR_COUNT");
  }
  // A user-defined operation (its handle may be freed and reused) and a non-commutative one
  // (the census cannot run it; the library's all-reduce must) after the repeats of MPI_SUM.
  for (int commute : {1, 0}) {
    MPI_Op op;
    MPI_Op_create(sum_ints, commute, &op);
    for (int call = 0; call < 3; ++call) {
      allreduce_once(comm, 4, op, call == 1,
                     std::string("allreduce, user-defined ") +
                         (commute ? "commutative" : "non-commutative") + " op, call " +
                         std::to_string(call));
    }
    MPI_Op_free(&op);
  }
  MPI_Comm_free(&comm);
  // New communicators that may get a freed one's handle: the short way must not use the old
  // duplicate.
  for (int round = 0; round < 8; ++round) {
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank % (1 + round % 3), rank, &sub);
    int size = 0, sub_rank = 0;
    MPI_Comm_size(sub, &size);
    MPI_Comm_rank(sub, &sub_rank);
    for (int call = 0; call < 2; ++call) {
      int in[2] = {sub_rank + 1, 1}, out[2] = {-1, -1};
      int rc = Rosched_Allreduce(in, out, 2, MPI_INT, MPI_SUM, sub);
      expect(rc == MPI_SUCCESS && out[0] == size * (size + 1) / 2 && out[1] == size,
             "allreduce on a new sub-communicator, round " + std::to_string(round));
      out[0] = out[1] = -1;
      rc = Rosched_Reduce(in, out, 2, MPI_INT, MPI_SUM, size - 1, sub);
      expect(rc == MPI_SUCCESS &&
                 (sub_rank != size - 1 || (out[0] == size * (size + 1) / 2 && out[1] == size)),
             "reduce on a new sub-communicator, round " + std::to_string(round));
      allgather_once(sub, 2, call == 1,
                     "allgather on a new sub-communicator, round " + std::to_string(round));
      allgatherv_once(sub, 2, false, call == 1,
                      "allgatherv on a new sub-communicator, round " + std::to_string(round));
    }
    MPI_Comm_free(&sub);
  }
}

// Sums the ints of a type_every_other element (the first int of each pair; the second is a gap).
void sum_every_other(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[2 * i] += static_cast<int*>(in)[2 * i];
}

// The census and the reduce-scatter/all-gathers (circulant, n-port) themselves, whatever
// Rosched_Allreduce would choose: counts below, at and above p (blocks of 0, 1 and 2 elements), in
// place or not; the reduce-scatter/all-gather also on a derived datatype with gaps (one int in
// every two, with a user-defined operation), which must stay untouched, and its non-commutative
// error (the census's: collectives_mpi_test.cc, test_errors).
void test_fixed_allreduces() {
  MPI_Comm comm = errors_return_comm();
  using Allreduce = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);
  // The n-port one with the rule's n (0) and, set by Rosched_Set_nway, 2 and 3 (messages of
  // several blocks, which wrap around the vector's end at some ranks).
  const struct {
    const char* name;
    Allreduce run;
    int n = 0;
  } algorithms[] = {{"census", Rosched_Allreduce_census},
                    {"reduce-scatter/all-gather", Rosched_Allreduce_scatter_gather},
                    {"n-port reduce-scatter/all-gather", Rosched_Allreduce_nport},
                    {"n-port reduce-scatter/all-gather, n = 2", Rosched_Allreduce_nport, 2},
                    {"n-port reduce-scatter/all-gather, n = 3", Rosched_Allreduce_nport, 3}};
  for (const auto& a : algorithms) {
    Rosched_Set_nway(a.n, nullptr);
    for (int count : {0, 1, 17, p - 1, p, p + 1, 2 * p + 3, 1000, 4099}) {
      for (bool in_place : {false, true}) {
        std::vector<int> send(count), recv(count + 1, -7);
        for (int i = 0; i < count; ++i) send[i] = value(rank, i);
        if (in_place) recv.assign(send.begin(), send.end()), recv.push_back(-7);
        const int rc = a.run(in_place ? MPI_IN_PLACE : send.data(), recv.data(), count, MPI_INT,
                             MPI_SUM, comm);
        bool ok = rc == MPI_SUCCESS && recv[count] == -7;
        for (int i = 0; i < count && ok; ++i) ok = recv[i] == sum_of(i);
        expect(ok, std::string(a.name) + " count=" + std::to_string(count) +
                       (in_place ? " in place" : ""));
      }
    }
  }
  Rosched_Set_nway(0, nullptr);
  MPI_Datatype every_other;
  MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &every_other);
  MPI_Type_commit(&every_other);
  MPI_Op sum_op, noncommutative;
  MPI_Op_create(sum_every_other, 1, &sum_op);
  // The same datatype through the multi-lane all-reduce's circulant steps (--nodes=K; one node:
  // its other paths).
  const struct {
    const char* name;
    Allreduce run;
    int n = 0;
  } on_gaps[] = {{"reduce-scatter/all-gather", Rosched_Allreduce_scatter_gather},
                 {"n-port reduce-scatter/all-gather", Rosched_Allreduce_nport},
                 {"n-port reduce-scatter/all-gather, n = 2", Rosched_Allreduce_nport, 2},
                 {"node-aware all-reduce", Rosched_Allreduce_node_aware}};
  for (const auto& a : on_gaps) {
    Rosched_Set_nway(a.n, nullptr);
    for (int count : {1, p + 1, 301}) {
      for (bool in_place : {false, true}) {
        std::vector<int> send(2 * count, -3), recv(2 * count, -7);
        for (int i = 0; i < count; ++i) send[2 * i] = value(rank, i);
        if (in_place) {
          for (int i = 0; i < count; ++i) recv[2 * i] = send[2 * i];
        }
        const int rc = a.run(in_place ? MPI_IN_PLACE : send.data(), recv.data(), count,
                             every_other, sum_op, comm);
        bool ok = rc == MPI_SUCCESS;
        for (int i = 0; i < count && ok; ++i) {
          ok = recv[2 * i] == sum_of(i) && recv[2 * i + 1] == -7;
        }
        expect(ok, std::string(a.name) + ", every other int, count=" + std::to_string(count) +
                       (in_place ? " in place" : ""));
      }
    }
  }
  Rosched_Set_nway(0, nullptr);
  MPI_Op_create(sum_every_other, 0, &noncommutative);
  int buf[4] = {0, 0, 0, 0}, cls = 0;
  MPI_Error_class(Rosched_Allreduce_scatter_gather(buf, buf + 2, 2, MPI_INT, noncommutative, comm),
                  &cls);
  expect(cls == MPI_ERR_OP, "reduce-scatter/all-gather: non-commutative op gives MPI_ERR_OP");
  MPI_Error_class(Rosched_Allreduce_nport(buf, buf + 2, 2, MPI_INT, noncommutative, comm), &cls);
  expect(cls == MPI_ERR_OP, "n-port reduce-scatter/all-gather: non-commutative op: MPI_ERR_OP");
  MPI_Error_class(Rosched_Allreduce_scatter_gather(buf, buf + 2, -1, MPI_INT, MPI_SUM, comm), &cls);
  expect(cls == MPI_ERR_COUNT, "reduce-scatter/all-gather: negative count gives MPI_ERR_COUNT");
  MPI_Op_free(&noncommutative);
  MPI_Op_free(&sum_op);
  MPI_Type_free(&every_other);
  MPI_Comm_free(&comm);
}

// Rosched_Reduce_scatter_block (the library's or the circulant reduce-scatter, timed at the
// first call of a size class), _circulant, _nport and _node_aware: blocks of 0, 1, 17 elements,
// about 1,000 / p and 160,000 / p, in place or not, what lies past the block untouched;
// _circulant and _nport also on a datatype with gaps (one int in every two, a user-defined sum),
// which must stay untouched; a non-commutative operation (MPI_ERR_OP for _circulant and _nport,
// the library's result for the choosing entry), a negative count and p * recvcount beyond INT_MAX
// (MPI_ERR_COUNT).
void test_reduce_scatter_block() {
  MPI_Comm comm = errors_return_comm();
  using ReduceScatter = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);
  const struct {
    const char* name;
    ReduceScatter run;
  } entries[] = {{"reduce_scatter_block", Rosched_Reduce_scatter_block},
                 {"reduce_scatter_block_circulant", Rosched_Reduce_scatter_block_circulant},
                 {"reduce_scatter_block_nport", Rosched_Reduce_scatter_block_nport},
                 {"reduce_scatter_block_node_aware", Rosched_Reduce_scatter_block_node_aware}};
  MPI_Op sum_op, noncommutative;
  MPI_Op_create(sum_every_other, 1, &sum_op);
  MPI_Op_create(sum_every_other, 0, &noncommutative);
  // Also with n = 2 set (Rosched_Set_nway): the n-port reduce-scatter among the trial's
  // candidates, and the node-aware one's lane step on 2 ports (one chunk, on equal nodes). The
  // last block sizes make vectors of about 640 KB and 2 MB, which the node-aware one would
  // pipeline in two and three chunks and with n = 2 sends as one (its lanes on ports for the
  // whole vector, up to 4 MiB; the second above the all-reduce's 1 MiB bound); the node-aware one
  // only (the others' trials and walks under the sanitizers took minutes).
  const int large = 160000 / p + 1, larger = 500000 / p + 1;
  for (const int ports : {0, 2}) {
    Rosched_Set_nway(ports, nullptr);
    for (const auto& e : entries) {
      for (int block : {0, 1, 17, 1000 / p + 1, large, larger}) {
        if (block >= large && e.run != Rosched_Reduce_scatter_block_node_aware) continue;
        for (bool in_place : {false, true}) {
          const int total = block * p;
          std::vector<int> send(total), recv((in_place ? total : block) + 1, -7);
          for (int i = 0; i < total; ++i) send[i] = value(rank, i);
          if (in_place) std::copy(send.begin(), send.end(), recv.begin());
          const int rc = e.run(in_place ? MPI_IN_PLACE : send.data(), recv.data(), block, MPI_INT,
                               MPI_SUM, comm);
          bool ok = rc == MPI_SUCCESS && recv.back() == -7;
          for (int i = 0; i < block && ok; ++i) ok = recv[i] == sum_of(rank * block + i);
          expect(ok, std::string(e.name) + " block=" + std::to_string(block) +
                         (in_place ? " in place" : "") + ", n = " + std::to_string(ports));
        }
      }
    }
  }
  Rosched_Set_nway(0, nullptr);
  MPI_Datatype every_other;
  MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &every_other);
  MPI_Type_commit(&every_other);
  for (const auto& e : {entries[1], entries[2]}) {  // _circulant and _nport
    for (int block : {1, 5}) {
      const int total = block * p;
      std::vector<int> send(2 * total, -3), recv(2 * block, -7);
      for (int i = 0; i < total; ++i) send[2 * i] = value(rank, i);
      const int rc = e.run(send.data(), recv.data(), block, every_other, sum_op, comm);
      bool ok = rc == MPI_SUCCESS;
      for (int i = 0; i < block && ok; ++i) {
        ok = recv[2 * i] == sum_of(rank * block + i) && recv[2 * i + 1] == -7;
      }
      expect(ok, std::string(e.name) + ", every other int, block=" + std::to_string(block));
    }
  }
  {
    std::vector<int> send(2 * p, 0), recv(2, -7);
    for (int i = 0; i < p; ++i) send[2 * i] = value(rank, i);
    int cls = 0;
    for (const auto& e : {entries[1], entries[2]}) {
      cls = 0;
      MPI_Error_class(e.run(send.data(), recv.data(), 1, every_other, noncommutative, comm), &cls);
      expect(cls == MPI_ERR_OP, std::string(e.name) + ": non-commutative op gives MPI_ERR_OP");
    }
    const int rc = Rosched_Reduce_scatter_block(send.data(), recv.data(), 1, every_other,
                                                noncommutative, comm);
    expect(rc == MPI_SUCCESS && recv[0] == sum_of(rank),
           "reduce_scatter_block: a non-commutative op goes to the library");
    MPI_Error_class(
        Rosched_Reduce_scatter_block(send.data(), recv.data(), -1, MPI_INT, MPI_SUM, comm), &cls);
    expect(cls == MPI_ERR_COUNT, "reduce_scatter_block: negative count gives MPI_ERR_COUNT");
    if (p > 1) {
      MPI_Error_class(Rosched_Reduce_scatter_block(send.data(), recv.data(), INT_MAX / p + 1,
                                                   MPI_INT, MPI_SUM, comm),
                      &cls);
      expect(cls == MPI_ERR_COUNT,
             "reduce_scatter_block: p * recvcount > INT_MAX gives MPI_ERR_COUNT");
    }
  }
  MPI_Op_free(&noncommutative);
  MPI_Op_free(&sum_op);
  MPI_Type_free(&every_other);
  MPI_Comm_free(&comm);
}

// Rosched_Reduce_scatter, _circulant, _nport and _node_aware: blocks of (b mod 3) * k elements
// (zeros among them, k = 0, 1, 7, 400 / p + 1, 160,000 / p + 1) and a last block of 5, in place or
// not, what lies past the block untouched; a NULL recvcounts (MPI_ERR_ARG), a negative entry and a
// sum beyond INT_MAX (MPI_ERR_COUNT).
void test_reduce_scatter() {
  MPI_Comm comm = errors_return_comm();
  using ReduceScatter = int (*)(const void*, void*, const int[], MPI_Datatype, MPI_Op, MPI_Comm);
  const struct {
    const char* name;
    ReduceScatter run;
  } entries[] = {{"reduce_scatter", Rosched_Reduce_scatter},
                 {"reduce_scatter_circulant", Rosched_Reduce_scatter_circulant},
                 {"reduce_scatter_nport", Rosched_Reduce_scatter_nport},
                 {"reduce_scatter_node_aware", Rosched_Reduce_scatter_node_aware}};
  // Also with n = 2 set, as for the block form: the node-aware lane step on 2 ports in the lanes
  // whose blocks all hold an element, the circulant one in the others (on nodes of 3 ranks, k >=
  // 1: lanes 1 and 2 on ports, lane 0, ranks 0, 3, 6, ..., with its empty blocks, circulant).
  // The vector of about 640 KB (the last k) stays in the pipeline's chunks on every rank where a
  // lane has an empty block, though the other lanes would take ports for one chunk: all ranks
  // must agree on the chunks (on nodes of 2 at p = 4, lane 0 holds rank 0's empty block). The
  // node-aware one only, as for the block form.
  const int large = 160000 / p + 1;
  for (const int ports : {0, 2}) {
    Rosched_Set_nway(ports, nullptr);
    for (const auto& e : entries) {
      for (int k : {0, 1, 7, 400 / p + 1, large}) {
        if (k == large && e.run != Rosched_Reduce_scatter_node_aware) continue;
        for (bool in_place : {false, true}) {
          std::vector<int> counts(p), starts(p + 1, 0);
          for (int b = 0; b < p; ++b) {
            counts[b] = b + 1 == p ? 5 : (b % 3) * k;
            starts[b + 1] = starts[b] + counts[b];
          }
          const int total = starts[p];
          std::vector<int> send(total), recv((in_place ? total : counts[rank]) + 1, -7);
          for (int i = 0; i < total; ++i) send[i] = value(rank, i);
          if (in_place) std::copy(send.begin(), send.end(), recv.begin());
          const int rc = e.run(in_place ? MPI_IN_PLACE : send.data(), recv.data(), counts.data(),
                               MPI_INT, MPI_SUM, comm);
          bool ok = rc == MPI_SUCCESS && recv.back() == -7;
          for (int i = 0; i < counts[rank] && ok; ++i) ok = recv[i] == sum_of(starts[rank] + i);
          expect(ok, std::string(e.name) + " k=" + std::to_string(k) +
                         (in_place ? " in place" : "") + ", n = " + std::to_string(ports));
        }
      }
    }
  }
  Rosched_Set_nway(0, nullptr);
  int buf[4] = {0, 0, 0, 0}, cls = 0;
  MPI_Error_class(Rosched_Reduce_scatter(buf, buf + 2, nullptr, MPI_INT, MPI_SUM, comm), &cls);
  expect(cls == MPI_ERR_ARG, "reduce_scatter: NULL recvcounts gives MPI_ERR_ARG");
  std::vector<int> counts(p, 1);
  counts[p - 1] = -1;
  MPI_Error_class(Rosched_Reduce_scatter(buf, buf + 2, counts.data(), MPI_INT, MPI_SUM, comm),
                  &cls);
  expect(cls == MPI_ERR_COUNT, "reduce_scatter: a negative entry gives MPI_ERR_COUNT");
  if (p > 1) {
    std::fill(counts.begin(), counts.end(), INT_MAX / p + 1);
    MPI_Error_class(
        Rosched_Reduce_scatter_circulant(buf, buf + 2, counts.data(), MPI_INT, MPI_SUM, comm),
        &cls);
    expect(cls == MPI_ERR_COUNT, "reduce_scatter: a sum beyond INT_MAX gives MPI_ERR_COUNT");
  }
  MPI_Comm_free(&comm);
}

}  // namespace

void test_checked_trials() {
  Rosched_Set_debug(1);
  test_timed_choices();
  test_reduce_scatters();  // each on a fresh communicator: its first calls are trials
  Rosched_Set_debug(0);
}

void test_library_choices() {
  test_timed_choices();
  test_checked_trials();
  test_repeats();
  test_fixed_allreduces();
  test_reduce_scatters();
}

void test_reduce_scatters() {
  test_reduce_scatter_block();
  test_reduce_scatter();
}

}  // namespace rosched_mpi_test
