// Rosched_Alltoall and Rosched_Alltoallv against MPI_Alltoall and MPI_Alltoallv, byte for byte,
// for every variant (forced through the _variant calls), the cost rule and the entry points' own
// choice (which may be the library's) and Rosched_Alltoall_choice: counts 0, 1, 3, 257,
// MPI_IN_PLACE, a receive datatype with gaps, random count matrices with zeros, one huge block,
// an empty row and column, scrambled displacements; bad input: negative counts, overlapping
// receive blocks, unknown variants, and (debug mode) a pair whose sizes differ: an error on
// every rank.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "mpi_exec/last_run.h"
#include "mpi_exec/rosched_mpi.h"
#include "tests/mpi/mpi_test_util.h"

namespace rosched_mpi_test {
namespace {

const char* const kUniform[] = {"auto", "basic", "modified", "zerorot", "zerocopy",
                                "padded", "twophase", "linear"};
const char* const kNonUniform[] = {"auto", "padded", "twophase", "linear"};

int value(int s, int d, int k) { return s * 100003 + d * 1009 + k + 1; }

void test_uniform() {
  for (const char* v : kUniform) {
    for (int count : {0, 1, 3, 257}) {
      std::vector<int> send(count * p), got(count * p + 2, -7), want(count * p + 2, -7);
      for (int d = 0; d < p; ++d)
        for (int k = 0; k < count; ++k) send[d * count + k] = value(rank, d, k);
      int rc = Rosched_Alltoall_variant(v, send.data(), count, MPI_INT, got.data(), count, MPI_INT,
                                        MPI_COMM_WORLD);
      MPI_Alltoall(send.data(), count, MPI_INT, want.data(), count, MPI_INT, MPI_COMM_WORLD);
      expect(rc == MPI_SUCCESS && got == want,
             std::string("alltoall ") + v + " count " + std::to_string(count));
      // In place.
      std::vector<int> inplace(send);
      inplace.resize(count * p + 2, -7);
      rc = Rosched_Alltoall_variant(v, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, inplace.data(), count,
                                    MPI_INT, MPI_COMM_WORLD);
      expect(rc == MPI_SUCCESS && inplace == want,
             std::string("alltoall in place ") + v + " count " + std::to_string(count));
    }
    // Receive type with gaps: every other int (a resized vector), 2 per block.
    MPI_Datatype gappy, strided;
    MPI_Type_vector(2, 1, 2, MPI_INT, &gappy);
    MPI_Type_create_resized(gappy, 0, 4 * sizeof(int), &strided);
    MPI_Type_commit(&strided);
    std::vector<int> send(2 * p), got(4 * p, -7), want(4 * p, -7);
    for (int d = 0; d < p; ++d) send[2 * d] = value(rank, d, 0), send[2 * d + 1] = value(rank, d, 1);
    const int rc = Rosched_Alltoall_variant(v, send.data(), 2, MPI_INT, got.data(), 1, strided,
                                            MPI_COMM_WORLD);
    MPI_Alltoall(send.data(), 2, MPI_INT, want.data(), 1, strided, MPI_COMM_WORLD);
    expect(rc == MPI_SUCCESS && got == want, std::string("alltoall strided recvtype ") + v);
    MPI_Type_free(&strided);
    MPI_Type_free(&gappy);
  }
  // The cost rule's own choice.
  std::vector<int> send(5 * p, rank), got(5 * p), want(5 * p);
  const int rc = Rosched_Alltoall(send.data(), 5, MPI_INT, got.data(), 5, MPI_INT, MPI_COMM_WORLD);
  MPI_Alltoall(send.data(), 5, MPI_INT, want.data(), 5, MPI_INT, MPI_COMM_WORLD);
  expect(rc == MPI_SUCCESS && got == want, "alltoall (cost rule)");
}

// counts[s * p + d], the same on every rank.
std::vector<int> matrix(int kind, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> c(p * p);
  for (int& x : c) x = kind == 1 ? 0 : static_cast<int>(rng() % 6);
  if (kind == 2) c[rng() % (p * p)] = 5000;  // one huge block
  if (kind == 3) {                           // an empty row and column
    const int row = static_cast<int>(rng() % p), col = static_cast<int>(rng() % p);
    for (int j = 0; j < p; ++j) c[row * p + j] = c[j * p + col] = 0;
  }
  return c;
}

// "" is Rosched_Alltoallv's own choice, twice over the matrices: the library's at p <= 3 (the
// second time through its repeat path), a timed first call per size class from p = 4.
const char* const kNonUniformCalls[] = {"", "", "auto", "padded", "twophase", "linear"};

int call_alltoallv(const char* v, const void* sendbuf, const int* scount, const int* sdispl,
                   MPI_Datatype stype, void* recvbuf, const int* rcount, const int* rdispl) {
  return *v ? Rosched_Alltoallv_variant(v, sendbuf, scount, sdispl, stype, recvbuf, rcount, rdispl,
                                        MPI_INT, MPI_COMM_WORLD)
            : Rosched_Alltoallv(sendbuf, scount, sdispl, stype, recvbuf, rcount, rdispl, MPI_INT,
                                MPI_COMM_WORLD);
}

void test_nonuniform() {
  std::uint64_t seed = 11;
  for (const char* v : kNonUniformCalls) {
    for (int kind = 0; kind < 4; ++kind) {
      const std::vector<int> c = matrix(kind, seed++);
      std::vector<int> scount(p), sdispl(p), rcount(p), rdispl(p);
      int stotal = 0, rtotal = 0;
      for (int d = p - 1; d >= 0; --d) {  // send blocks in reverse order with a gap each
        scount[d] = c[rank * p + d];
        sdispl[d] = stotal;
        stotal += scount[d] + 1;
      }
      for (int s = 0; s < p; ++s) {
        rcount[s] = c[s * p + rank];
        rdispl[s] = rtotal + 1;
        rtotal += rcount[s] + 2;
      }
      std::vector<int> send(stotal + 1, -1), got(rtotal + 1, -7), want(rtotal + 1, -7);
      for (int d = 0; d < p; ++d)
        for (int k = 0; k < scount[d]; ++k) send[sdispl[d] + k] = value(rank, d, k);
      const std::vector<int> send_before(send), scount_before(scount);
      int rc = call_alltoallv(v, send.data(), scount.data(), sdispl.data(), MPI_INT, got.data(),
                              rcount.data(), rdispl.data());
      MPI_Alltoallv(send.data(), scount.data(), sdispl.data(), MPI_INT, want.data(),
                    rcount.data(), rdispl.data(), MPI_INT, MPI_COMM_WORLD);
      const std::string what =
          std::string("alltoallv ") + (*v ? v : "(own choice)") + " matrix " + std::to_string(kind);
      expect(rc == MPI_SUCCESS && got == want, what);
      expect(send == send_before && scount == scount_before, what + ": send buffer and counts kept");
      std::vector<int> inplace(rtotal + 1, -7);
      for (int s = 0; s < p; ++s)  // in place: the data for s sits where s's block will land
        for (int k = 0; k < rcount[s]; ++k) inplace[rdispl[s] + k] = value(rank, s, k);
      // MPI_IN_PLACE needs symmetric counts: use the transpose-free case of a symmetric matrix.
      bool symmetric = true;
      for (int s = 0; s < p; ++s) symmetric &= c[s * p + rank] == c[rank * p + s];
      int all_symmetric = 0, mine = symmetric;
      MPI_Allreduce(&mine, &all_symmetric, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      if (all_symmetric) {
        std::vector<int> ref(inplace);
        rc = call_alltoallv(v, MPI_IN_PLACE, nullptr, nullptr, MPI_DATATYPE_NULL, inplace.data(),
                            rcount.data(), rdispl.data());
        MPI_Alltoallv(MPI_IN_PLACE, nullptr, nullptr, MPI_DATATYPE_NULL, ref.data(),
                      rcount.data(), rdispl.data(), MPI_INT, MPI_COMM_WORLD);
        expect(rc == MPI_SUCCESS && inplace == ref, what + " in place");
      }
    }
  }
}

// Rosched_Alltoall_choice says what Rosched_Alltoall runs: 1 before a size class's first call
// (that call times the library's against rosched's), after it one of 0 (the library's), 1 (the
// rule's exchange) or 2 (the linear exchange), the same on every rank and kept for the class;
// the timed call and the next deliver MPI_Alltoall's result. A fresh communicator, so that no
// call has decided yet. Bad arguments are errors.
void test_choice_query() {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  for (int count : {1, 300, 5000}) {
    const std::string what = "alltoall choice, count " + std::to_string(count);
    int answers[3] = {-1, -1, -1};
    std::vector<int> send(count * p), got(count * p), want(count * p);
    for (int d = 0; d < p; ++d)
      for (int k = 0; k < count; ++k) send[d * count + k] = value(rank, d, k);
    MPI_Alltoall(send.data(), count, MPI_INT, want.data(), count, MPI_INT, comm);
    for (int call = 0; call < 2; ++call) {
      expect(Rosched_Alltoall_choice(comm, count, MPI_INT, &answers[call]) == MPI_SUCCESS,
             what + ": query " + std::to_string(call));
      std::fill(got.begin(), got.end(), -7);
      expect(Rosched_Alltoall(send.data(), count, MPI_INT, got.data(), count, MPI_INT, comm) ==
                     MPI_SUCCESS &&
                 got == want,
             what + ": call " + std::to_string(call) + " equals MPI_Alltoall");
    }
    Rosched_Alltoall_choice(comm, count, MPI_INT, &answers[2]);
    for (const int a : answers) {
      expect(same_on_all(comm, a), what + ": the same answer on every rank");
      expect(a >= 0 && a <= 2, what + ": one of its answers (" + std::to_string(a) + ")");
    }
    expect(answers[0] == 1, what + ": 1 before the class's first call");
    expect(answers[1] == answers[2], what + ": the class's answer stands");
    // And it names what the second call ran (last_run: 0 the library's, 1 a Bruck
    // variant, 2 the linear exchange; the rule's exchange, answer 1, may be either of those).
    const int ran = rosched::mpi::last_run(rosched::mpi::Decided::kAlltoall);
    expect((answers[1] == 0) == (ran == 0) && (answers[1] != 2 || ran == 2),
           what + ": the answer " + std::to_string(answers[1]) + " is what ran (" +
               std::to_string(ran) + ")");
  }
  MPI_Comm_free(&comm);
  MPI_Comm bad = errors_return_comm();
  int answer = 0;
  expect(error_class(Rosched_Alltoall_choice(bad, 4, MPI_INT, nullptr)) == MPI_ERR_ARG,
         "alltoall choice: a null answer pointer is MPI_ERR_ARG");
  expect(error_class(Rosched_Alltoall_choice(bad, -1, MPI_INT, &answer)) == MPI_ERR_COUNT,
         "alltoall choice: a negative recvcount is MPI_ERR_COUNT");
  expect(error_class(Rosched_Alltoall_choice(bad, 4, MPI_DATATYPE_NULL, &answer)) == MPI_ERR_TYPE,
         "alltoall choice: MPI_DATATYPE_NULL is MPI_ERR_TYPE");
  MPI_Comm_free(&bad);
}

void test_bad_input() {
  MPI_Comm comm = errors_return_comm();
  std::vector<int> buf(8 * p + 8, 0), counts(p, 1), displs(p);
  for (int j = 0; j < p; ++j) displs[j] = j;
  int rc = Rosched_Alltoall(buf.data(), -1, MPI_INT, buf.data() + 2 * p, 1, MPI_INT, comm);
  expect(rc == MPI_ERR_COUNT, "alltoall: sendcount -1 is MPI_ERR_COUNT");
  rc = Rosched_Alltoall_variant("rotated", buf.data(), 1, MPI_INT, buf.data() + 2 * p, 1, MPI_INT,
                                comm);
  expect(rc == MPI_ERR_ARG, "alltoall: unknown variant is MPI_ERR_ARG");
  rc = Rosched_Alltoall_variant("zerocopy-printed", buf.data(), 1, MPI_INT, buf.data() + 2 * p, 1,
                                MPI_INT, comm);
  expect(rc == MPI_ERR_ARG, "alltoall: the rejected printed variant is refused");
  // A valid call first, so that at p <= 3 the bad ones take the library's repeat path.
  rc = Rosched_Alltoallv(buf.data(), counts.data(), displs.data(), MPI_INT, buf.data() + 2 * p,
                         counts.data(), displs.data(), MPI_INT, comm);
  expect(rc == MPI_SUCCESS, "alltoallv: a valid call before the bad ones");
  std::vector<int> neg(counts);
  neg[p - 1] = -2;
  rc = Rosched_Alltoallv(buf.data(), neg.data(), displs.data(), MPI_INT, buf.data() + 2 * p,
                         counts.data(), displs.data(), MPI_INT, comm);
  expect(rc == MPI_ERR_COUNT, "alltoallv: a negative sendcounts entry is MPI_ERR_COUNT");
  if (p > 1) {
    std::vector<int> overlap(displs);
    overlap[1] = 0;  // blocks from 0 and 1 at the same place
    rc = Rosched_Alltoallv(buf.data(), counts.data(), displs.data(), MPI_INT, buf.data() + 2 * p,
                           counts.data(), overlap.data(), MPI_INT, comm);
    expect(rc == MPI_ERR_ARG, "alltoallv: overlapping receive blocks are MPI_ERR_ARG");
    std::vector<int> after(displs);  // blocks out of rank order, block 1 inside block 0's span
    std::vector<int> two(p, 1);
    two[0] = 3;
    for (int j = 0; j < p; ++j) after[j] = 3 * (p - j);
    after[1] = after[0] + 1;
    rc = Rosched_Alltoallv(buf.data(), counts.data(), displs.data(), MPI_INT, buf.data() + 2 * p,
                           two.data(), after.data(), MPI_INT, comm);
    expect(rc == MPI_ERR_ARG,
           "alltoallv: a block inside another, out of rank order, is MPI_ERR_ARG");
  }
  rc = Rosched_Alltoallv_variant("zerorot", buf.data(), counts.data(), displs.data(), MPI_INT,
                                 buf.data() + 2 * p, counts.data(), displs.data(), MPI_INT, comm);
  expect(rc == MPI_ERR_ARG, "alltoallv: a uniform-only variant is MPI_ERR_ARG");
  if (p > 1) {
    // Debug mode: rank 1 asks for 2 ints from rank 0, which sends 1: an error on every rank.
    Rosched_Set_debug(1);
    for (const char* v : kNonUniform) {
      std::vector<int> r(counts);
      if (rank == 1) r[0] = 2;
      std::vector<int> rd(p);
      for (int j = 0; j < p; ++j) rd[j] = 2 * j;
      rc = Rosched_Alltoallv_variant(v, buf.data(), counts.data(), displs.data(), MPI_INT,
                                     buf.data() + 2 * p, r.data(), rd.data(), MPI_INT, comm);
      expect(rc == MPI_ERR_TRUNCATE, std::string("debug alltoallv ") + v +
                                         ": a pair's size mismatch is an error on every rank");
    }
    rc = Rosched_Alltoall(buf.data(), 1, MPI_INT, buf.data() + 2 * p, rank == 1 ? 2 : 1, MPI_INT, comm);
    expect(rc != MPI_SUCCESS, "debug alltoall: recvcount differing on rank 1: an error on every rank");
    Rosched_Set_debug(0);
  }
  MPI_Comm_free(&comm);
}

}  // namespace

void test_alltoall() {
  test_uniform();
  test_nonuniform();
  test_choice_query();
  test_bad_input();
}

}  // namespace rosched_mpi_test
