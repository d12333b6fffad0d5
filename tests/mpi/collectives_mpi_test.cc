// The MPI collectives of mpi_exec/ against their definitions, run under mpirun with p processes
// (tests/mpi/run_mpi_tests.sh runs p = 1..9): every root, sizes 0, 1, q - 1, q, primes, 1 MiB,
// irregular counts with zeros and one rank holding almost everything, MPI_IN_PLACE, derived
// datatypes, user-defined operations, bad arguments and debug-mode mismatches; the broadcasts
// (circulant, node-aware, two-tree, hypercube) through the same checks, and with --nodes=K the
// node-aware one on nodes of K ranks; with --one-block the allgathervs with one block per
// contribution and rounds streamed in parts. Every rank checks its own result; rank 0 prints
// "p=P[ mode]: N passed, M failed".
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mpi_exec/bcast_kary_tree.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/last_run.h"
#include "mpi_exec/message_bytes.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/rosched_mpi.h"
#include "tests/mpi/mpi_test_util.h"

namespace rosched_mpi_test {

int p = 1, rank = 0;
long passed = 0, failed = 0;

void expect(bool ok, const std::string& what) {
  if (ok) {
    ++passed;
  } else {
    ++failed;
    const char* f = std::getenv("ROSCHED_BCAST_F");  // set for the many-blocks pass
    std::fprintf(stderr, "FAIL p=%d rank=%d: %s%s%s\n", p, rank, what.c_str(),
                 f ? " with block-size factor F=" : "", f ? f : "");
  }
}

int ceil_log2(int x) {
  int q = 0;
  while ((1 << q) < x) ++q;
  return q;
}

int pattern(int root, int i) { return root * 1000003 + i * 7 + 1; }

MPI_Comm errors_return_comm() {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  return comm;
}

bool same_on_all(MPI_Comm comm, int answer) {
  int low = 0, high = 0;
  MPI_Allreduce(&answer, &low, 1, MPI_INT, MPI_MIN, comm);
  MPI_Allreduce(&answer, &high, 1, MPI_INT, MPI_MAX, comm);
  return low == high;
}

}  // namespace rosched_mpi_test

namespace {

using namespace rosched_mpi_test;

void test_bcast_ints(BcastFn bcast, const std::string& name) {
  const int q = ceil_log2(p);
  for (int count : {0, 1, q - 1, q, 2, 7, 13, 101, 1009, 262144}) {
    if (count < 0) continue;
    for (int root = 0; root < p; ++root) {
      std::vector<int> buf(count + 2, -1);  // one guard element on each side
      if (rank == root) for (int i = 0; i < count; ++i) buf[i + 1] = pattern(root, i);
      const int rc = bcast(buf.data() + 1, count, MPI_INT, root, MPI_COMM_WORLD);
      bool ok = rc == MPI_SUCCESS && buf[0] == -1 && buf[count + 1] == -1;
      for (int i = 0; i < count && ok; ++i) ok = buf[i + 1] == pattern(root, i);
      expect(ok, name + " MPI_INT count=" + std::to_string(count) + " root=" + std::to_string(root));
    }
  }
}

// A vector type with gaps: 3 blocks of 2 ints, stride 3; the gaps must stay untouched.
void test_bcast_derived(BcastFn bcast, const std::string& name) {
  MPI_Datatype vec;
  MPI_Type_vector(3, 2, 3, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  MPI_Aint lb, extent;
  MPI_Type_get_extent(vec, &lb, &extent);
  const int per = static_cast<int>(extent / sizeof(int));  // 8 ints per element
  for (int count : {0, 1, 5, 999}) {
    for (int root = 0; root < p; root += (p > 3 ? 2 : 1)) {
      std::vector<int> buf(count * per + 1, -1);
      if (rank == root) {
        for (int e = 0; e < count; ++e)
          for (int b = 0; b < 3; ++b)
            for (int j = 0; j < 2; ++j) buf[e * per + 3 * b + j] = pattern(root, e * 6 + b * 2 + j);
      }
      const int rc = bcast(buf.data(), count, vec, root, MPI_COMM_WORLD);
      bool ok = rc == MPI_SUCCESS;
      for (int e = 0; e < count && ok; ++e) {
        for (int b = 0; b < 3; ++b) {
          for (int j = 0; j < 2; ++j) ok = ok && buf[e * per + 3 * b + j] == pattern(root, e * 6 + b * 2 + j);
          if (b < 2) ok = ok && (rank == root || buf[e * per + 3 * b + 2] == -1);  // gap
        }
      }
      expect(ok, name + " vector type count=" + std::to_string(count) + " root=" + std::to_string(root));
    }
  }
  MPI_Type_free(&vec);
}

// Bad arguments come back as MPI error classes on a communicator with MPI_ERRORS_RETURN; in
// debug mode a mismatched root or message size is an error on every rank, not a hang.
void test_bcast_errors(BcastFn bcast, const std::string& name) {
  MPI_Comm comm = errors_return_comm();
  int buf[4] = {0, 0, 0, 0};
  int cls = 0;
  MPI_Error_class(bcast(buf, -1, MPI_INT, 0, comm), &cls);
  expect(cls == MPI_ERR_COUNT, name + " negative count gives MPI_ERR_COUNT");
  for (int root : {-1, p}) {
    MPI_Error_class(bcast(buf, 1, MPI_INT, root, comm), &cls);
    expect(cls == MPI_ERR_ROOT, name + " root " + std::to_string(root) + " gives MPI_ERR_ROOT");
  }
  MPI_Error_class(bcast(buf, 1, MPI_DATATYPE_NULL, 0, comm), &cls);
  expect(cls == MPI_ERR_TYPE, name + " MPI_DATATYPE_NULL gives MPI_ERR_TYPE");
  if (p > 1) {
    Rosched_Set_debug(1);
    MPI_Error_class(bcast(buf, 4, MPI_INT, rank == p - 1 ? 1 : 0, comm), &cls);
    expect(cls == MPI_ERR_ROOT, name + " debug: mismatched root gives MPI_ERR_ROOT on every rank");
    MPI_Error_class(bcast(buf, rank == 0 ? 3 : 4, MPI_INT, 0, comm), &cls);
    expect(cls == MPI_ERR_TRUNCATE, name + " debug: mismatched count gives MPI_ERR_TRUNCATE on every rank");
    Rosched_Set_debug(0);
  }
  MPI_Comm_free(&comm);
}

void test_allgather() {
  for (int count : {0, 1, 5, 1000}) {
    for (bool in_place : {false, true}) {
      std::vector<int> recv(static_cast<std::size_t>(count) * p + 1, -1);
      std::vector<int> send(count);
      for (int i = 0; i < count; ++i) send[i] = pattern(rank, i);
      if (in_place) for (int i = 0; i < count; ++i) recv[static_cast<std::size_t>(rank) * count + i] = send[i];
      const int rc = Rosched_Allgather(in_place ? MPI_IN_PLACE : send.data(), count, MPI_INT,
                                       recv.data(), count, MPI_INT, MPI_COMM_WORLD);
      bool ok = rc == MPI_SUCCESS && recv.back() == -1;
      for (int j = 0; j < p && ok; ++j)
        for (int i = 0; i < count && ok; ++i) ok = recv[static_cast<std::size_t>(j) * count + i] == pattern(j, i);
      expect(ok, "allgather count=" + std::to_string(count) + (in_place ? " in place" : ""));
    }
  }
  // Different but matching type signatures: 2c MPI_INT sent, c pairs of ints received.
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  const int c = 3;
  std::vector<int> send(2 * c), recv(2 * c * p, -1);
  for (int i = 0; i < 2 * c; ++i) send[i] = pattern(rank, i);
  int rc = Rosched_Allgather(send.data(), 2 * c, MPI_INT, recv.data(), c, pair, MPI_COMM_WORLD);
  bool ok = rc == MPI_SUCCESS;
  for (int j = 0; j < p && ok; ++j)
    for (int i = 0; i < 2 * c && ok; ++i) ok = recv[2 * c * j + i] == pattern(j, i);
  expect(ok, "allgather MPI_INT into contiguous pairs");
  MPI_Type_free(&pair);
}

// One all-gather entry point on plain ints, in place and not, and into a receive type with gaps
// (each int at every other place of the buffer: an extent of two ints).
void test_allgather_entry(int (*allgather)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype,
                                           MPI_Comm),
                          const std::string& what) {
  MPI_Datatype spaced;
  MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &spaced);
  MPI_Type_commit(&spaced);
  for (int count : {0, 1, 7, 1000}) {
    const std::size_t n = static_cast<std::size_t>(count) * p;
    std::vector<int> send(count);
    for (int i = 0; i < count; ++i) send[i] = pattern(rank, i);
    for (bool in_place : {false, true}) {
      std::vector<int> recv(n + 1, -1);
      if (in_place) std::copy(send.begin(), send.end(), recv.begin() + rank * count);
      const int rc = allgather(in_place ? MPI_IN_PLACE : send.data(), count, MPI_INT, recv.data(),
                               count, MPI_INT, MPI_COMM_WORLD);
      bool ok = rc == MPI_SUCCESS && recv[n] == -1;
      for (std::size_t k = 0; k < n && ok; ++k) {
        ok = recv[k] == pattern(static_cast<int>(k) / count, static_cast<int>(k) % count);
      }
      expect(ok, what + " count=" + std::to_string(count) + (in_place ? " in place" : ""));
    }
    std::vector<int> gapped(2 * n + 1, -1);
    const int rc =
        allgather(send.data(), count, MPI_INT, gapped.data(), count, spaced, MPI_COMM_WORLD);
    bool ok = rc == MPI_SUCCESS && gapped[2 * n] == -1;
    for (std::size_t k = 0; k < n && ok; ++k) {
      ok = gapped[2 * k] == pattern(static_cast<int>(k) / count, static_cast<int>(k) % count) &&
           gapped[2 * k + 1] == -1;
    }
    expect(ok, what + " into a type with gaps, count=" + std::to_string(count));
  }
  MPI_Type_free(&spaced);
}

// Rosched_Allgather_circulant (Träff 2022, Alg. 7, never the library's) and
// Rosched_Allgather_nway (Alg. 7 on n ports, n = 2, 3 and 7 by Rosched_Set_nway: a round's
// ranges, some wrapping around the vector's end, on up to n ports at once) as
// test_allgather_entry checks them, and the all-gather half of Rosched_Allreduce_scatter_gather.
// With --many-blocks the rounds of Algorithm 7 go as streams of parts of 24 B
// (ROSCHED_STREAM_PART), so parts cut across the two pieces of a round whose blocks wrap around
// the vector's end.
void test_allgather_circulant() {
  for (int n : {0, 2, 3, 7}) {  // 0: Algorithm 7
    Rosched_Set_nway(n, nullptr);
    test_allgather_entry(
        n == 0 ? Rosched_Allgather_circulant : Rosched_Allgather_nway,
        n == 0 ? "allgather circulant" : "allgather " + std::to_string(n) + "-port");
  }
  Rosched_Set_nway(0, nullptr);
  for (int count : {0, 1, 7, 1000}) {
    std::vector<int> sum(count + 1, -1), native(count);
    std::vector<int> mine(count);
    for (int i = 0; i < count; ++i) mine[i] = pattern(rank, i) % 1000;
    const int rc = Rosched_Allreduce_scatter_gather(mine.data(), sum.data(), count, MPI_INT,
                                                    MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(mine.data(), native.data(), count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    bool ok = rc == MPI_SUCCESS && sum[count] == -1;
    for (int i = 0; i < count && ok; ++i) ok = sum[i] == native[i];
    expect(ok, "allreduce reduce-scatter + all-gather count=" + std::to_string(count));
  }
}

// Counts the same on every rank: zeros, random sizes, or one rank holding almost everything.
std::vector<int> make_counts(int kind, unsigned seed) {
  std::vector<int> counts(p);
  unsigned state = seed * 2654435761u + 12345u;
  for (int j = 0; j < p; ++j) {
    state = state * 1103515245u + 12345u;
    const int r = static_cast<int>((state >> 8) % 2000);
    counts[j] = kind == 0 ? (r % 3 == 0 ? 0 : r)           // random, a third of them zero
              : kind == 1 ? (j == p / 2 ? 100000 : j % 2)   // one rank has almost everything
              : kind == 2 ? 0                               // nothing at all
              : kind == 3 ? (j % 3) * 17                    // the paper's m_r = (r mod 3) m
              : kind == 4 ? (j == p - 1 ? 5000 : 0)         // one rank has everything
                          : (j == 0 ? 3 * (p - 1) : 3);     // one rank has exactly half
  }
  return counts;
}

using AllgathervFn = int (*)(const void*, int, MPI_Datatype, void*, const int[], const int[],
                             MPI_Datatype, MPI_Comm);

// Rosched_Allgatherv (the first call of each size class times its candidates) and each of the
// algorithms it chooses from, forced.
void test_allgatherv(const std::string& name, AllgathervFn fn) {
  // gap 3: displacements in reverse rank order with a gap of 3 between contributions; gap 0:
  // contributions one after the other in rank order (where the node-aware all-gather applies).
  for (int gap : {3, 0})
  for (int kind = 0; kind < 6; ++kind) {
    for (bool in_place : {false, true}) {
      const std::vector<int> counts = make_counts(kind, 7 + kind);
      std::vector<int> displs(p);
      int at = 0;
      for (int k = 0; k < p; ++k) {
        const int j = gap > 0 ? p - 1 - k : k;
        displs[j] = at;
        at += counts[j] + gap;
      }
      std::vector<int> recv(at + 1, -1), send(counts[rank]);
      for (int i = 0; i < counts[rank]; ++i) send[i] = pattern(rank, i);
      if (in_place) std::copy(send.begin(), send.end(), recv.begin() + displs[rank]);
      const int rc = fn(in_place ? MPI_IN_PLACE : send.data(), counts[rank], MPI_INT, recv.data(),
                        counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD);
      bool ok = rc == MPI_SUCCESS;
      for (int j = 0; j < p && ok; ++j) {
        for (int i = 0; i < counts[j] && ok; ++i) ok = recv[displs[j] + i] == pattern(j, i);
        for (int g = 0; g < gap && ok; ++g) ok = recv[displs[j] + counts[j] + g] == -1;  // gaps
      }
      ok = ok && recv[at] == -1;  // past the end
      expect(ok, name + " kind=" + std::to_string(kind) + " gap=" + std::to_string(gap) +
                     (in_place ? " in place" : ""));
    }
  }
  // A derived receive type: each element is one int followed by an untouched gap int.
  MPI_Datatype spaced, resized;
  MPI_Type_vector(1, 1, 1, MPI_INT, &spaced);
  MPI_Type_create_resized(spaced, 0, 2 * sizeof(int), &resized);
  MPI_Type_commit(&resized);
  const std::vector<int> counts = make_counts(0, 99);
  std::vector<int> displs(p);
  int total = 0;
  for (int j = 0; j < p; ++j) {
    displs[j] = total;
    total += counts[j];
  }
  std::vector<int> recv(2 * total + 1, -1), send(counts[rank]);
  for (int i = 0; i < counts[rank]; ++i) send[i] = pattern(rank, i);
  const int rc = fn(send.data(), counts[rank], MPI_INT, recv.data(), counts.data(),
                    displs.data(), resized, MPI_COMM_WORLD);
  bool ok = rc == MPI_SUCCESS;
  for (int j = 0; j < p && ok; ++j)
    for (int i = 0; i < counts[j] && ok; ++i)
      ok = recv[2 * (displs[j] + i)] == pattern(j, i) && recv[2 * (displs[j] + i) + 1] == -1;
  expect(ok, name + " into a resized (strided) type");
  MPI_Type_free(&resized);
  MPI_Type_free(&spaced);
}

void test_allgathervs() {
  test_allgatherv("allgatherv", Rosched_Allgatherv);
  test_allgatherv("allgatherv circulant", Rosched_Allgatherv_circulant);
  test_allgatherv("allgatherv node-aware", Rosched_Allgatherv_node_aware);
  test_allgatherv("allgatherv largest", Rosched_Allgatherv_largest);
  for (int n : {0, 2, 5}) {  // 0: the rule's (at least 2 ports)
    Rosched_Set_nway(n, nullptr);
    test_allgatherv("allgatherv " + std::to_string(n) + "-port", Rosched_Allgatherv_nway);
  }
  Rosched_Set_nway(0, nullptr);
}

// A trial's answers 1 (Algorithm 7) and 2 (the n-port all-gather) stored for a size class on a
// fresh communicator, as a trial stores them: the query names each, the call runs it (last_run)
// and delivers every block, in place and not; the same for Rosched_Allgatherv's 3 and 1. (Which
// wins a trial depends on the machine.)
void test_allgather_stored_answers() {
  if (std::getenv("ROSCHED_ALLGATHER") != nullptr) return;
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const rosched::mpi::CommInfo ci = rosched::mpi::comm_info(comm);
  const int count = 300;
  for (int stored : {2, 1, 2}) {
    rosched::mpi::measured_choices(ci, rosched::mpi::Decided::kAllgather).store(count * 4, stored);
    rosched::mpi::decision_memo(ci, rosched::mpi::Decided::kAllgather).store(count, 4, stored);
    const std::string what = "allgather, a trial's answer " + std::to_string(stored) + " stored";
    int answer = -1;
    Rosched_Allgather_choice(comm, count, MPI_INT, &answer);
    expect(answer == (p == 1 ? 1 : stored),
           what + ": the query names it (" + std::to_string(answer) + ")");
    for (bool in_place : {false, true}) {
      std::vector<int> all(static_cast<std::size_t>(count) * p, -1), mine(count);
      for (int i = 0; i < count; ++i) mine[i] = pattern(rank, i);
      if (in_place) std::copy(mine.begin(), mine.end(), all.begin() + rank * count);
      bool ok = Rosched_Allgather(in_place ? MPI_IN_PLACE : mine.data(), count, MPI_INT, all.data(),
                                  count, MPI_INT, comm) == MPI_SUCCESS;
      for (int j = 0; j < p && ok; ++j)
        for (int i = 0; i < count && ok; ++i) ok = all[j * count + i] == pattern(j, i);
      expect(ok, what + (in_place ? ", in place" : "") + ": data");
      expect(rosched::mpi::last_run(rosched::mpi::Decided::kAllgather) == answer,
             what + ": the call ran it");
    }
  }
  // Rosched_Allgatherv: answers 3 (the n-port all-gather) and 1 (Algorithm 9) stored for the
  // size class of the (r mod 3) counts' total, blocks in reverse rank order with gaps.
  if (std::getenv("ROSCHED_ALLGATHERV") == nullptr) {
    std::vector<int> counts(p), displs(p);
    int at = 0, total = 0;
    for (int k = p - 1; k >= 0; --k) {
      counts[k] = 40 * (k % 3 + 1);
      displs[k] = at;
      at += counts[k] + 2;
      total += counts[k];
    }
    // The key Rosched_Allgatherv keeps its answers under: the result's bytes as units, apart
    // for distributions with a block of at least half the data (at p = 2 and 3 here).
    const rosched::mpi::ByteUnits units = rosched::mpi::blocks_units(counts.data(), p, 4);
    const rosched::mpi::Decided key = rosched::mpi::largest_block_dominates(counts.data(), p)
                                          ? rosched::mpi::Decided::kAllgathervLargest
                                          : rosched::mpi::Decided::kAllgatherv;
    for (int stored : {3, 1}) {
      rosched::mpi::measured_choices(ci, key).store(
          static_cast<long long>(units.count) * units.info.size, stored);
      rosched::mpi::decision_memo(ci, key).store(units.count, units.info.size, stored);
      const std::string what = "allgatherv, a trial's answer " + std::to_string(stored) + " stored";
      int answer = -1;
      Rosched_Allgatherv_choice(comm, counts.data(), MPI_INT, &answer);
      expect(answer == (p == 1 ? 1 : stored),
             what + ": the query names it (" + std::to_string(answer) + ")");
      std::vector<int> recv(at, -1), send(counts[rank]);
      for (int i = 0; i < counts[rank]; ++i) send[i] = pattern(rank, i);
      bool ok = Rosched_Allgatherv(send.data(), counts[rank], MPI_INT, recv.data(), counts.data(),
                                   displs.data(), MPI_INT, comm) == MPI_SUCCESS;
      for (int j = 0; j < p && ok; ++j) {
        for (int i = 0; i < counts[j] && ok; ++i) ok = recv[displs[j] + i] == pattern(j, i);
        ok = ok && recv[displs[j] + counts[j]] == -1 && recv[displs[j] + counts[j] + 1] == -1;
      }
      expect(ok, what + ": data, gaps untouched");
      expect(rosched::mpi::last_run(rosched::mpi::Decided::kAllgatherv) == answer,
             what + ": the call ran it");
    }
  }
  MPI_Comm_free(&comm);
}

// Rosched_Allgather_choice and Rosched_Allgatherv_choice say what the next call runs: the same
// answer on every rank, within the collective's answers (the all-gather: 0 library, 1
// rosched's, 2 the n-port all-gather; the allgatherv: 0, 1, 2 the largest block's broadcast,
// only where one block is at least half of the data, 3 the n-port all-gather), before a call of a
// size class 1 (it is timed), after it the answer the call stored, which a later call of the same
// class keeps, and each answer names what the call before it ran (last_run.h: a timed call its
// winner); the data arrives through the timed calls. Bad arguments are errors. A fresh
// communicator, so that no earlier call has decided its classes.
void test_allgather_choices() {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  for (int kind : {0, 1}) {  // 0: equal counts, 1: rank 0 holds 99%
    int class_answer = -1;
    // 384 KiB (equal; rounding to p equal blocks stays in 256-512 KiB) or 768 KiB of ints (99%:
    // a class of its own also where equal counts make one block half of the data, at p = 2),
    // then the same class again
    const int first = kind == 0 ? 3 << 15 : 3 << 16;
    for (int total : {first, first + 640}) {
      const int small = kind == 0 ? total / p : total / 100 / p;
      std::vector<int> counts(p, small), displs(p, 0);
      if (kind == 1) counts[0] = total - (p - 1) * small;
      for (int j = 1; j < p; ++j) displs[j] = displs[j - 1] + counts[j - 1];
      long long sum = 0;
      for (int c : counts) sum += c;
      const bool dominated = 2LL * *std::max_element(counts.begin(), counts.end()) >= sum;
      int before = -1, after = -1;
      Rosched_Allgatherv_choice(comm, counts.data(), MPI_INT, &before);
      std::vector<int> recv(displs[p - 1] + counts[p - 1], -1), send(counts[rank]);
      for (int i = 0; i < counts[rank]; ++i) send[i] = pattern(rank, i);
      bool ok = Rosched_Allgatherv(send.data(), counts[rank], MPI_INT, recv.data(), counts.data(),
                                   displs.data(), MPI_INT, comm) == MPI_SUCCESS;
      for (int j = 0; j < p && ok; ++j)
        for (int i = 0; i < counts[j] && ok; ++i) ok = recv[displs[j] + i] == pattern(j, i);
      const std::string what = "allgatherv choice, " + std::string(kind ? "99% on rank 0" : "equal") +
                               ", total " + std::to_string(total);
      expect(ok, what + ": data");
      const int ran = rosched::mpi::last_run(rosched::mpi::Decided::kAllgatherv);
      Rosched_Allgatherv_choice(comm, counts.data(), MPI_INT, &after);
      // A timed call ran the winner it stored, a later one the class's answer.
      expect(ran == after, what + ": the answer names what the call ran (" + std::to_string(ran) +
                               " against " + std::to_string(after) + ")");
      expect(same_on_all(comm, before) && same_on_all(comm, after),
             what + ": the same answer on every rank");
      // 2, the largest block's broadcast, only where one block is at least half of the data; 3
      // the n-port all-gather.
      expect(after >= 0 && after <= 3 && (after != 2 || (dominated && p > 1)),
             what + ": one of its candidates");
      if (class_answer < 0) {
        expect(before == 1 || p == 1, what + ": a new class is timed (1 before the call)");
        class_answer = after;
      } else {
        expect(before == class_answer && after == class_answer, what + ": the class's answer");
      }
    }
  }
  // Two calls of one size class (64 KiB and 64 KiB + 4 B per block): the first timed, the
  // second running the answer the first stored.
  int class_answer = -1;
  for (const int recvcount : {1 << 14, (1 << 14) + 1}) {
    const std::string what = "allgather choice, " + std::to_string(recvcount) + " ints a block";
    int before = -1, after = -1;
    Rosched_Allgather_choice(comm, recvcount, MPI_INT, &before);
    std::vector<int> all(static_cast<std::size_t>(recvcount) * p, -1), mine(recvcount);
    for (int i = 0; i < recvcount; ++i) mine[i] = pattern(rank, i);
    bool ok = Rosched_Allgather(mine.data(), recvcount, MPI_INT, all.data(), recvcount, MPI_INT,
                                comm) == MPI_SUCCESS;
    for (int j = 0; j < p && ok; ++j)
      for (int i = 0; i < recvcount && ok; ++i) ok = all[j * recvcount + i] == pattern(j, i);
    expect(ok, what + ": data");
    const int ran = rosched::mpi::last_run(rosched::mpi::Decided::kAllgather);
    Rosched_Allgather_choice(comm, recvcount, MPI_INT, &after);
    expect(same_on_all(comm, before) && same_on_all(comm, after) && after >= 0 && after <= 2,
           what + ": 0, 1 or 2 (the n-port all-gather), the same on every rank");
    expect(ran == after, what + ": the answer names what the call ran (" + std::to_string(ran) +
                             " against " + std::to_string(after) + ")");
    if (class_answer < 0) {
      expect(before == 1, what + ": 1 before the class's first call");
      class_answer = after;
    } else {
      expect(before == class_answer && after == class_answer, what + ": the class's answer");
    }
  }
  MPI_Comm_free(&comm);
  test_allgather_stored_answers();
  MPI_Comm bad = errors_return_comm();
  int cls = 0, after = -1;
  std::vector<int> negative(p, 1);
  negative[0] = -1;
  MPI_Error_class(Rosched_Allgatherv_choice(bad, negative.data(), MPI_INT, &after), &cls);
  expect(cls == MPI_ERR_COUNT, "allgatherv choice: a negative count gives MPI_ERR_COUNT");
  MPI_Error_class(Rosched_Allgatherv_choice(bad, nullptr, MPI_INT, &after), &cls);
  expect(cls == MPI_ERR_ARG, "allgatherv choice: NULL recvcounts give MPI_ERR_ARG");
  MPI_Error_class(Rosched_Allgather_choice(bad, 1, MPI_INT, nullptr), &cls);
  expect(cls == MPI_ERR_ARG, "allgather choice: a NULL answer pointer gives MPI_ERR_ARG");
  MPI_Error_class(Rosched_Allgather_choice(bad, -1, MPI_INT, &after), &cls);
  expect(cls == MPI_ERR_COUNT, "allgather choice: a negative count gives MPI_ERR_COUNT");
  MPI_Comm_free(&bad);
}

void xor_ints(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[i] ^= static_cast<int*>(in)[i];
}

void test_allreduce() {
  for (int count : {0, 1, 17, 1000}) {
    for (bool in_place : {false, true}) {
      std::vector<int> send(count), mine(count + 1, -1), native(count);
      for (int i = 0; i < count; ++i) send[i] = pattern(rank, i) % 1000;
      if (in_place) std::copy(send.begin(), send.end(), mine.begin());
      int rc = Rosched_Allreduce(in_place ? MPI_IN_PLACE : send.data(), mine.data(), count,
                                 MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      MPI_Allreduce(send.data(), native.data(), count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      bool ok = rc == MPI_SUCCESS && mine[count] == -1;
      for (int i = 0; i < count && ok; ++i) ok = mine[i] == native[i];
      expect(ok, "allreduce MPI_SUM count=" + std::to_string(count) + (in_place ? " in place" : ""));
    }
  }
  std::vector<double> x(33), mx(33), native(33);
  for (int i = 0; i < 33; ++i) x[i] = (rank * 37 + i * 11) % 23 - 0.5 * rank;
  int rc = Rosched_Allreduce(x.data(), mx.data(), 33, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(x.data(), native.data(), 33, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  expect(rc == MPI_SUCCESS && mx == native, "allreduce MPI_MAX double");
  MPI_Op op;
  MPI_Op_create(xor_ints, 1, &op);
  std::vector<int> v(9), r(9), n(9);
  for (int i = 0; i < 9; ++i) v[i] = pattern(rank, i);
  rc = Rosched_Allreduce(v.data(), r.data(), 9, MPI_INT, op, MPI_COMM_WORLD);
  MPI_Allreduce(v.data(), n.data(), 9, MPI_INT, MPI_BXOR, MPI_COMM_WORLD);
  expect(rc == MPI_SUCCESS && r == n, "allreduce user-defined commutative op");
  MPI_Op_free(&op);
}

// Errors come back as MPI error classes on a communicator with MPI_ERRORS_RETURN (the
// broadcasts': test_bcast_errors).
void test_errors() {
  MPI_Comm comm = errors_return_comm();
  int buf[4] = {0, 0, 0, 0};
  int cls = 0;
  std::vector<int> negative(p, 1), displs(p, 0);
  negative[0] = -1;
  MPI_Error_class(Rosched_Allgatherv(MPI_IN_PLACE, 0, MPI_INT, buf, negative.data(), displs.data(),
                                     MPI_INT, comm), &cls);
  expect(cls == MPI_ERR_COUNT, "allgatherv negative recvcount gives MPI_ERR_COUNT");
  MPI_Op op;
  MPI_Op_create(xor_ints, 0, &op);  // declared non-commutative
  MPI_Error_class(Rosched_Allreduce_census(buf, buf + 2, 2, MPI_INT, op, comm), &cls);
  expect(cls == MPI_ERR_OP, "census allreduce: non-commutative op gives MPI_ERR_OP");
  MPI_Op_free(&op);
  if (p > 1) {  // mismatched arguments in debug mode: an error on every rank, not a hang
    Rosched_Set_debug(1);
    MPI_Error_class(Rosched_Allreduce(buf, buf + 2, rank == 0 ? 1 : 2, MPI_INT, MPI_SUM, comm), &cls);
    expect(cls == MPI_ERR_COUNT, "debug: mismatched allreduce count gives MPI_ERR_COUNT");
    std::vector<int> counts(p, 1), displs(p);
    for (int j = 0; j < p; ++j) displs[j] = j;
    if (rank == 0) counts[p - 1] = 0;  // rank 0 disagrees about rank p-1's count
    std::vector<int> all(p);
    MPI_Error_class(Rosched_Allgatherv(MPI_IN_PLACE, 0, MPI_INT, all.data(), counts.data(),
                                       displs.data(), MPI_INT, comm), &cls);
    expect(cls == MPI_ERR_COUNT, "debug: mismatched allgatherv recvcounts give MPI_ERR_COUNT");
    Rosched_Set_debug(0);
  }
  MPI_Comm_free(&comm);
}

// Rosched_Bcast's timed choice: where the model predicts the circulant broadcast, the first call
// of a size class times MPI_Bcast against rosched's broadcasts (at p > 2 the circulant,
// hypercube and two-tree ones, and the k-ary tree where the model's crowding is 2 or more) on
// the caller's buffer. The data must arrive
// through the timed call too, every rank must keep the same answer (else at the next call the
// ranks would run different algorithms and hang), a size of the same class shares the answer,
// and a broadcast predicted native is never timed into circulant; the answer after a call names
// what it ran (last_run.h). A fresh communicator, so that no earlier call has decided its
// classes.
void test_bcast_measured_choice() {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const int first = 1 << 18, same_class = first + 4096;  // 1 MiB and 1 MiB + 16 KiB of ints
  int answer_first = -1, predicted_first = -1;  // predicted 1 for a new class: it is timed
  for (int count : {first, same_class, first >> 2}) {
    int predicted = -1, after = -1;
    Rosched_Bcast_choice(comm, count, MPI_INT, &predicted);
    const int root = p - 1;
    std::vector<int> buf(count, -1);
    if (rank == root) for (int i = 0; i < count; ++i) buf[i] = pattern(root, i);
    bool ok = Rosched_Bcast(buf.data(), count, MPI_INT, root, comm) == MPI_SUCCESS;
    for (int i = 0; i < count && ok; ++i) ok = buf[i] == pattern(root, i);
    const std::string what = "bcast timed choice, count " + std::to_string(count);
    expect(ok, what + ": data");
    const int ran = rosched::mpi::last_run(rosched::mpi::Decided::kBcast);
    Rosched_Bcast_choice(comm, count, MPI_INT, &after);
    // A timed call ran the winner it stored, a later one the class's answer.
    expect(ran == after, what + ": the answer names what the call ran (" + std::to_string(ran) +
                             " against " + std::to_string(after) + ")");
    int low = 0, high = 0;
    MPI_Allreduce(&after, &low, 1, MPI_INT, MPI_MIN, comm);
    MPI_Allreduce(&after, &high, 1, MPI_INT, MPI_MAX, comm);
    expect(low == high && after >= 0 && after <= 5, what + ": the same answer on every rank");
    expect(predicted != 0 || after == 0, what + ": predicted native stays native");
    if (count == first) answer_first = after, predicted_first = predicted;
    if (count == same_class && predicted_first == 1) {
      expect(predicted == 0 || predicted == answer_first, what + ": the class's answer before the call");
      expect(after == 0 || after == answer_first, what + ": the class's answer");
    }
  }
  MPI_Comm_free(&comm);
}

// Rosched_Bcast hands a repeat of this thread's last call that went to MPI_Bcast (same
// communicator, count and predefined datatype) straight to MPI_Bcast. The repeat must deliver
// from every root, still reject a root out of range, stop at debug mode (a mismatched count is
// an error on every rank: no rank may take the short way while the others compare), and never
// use a freed communicator's duplicate when a new communicator gets the old handle
// (sub-communicators of changing sizes, each made, used twice and freed).
void test_bcast_repeat() {
  const auto fill = [](int* buf, int root, int salt) {
    for (int i = 0; i < 4; ++i) buf[i] = rank == root ? pattern(root + salt, i) : -1;
  };
  const auto arrived = [](const int* buf, int root, int salt) {
    bool ok = true;
    for (int i = 0; i < 4; ++i) ok = ok && buf[i] == pattern(root + salt, i);
    return ok;
  };
  MPI_Comm comm = errors_return_comm();
  int buf[4];
  for (int call = 0; call < 3 * p; ++call) {
    const int root = call % p;
    fill(buf, root, call);
    const bool ok = Rosched_Bcast(buf, 4, MPI_INT, root, comm) == MPI_SUCCESS;
    expect(ok && arrived(buf, root, call),
           "bcast repeat: call " + std::to_string(call) + ", root " + std::to_string(root));
  }
  int cls = 0;
  for (int root : {p, -1}) {
    MPI_Error_class(Rosched_Bcast(buf, 4, MPI_INT, root, comm), &cls);
    expect(cls == MPI_ERR_ROOT, "bcast repeat: root " + std::to_string(root) + " gives MPI_ERR_ROOT");
  }
  if (p > 1) {
    Rosched_Bcast(buf, 4, MPI_INT, 0, comm);  // the repeat again, then debug mode
    Rosched_Set_debug(1);
    MPI_Error_class(Rosched_Bcast(buf, rank == 0 ? 3 : 4, MPI_INT, 0, comm), &cls);
    expect(cls == MPI_ERR_TRUNCATE, "bcast repeat: debug mode sees a mismatched count on every rank");
    Rosched_Set_debug(0);
  }
  MPI_Comm_free(&comm);
  for (int round = 0; round < 12; ++round) {
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank % (1 + round % 3), rank, &sub);
    int size = 0;
    MPI_Comm_size(sub, &size);
    int sub_rank = 0;
    MPI_Comm_rank(sub, &sub_rank);
    for (int call = 0; call < 2; ++call) {
      const int root = size - 1, salt = 100 * round + call;
      for (int i = 0; i < 4; ++i) buf[i] = sub_rank == root ? pattern(root + salt, i) : -1;
      const bool ok = Rosched_Bcast(buf, 4, MPI_INT, root, sub) == MPI_SUCCESS;
      expect(ok && arrived(buf, root, salt), "bcast repeat on a new sub-communicator, round " +
                                                 std::to_string(round) + ", call " + std::to_string(call));
    }
    MPI_Comm_free(&sub);
  }
}

// The cost model every rank decides by: positive times not decreasing with the size, and the
// same on every rank (else the ranks would split a message into different block counts).
void test_cost_model() {
  const rosched::mpi::CommInfo ci = rosched::mpi::comm_info(MPI_COMM_WORLD);
  const rosched::mpi::CostModel& model = rosched::mpi::cost_model(ci);
  constexpr int k = rosched::mpi::CostModel::kPoints;
  double mine[k], low[k], high[k];
  bool ordered = model.seconds[0] > 0;
  for (int i = 0; i < k; ++i) {
    mine[i] = model.seconds[i];
    if (i > 0 && model.seconds[i] < model.seconds[i - 1]) ordered = false;
  }
  MPI_Allreduce(mine, low, k, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(mine, high, k, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  expect(ordered, "cost model times are positive and grow with the size");
  expect(std::equal(low, low + k, high), "cost model is the same on every rank");
  expect(&rosched::mpi::cost_model(ci) == &model, "cost model is measured once per communicator");
}

// The degree of the node-aware broadcast's one-block tree against enumeration of its rule, on
// linear models: kary_depth(p, d) levels of d messages at once (their bytes shared at fanout 2,
// not at fanout 1) against what it would replace (here ceil(log2 p) rounds of one message).
void test_one_block_tree_degree() {
  namespace rm = rosched::mpi;
  rm::CostModel linear = rm::CostModel::linear(1e-6, 1e-10);  // alpha 1 us, 10 GB/s
  for (double fanout : {2.0, 1.0}) {
    linear.fanout = fanout;
    for (int procs : {3, 32, 36, 1152}) {
      for (double bytes : {4.0, 1024.0, 16384.0, 262144.0}) {
        int best = 1;
        int rounds = 0;
        for (long long reach = 1; reach < procs; reach *= 2) ++rounds;
        double best_cost = rounds * (1e-6 + 1e-10 * bytes);
        for (int d = 2; d <= std::min(procs - 1, 64); ++d) {
          int depth = 0;
          for (long long level = 1, have = 1; have < procs; have += level *= d) ++depth;
          const double fan = fanout > 1.5 ? d * bytes : bytes;
          const double cost = depth * (1e-6 + 1e-10 * fan);
          if (cost < best_cost) best = d, best_cost = cost;
        }
        const double circulant = rounds * (1e-6 + 1e-10 * bytes);
        const rm::OneBlockTree tree = rm::one_block_tree_for(linear, procs, bytes, circulant);
        const int got = tree.degree;
        expect(got == 1 ? tree.seconds == circulant : tree.seconds < circulant,
               "one-block tree: the predicted time of what runs");
        expect(got == best, "one-block tree degree, fanout " + std::to_string(fanout) + ", p=" +
                                std::to_string(procs) + ", " + std::to_string(bytes) +
                                " B: " + std::to_string(got) + ", want " + std::to_string(best));
      }
    }
  }
  // 4 B within a node whose messages have paths of their own: one level of p - 1 sends.
  linear.fanout = 1;
  expect(rm::one_block_tree_for(linear, 32, 4, 5e-6).degree == 31,
         "one-block tree: 32 ranks, one level");
  // 1 MiB where messages share the path: the circulant broadcast (one block) over any tree.
  linear.fanout = 2;
  expect(rm::one_block_tree_for(linear, 36, 1048576, 6 * (1e-6 + 1e-10 * 1048576)).degree == 1,
         "one-block tree: 1 MiB, none");
  // Above the model's largest measured size (1 MiB): none, whatever the estimate.
  linear.fanout = 1;
  expect(rm::one_block_tree_for(linear, 32, 2097152, 1.0).degree == 1,
         "one-block tree: not beyond the model's sizes");
  // Nothing faster than what it would replace: none.
  expect(rm::one_block_tree_for(linear, 32, 4, 0.5e-6).degree == 1, "one-block tree: not faster");
}

// The node layout behind Rosched_Bcast_node_aware with ROSCHED_NODE_SIZE = k, seen through
// what it must do: on sub-communicators of every size (ranks 0..s-1 of MPI_COMM_WORLD, so the
// last node is short), every root, the data arrives; and a sub-communicator freed and made
// again (the layout and its two communicators go with it) still works.
void test_bcast_node_layout(int k) {
  for (int s = 1; s <= p; ++s) {
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank < s ? 0 : MPI_UNDEFINED, rank, &sub);
    if (sub == MPI_COMM_NULL) continue;
    for (int again = 0; again < 2; ++again) {
      for (int root = 0; root < s; ++root) {
        std::vector<int> buf(1000, -1);
        if (rank == root) for (int i = 0; i < 1000; ++i) buf[i] = pattern(root, i);
        bool ok = Rosched_Bcast_node_aware(buf.data(), 1000, MPI_INT, root, sub) == MPI_SUCCESS;
        for (int i = 0; i < 1000 && ok; ++i) ok = buf[i] == pattern(root, i);
        expect(ok, "bcast node-aware, nodes of " + std::to_string(k) + ", communicator of " +
                       std::to_string(s) + " ranks, root=" + std::to_string(root));
      }
    }
    MPI_Comm_free(&sub);
  }
}

// Sums the results over the ranks, rank 0 prints "p=P[ mode]: N passed, M failed", finalizes;
// the exit status of main.
int finish(const std::string& mode) {
  long local[2] = {passed, failed}, total[2] = {0, 0};
  MPI_Reduce(local, total, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("p=%d%s%s: %ld passed, %ld failed\n", p, mode.empty() ? "" : " ", mode.c_str(),
                total[0], total[1]);
  }
  MPI_Finalize();
  return total[1] == 0 || rank != 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  // With --many-blocks: the broadcasts, reductions and Allgatherv with block-size factors F = 3,
  // so that the pipelines run many blocks (with the default F = 1000 most test messages are a single block).
  // The collectives read these variables once, at their first call: set them before it.
  // Also a window of 3 rounds in flight, so that the pipelined walks reuse their slots often.
  const bool many_blocks = argc > 1 && std::string(argv[1]) == "--many-blocks";
  // With --nodes=K: ranks in consecutive blocks of K form the nodes (ROSCHED_NODE_SIZE), and
  // only the broadcasts, Allgather(v) and the node-aware reduction run, with many blocks:
  // Rosched_Bcast_node_aware the node-aware broadcast, Rosched_Bcast its trial of it and its
  // variants against the library's (nodes of unequal sizes where K does not divide p: roots
  // whose node rank is missing on the last node go through lane 0).
  const std::string nodes = argc > 1 && std::string(argv[1]).rfind("--nodes=", 0) == 0
                                ? std::string(argv[1]).substr(8)
                                : "";
  // With --one-block: the allgathervs only, every contribution one block (ROSCHED_ALLGATHERV_G
  // so large that Algorithm 9 takes n = 1) and each round streamed in parts of 24 B
  // (ROSCHED_STREAM_PART), so that parts cut across the pieces of several roots in a round.
  const bool one_block = argc > 1 && std::string(argv[1]) == "--one-block";
  if (one_block) {
    setenv("ROSCHED_ALLGATHERV_G", "1e12", 1);
    setenv("ROSCHED_STREAM_PART", "24", 1);
  }
  if (!nodes.empty()) {
    setenv("ROSCHED_NODE_SIZE", nodes.c_str(), 1);
    setenv("ROSCHED_ALLGATHER", "rosched", 1);  // the node-aware all-gather, never the library's
    setenv("ROSCHED_REDUCE_SCATTER", "rosched", 1);  // the node-aware reduce-scatter likewise
    setenv("ROSCHED_BCAST_F", "3", 1);
    setenv("ROSCHED_WINDOW", "3", 1);
  }
  if (many_blocks) {
    for (const char* var : {"ROSCHED_BCAST_F", "ROSCHED_TWOTREE_F", "ROSCHED_HYPERCUBE_F",
                            "ROSCHED_KARY_F", "ROSCHED_ALLGATHERV_G"}) {
      setenv(var, "3", 1);
    }
    setenv("ROSCHED_WINDOW", "3", 1);
    setenv("ROSCHED_KARY_DEGREE", "3", 1);  // the k-ary tree with three children a rank
    setenv("ROSCHED_NWAY_N", "3", 1);  // and the n-way allreduce with n = 3 by default
    setenv("ROSCHED_REDUCE_PORTS", "3", 1);  // Rosched_Reduce's short vectors: a 4-nomial tree
    setenv("ROSCHED_REDUCE", "rosched", 1);  // and rosched's trees, never MPI_Reduce
    setenv("ROSCHED_ALLREDUCE", "rosched", 1);  // rosched's all-reduces (non-commutative too)
    setenv("ROSCHED_NWAY_RULE", "digits", 1);
    setenv("ROSCHED_STREAM_PART", "24", 1);  // all-gathers' rounds in parts of 24 B or one element
  }
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::pair<BcastFn, std::string> broadcasts[] = {
      {Rosched_Bcast, "bcast"},
      {Rosched_Bcast_circulant, "bcast circulant"},
      {Rosched_Bcast_node_aware, "bcast node-aware"},
      {Rosched_Bcast_two_tree, "bcast two-tree"},
      {Rosched_Bcast_hypercube, "bcast hypercube"},
      {Rosched_Bcast_kary_tree, "bcast k-ary tree"},
      {Rosched_Bcast_scatter_allgather, "bcast scatter + all-gather"}};
  if (!nodes.empty()) {
    for (const auto& [bcast, name] : broadcasts) {
      if (name != "bcast" && name != "bcast node-aware") continue;
      // Rosched_Bcast chooses (a trial at each size class's first call), in debug mode: the
      // trial checks every candidate's bytes (the node-aware broadcast, also with the scatter +
      // all-gather between the nodes, and the library's), every root, derived datatypes.
      if (name == "bcast") Rosched_Set_debug(1);
      test_bcast_ints(bcast, name);
      test_bcast_derived(bcast, name);
      Rosched_Set_debug(0);
      test_bcast_errors(bcast, name);
    }
    test_bcast_node_layout(std::atoi(nodes.c_str()));
    test_allgather();
    test_allgathervs();
    test_node_aware_reductions();
    test_checked_trials();  // the node-aware reductions among the trials' checked candidates
    test_reduce_scatters();  // node-aware on nodes of equal size (ROSCHED_REDUCE_SCATTER=rosched)
    test_choice_queries(false, std::atoi(nodes.c_str()));
    test_lower_bound();  // the node-aware algorithms
    test_loc_pairs();
    test_matching_signatures();
    return finish("nodes of " + nodes);
  }
  if (one_block) {
    test_allgathervs();
    return finish("one block");
  }
  test_cost_model();
  test_one_block_tree_degree();
  test_bcast_measured_choice();
  test_bcast_repeat();
  for (const auto& [bcast, name] : broadcasts) {
    test_bcast_ints(bcast, name);
    test_bcast_derived(bcast, name);
    if (!many_blocks) test_bcast_errors(bcast, name);
  }
  test_allgathervs();
  test_allgather_circulant();
  if (many_blocks) test_reduce_scatters();  // their rounds streamed in parts of 24 B
  test_choice_queries(many_blocks, 0);  // many blocks: ROSCHED_REDUCE=rosched
  if (!many_blocks) {
    test_allgather();
    test_allreduce();
    test_library_choices();
    test_allgather_choices();
    test_errors();
    test_error_handling();
    test_inter_communicators();
    test_alltoall();
    test_allmerge();
  }
  test_two_tree_reductions();
  test_node_aware_reductions();
  test_lower_bound();  // many blocks: the pipelines cut 1,000 elements into many
  test_loc_pairs();
  test_matching_signatures();
  test_nway_allreduce(!many_blocks);
  return finish(many_blocks ? "many blocks" : "");
}
