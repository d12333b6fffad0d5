// Rosched_Allgather and Rosched_Allgatherv with every algorithm they choose from, against
// their definitions (tests/mpi/collectives_mpi_test.cc runs them): counts with zeros, random
// sizes, one rank holding almost everything, MPI_IN_PLACE, receive types with gaps; the
// answers a trial stores and what the choice queries say.
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/last_run.h"
#include "mpi_exec/message_bytes.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/rosched_mpi.h"
#include "tests/mpi/mpi_test_util.h"

namespace rosched_mpi_test {
namespace {

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

// Counts the same on every rank: zeros, random sizes, or one rank holding almost everything.
std::vector<int> make_counts(int kind, unsigned seed) {
  std::vector<int> counts(p);
  unsigned state = seed * 2654435761u + 12345u;
  for (int j = 0; j < p; ++j) {
    state = state * 1103515245u + 12345u;
    const int r = static_cast<int>((state >> 8) % 2000);
    counts[j] = kind == 0   ? (r % 3 == 0 ? 0 : r)           // random, a third of them zero
                : kind == 1 ? (j == p / 2 ? 100000 : j % 2)  // one rank has almost everything
                : kind == 2 ? 0                              // nothing at all
                : kind == 3 ? (j % 3) * 17                   // the paper's m_r = (r mod 3) m
                : kind == 4 ? (j == p - 1 ? 5000 : 0)        // one rank has everything
                            : (j == 0 ? 3 * (p - 1) : 3);    // one rank has exactly half
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
  const int rc = fn(send.data(), counts[rank], MPI_INT, recv.data(), counts.data(), displs.data(),
                    resized, MPI_COMM_WORLD);
  bool ok = rc == MPI_SUCCESS;
  for (int j = 0; j < p && ok; ++j)
    for (int i = 0; i < counts[j] && ok; ++i)
      ok = recv[2 * (displs[j] + i)] == pattern(j, i) && recv[2 * (displs[j] + i) + 1] == -1;
  expect(ok, name + " into a resized (strided) type");
  MPI_Type_free(&resized);
  MPI_Type_free(&spaced);
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

}  // namespace

void test_allgather() {
  for (int count : {0, 1, 5, 1000}) {
    for (bool in_place : {false, true}) {
      std::vector<int> recv(static_cast<std::size_t>(count) * p + 1, -1);
      std::vector<int> send(count);
      for (int i = 0; i < count; ++i) send[i] = pattern(rank, i);
      if (in_place)
        for (int i = 0; i < count; ++i) recv[static_cast<std::size_t>(rank) * count + i] = send[i];
      const int rc = Rosched_Allgather(in_place ? MPI_IN_PLACE : send.data(), count, MPI_INT,
                                       recv.data(), count, MPI_INT, MPI_COMM_WORLD);
      bool ok = rc == MPI_SUCCESS && recv.back() == -1;
      for (int j = 0; j < p && ok; ++j)
        for (int i = 0; i < count && ok; ++i)
          ok = recv[static_cast<std::size_t>(j) * count + i] == pattern(j, i);
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

void test_allgathervs() {
  test_allgatherv("allgatherv", Rosched_Allgatherv);
  test_allgatherv("allgatherv circulant", Rosched_Allgatherv_circulant);
  // The node-aware one also with n = 2 set: the nodes' ranks 0 all-gather on 2 ports (on nodes of
  // several ranks, --nodes=K).
  for (int n : {0, 2}) {
    Rosched_Set_nway(n, nullptr);
    test_allgatherv(n == 0 ? "allgatherv node-aware" : "allgatherv node-aware, 2-port leaders",
                    Rosched_Allgatherv_node_aware);
  }
  Rosched_Set_nway(0, nullptr);
  test_allgatherv("allgatherv largest", Rosched_Allgatherv_largest);
  for (int n : {0, 2, 5}) {  // 0: the rule's (at least 2 ports)
    Rosched_Set_nway(n, nullptr);
    test_allgatherv("allgatherv " + std::to_string(n) + "-port", Rosched_Allgatherv_nway);
  }
  Rosched_Set_nway(0, nullptr);
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
      const std::string what = "allgatherv choice, " +
                               std::string(kind ? "99% on rank 0" : "equal") + ", total " +
                               std::to_string(total);
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

}  // namespace rosched_mpi_test
