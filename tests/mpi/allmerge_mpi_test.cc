// Rosched_Allmerge (Lang 2025, Algorithms 0-2 and the cost rule) under mpirun: random sorted
// blocks of random sizes (zeros, one huge block, keys duplicated across ranks), records whose
// ties must come out ordered by origin rank, identical bytes on every rank equal to a stable
// sort of the concatenation; MPI_IN_PLACE; the built-in merges of MPI_INT, MPI_LONG and
// MPI_DOUBLE; a vector datatype with gaps; the merge work (O(n) for Algorithms 1 and 2); the
// library's way (ROSCHED_ALLMERGE_LIBRARY); AUTO's timed choice with every candidate checked
// (debug mode) and its query (Rosched_Allmerge_choice); errors and, in debug mode, unsorted
// input and mismatched recvcounts as an error on every rank.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "mpi_exec/last_run.h"
#include "mpi_exec/rosched_mpi.h"
#include "tests/mpi/mpi_test_util.h"

namespace rosched_mpi_test {
namespace {

const int kAlgorithms[] = {ROSCHED_ALLMERGE_AUTO, ROSCHED_ALLMERGE_ALLGATHER,
                           ROSCHED_ALLMERGE_DISSEMINATION, ROSCHED_ALLMERGE_CIRCULANT,
                           ROSCHED_ALLMERGE_LIBRARY};

struct Record {
  int key, origin, index;
};

// The same pseudo-random numbers on every rank.
std::uint32_t next(std::uint32_t& s) {
  s = s * 1103515245u + 12345u;
  return s >> 8;
}

// Block sizes of trial t: random 0..30 with zeros, one rank with a huge block on some trials;
// equal blocks of 1,000 on trials 12 and 13.
std::vector<int> trial_counts(int t) {
  if (t == 12 || t == 13) return std::vector<int>(p, 1000);
  std::uint32_t s = 977u * t + 1;
  std::vector<int> counts(p);
  for (int j = 0; j < p; ++j) counts[j] = next(s) % 4 == 0 ? 0 : static_cast<int>(next(s) % 31);
  if (t % 3 == 1) counts[next(s) % p] = 20000;
  return counts;
}

// Rank j's sorted records: keys from a small range (duplicates within and across ranks).
std::vector<Record> block_of(int j, int t, int count) {
  std::uint32_t s = 7919u * t + 31u * j + 5;
  std::vector<Record> out(count);
  for (int i = 0; i < count; ++i) out[i] = {static_cast<int>(next(s) % 40), j, i};
  std::stable_sort(out.begin(), out.end(), [](const Record& a, const Record& b) { return a.key < b.key; });
  for (int i = 0; i < count; ++i) out[i].index = i;
  return out;
}

// A stable merge of records by key (a's first on ties); also used through a vector datatype
// with gaps, whose elements are {key, gap, origin, gap, index} (stride 5 ints, 3 of them data).
void merge_records(const void* a, int na, const void* b, int nb, void* out, MPI_Datatype,
                   void* state) {
  const int stride = *static_cast<int*>(state);  // ints per element
  const int* x = static_cast<const int*>(a);
  const int* y = static_cast<const int*>(b);
  int* o = static_cast<int*>(out);
  const auto put = [&](const int* from) {
    for (int k = 0; k < stride; k += (stride == 3 ? 1 : 2)) o[k] = from[k];
    o += stride;
  };
  int i = 0, j = 0;
  while (i < na && j < nb) {
    if (y[j * stride] < x[i * stride]) put(y + stride * j++);
    else put(x + stride * i++);
  }
  while (i < na) put(x + stride * i++);
  while (j < nb) put(y + stride * j++);
}

MPI_Datatype record_type() {
  MPI_Datatype t;
  MPI_Type_contiguous(3, MPI_INT, &t);
  MPI_Type_commit(&t);
  return t;
}

// The expected result: every block in rank order, stably sorted by key.
std::vector<Record> expected_records(int t, const std::vector<int>& counts) {
  std::vector<Record> all;
  for (int j = 0; j < p; ++j) {
    const std::vector<Record> b = block_of(j, t, counts[j]);
    all.insert(all.end(), b.begin(), b.end());
  }
  std::stable_sort(all.begin(), all.end(), [](const Record& a, const Record& b) { return a.key < b.key; });
  return all;
}

// Whether the bytes are the same on every rank (rank 0's, broadcast and compared).
bool same_everywhere(const void* data, std::size_t bytes) {
  std::vector<char> mine(static_cast<const char*>(data), static_cast<const char*>(data) + bytes);
  std::vector<char> root = mine;
  MPI_Bcast(root.data(), static_cast<int>(bytes), MPI_BYTE, 0, MPI_COMM_WORLD);
  int same = root == mine, all = 0;
  MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

bool equal_records(const std::vector<Record>& got, const std::vector<Record>& want) {
  if (got.size() != want.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i].key != want[i].key || got[i].origin != want[i].origin || got[i].index != want[i].index) return false;
  }
  return true;
}

// One call on records of trial t's block sizes: the stable sort of the concatenation, identical
// on every rank, nothing written past it.
void records_case(MPI_Comm comm, MPI_Datatype rec, int t, int algorithm, bool in_place,
                  const std::string& label) {
  int stride = 3;
  const std::vector<int> counts = trial_counts(t);
  const std::vector<Record> want = expected_records(t, counts);
  const std::vector<Record> mine = block_of(rank, t, counts[rank]);
  std::vector<Record> got(want.size() + 1, Record{-1, -1, -1});
  if (in_place) std::copy(mine.begin(), mine.end(), got.begin());
  const int rc = Rosched_Allmerge(in_place ? MPI_IN_PLACE : mine.data(), counts[rank], got.data(),
                                  counts.data(), rec, merge_records, &stride, comm, algorithm);
  const std::string what = label + " trial=" + std::to_string(t) +
                           " algorithm=" + std::to_string(algorithm) +
                           (in_place ? " in place" : "");
  expect(rc == MPI_SUCCESS, what + ": success");
  // A call told what to run records that (mpi_exec/last_run.h).
  if (algorithm != ROSCHED_ALLMERGE_AUTO) {
    expect(rosched::mpi::last_run(rosched::mpi::Decided::kAllmerge) == algorithm,
           what + ": recorded as run");
  }
  expect(got.back().key == -1, what + ": nothing written past the result");
  got.pop_back();
  expect(equal_records(got, want), what + ": stable sort of the concatenation");
  expect(same_everywhere(got.data(), got.size() * sizeof(Record)),
         what + ": identical on every rank");
}

void test_records() {
  MPI_Datatype rec = record_type();
  for (int t = 0; t < 6; ++t) {
    for (const int algorithm : kAlgorithms) {
      for (const bool in_place : {false, true}) {
        records_case(MPI_COMM_WORLD, rec, t, algorithm, in_place, "allmerge records");
      }
    }
  }
  MPI_Type_free(&rec);
}

// The built-in merges: ascending MPI_INT, MPI_LONG, MPI_DOUBLE.
template <typename T>
void test_builtin(MPI_Datatype type, const char* name) {
  for (int t = 0; t < 4; ++t) {
    const std::vector<int> counts = trial_counts(t + 10);
    std::vector<T> all;
    std::vector<T> mine;
    for (int j = 0; j < p; ++j) {
      for (const Record& r : block_of(j, t, counts[j])) {
        const T v = static_cast<T>(r.key) - static_cast<T>(j % 3) / 2;
        all.push_back(v);
        if (j == rank) mine.push_back(v);
      }
    }
    std::sort(mine.begin(), mine.end());
    std::sort(all.begin(), all.end());
    for (const int algorithm : kAlgorithms) {
      std::vector<T> got(all.size());
      const int rc = Rosched_Allmerge(mine.data(), counts[rank], got.data(), counts.data(), type,
                                      nullptr, nullptr, MPI_COMM_WORLD, algorithm);
      const std::string what = std::string("allmerge ") + name + " trial=" + std::to_string(t) +
                               " algorithm=" + std::to_string(algorithm);
      expect(rc == MPI_SUCCESS && got == all, what + ": equals sort(concat)");
      // Merge work: O(total) for Algorithms 1 and 2 with equal blocks (at most 3 n: Lang 2025's
      // m (2p - 1) at powers of two, up to 2.99 m p for Algorithm 1 otherwise). With skewed
      // blocks an element is written once per round and once at the end by Algorithm 2, and up
      // to twice per round (local and partial) by Algorithm 1; but a block with more than twice
      // the rest of the data (trial 10's huge one) is kept apart until the final merge
      // (mpi_exec/allmerge_layout.h) and written once.
      const long long moves = Rosched_Allmerge_moves();
      const long long total = static_cast<long long>(all.size());
      if (algorithm == ROSCHED_ALLMERGE_DISSEMINATION || algorithm == ROSCHED_ALLMERGE_CIRCULANT) {
        const bool equal = std::count(counts.begin(), counts.end(), counts[0]) == p;
        const int per_round = algorithm == ROSCHED_ALLMERGE_DISSEMINATION ? 2 : 1;
        const long long huge = *std::max_element(counts.begin(), counts.end());
        const long long rounds_bound = per_round * ceil_log2(p) + 1;
        const long long bound = equal                          ? 3 * total
                                : huge > 2 * (total - huge) ? huge + (total - huge) * rounds_bound
                                                               : total * rounds_bound;
        expect(moves <= bound, what + ": merge work " + std::to_string(moves) + " <= " + std::to_string(bound));
      }
      if (algorithm == ROSCHED_ALLMERGE_ALLGATHER) {
        expect(moves == total * ceil_log2(p) + counts[rank] + (p == 1 ? total : 0),
               what + ": merge work n ceil(log2 p) + own block, got " + std::to_string(moves));
      }
      if (algorithm == ROSCHED_ALLMERGE_LIBRARY) {  // the library's all-gather copies the blocks
        expect(moves == total * ceil_log2(p) + (p == 1 ? total : 0),
               what + ": merge work n ceil(log2 p), got " + std::to_string(moves));
      }
    }
  }
}

// Every block empty, and the one-element result of a single non-empty block.
void test_empty_blocks() {
  for (const int algorithm : kAlgorithms) {
    std::vector<int> counts(p, 0), out(2, -3);
    int rc = Rosched_Allmerge(nullptr, 0, out.data(), counts.data(), MPI_INT, nullptr, nullptr,
                              MPI_COMM_WORLD, algorithm);
    expect(rc == MPI_SUCCESS && out[0] == -3, "allmerge: all blocks empty, algorithm=" + std::to_string(algorithm));
    counts[p - 1] = 1;
    const int mine = 42;
    rc = Rosched_Allmerge(&mine, rank == p - 1 ? 1 : 0, out.data(), counts.data(), MPI_INT, nullptr,
                          nullptr, MPI_COMM_WORLD, algorithm);
    expect(rc == MPI_SUCCESS && out[0] == 42 && out[1] == -3,
           "allmerge: one element from the last rank, algorithm=" + std::to_string(algorithm));
  }
}

// A vector datatype with gaps: elements {key, gap, origin, gap, index}; gaps stay untouched.
void vector_type_case(MPI_Comm comm, int algorithm, const std::string& label) {
  MPI_Datatype vec;
  MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  int stride = 5;
  const std::vector<int> counts = trial_counts(4);
  const std::vector<Record> want = expected_records(4, counts);
  std::vector<int> send;
  for (const Record& r : block_of(rank, 4, counts[rank])) {
    send.insert(send.end(), {r.key, -5, r.origin, -5, r.index});
  }
  std::vector<int> got(5 * want.size(), -7);
  const int rc = Rosched_Allmerge(send.data(), counts[rank], got.data(), counts.data(), vec,
                                  merge_records, &stride, comm, algorithm);
  bool ok = rc == MPI_SUCCESS;
  for (std::size_t i = 0; i < want.size() && ok; ++i) {
    const int* e = &got[5 * i];
    ok = e[0] == want[i].key && e[2] == want[i].origin && e[4] == want[i].index && e[1] == -7 &&
         e[3] == -7;
  }
  expect(ok, label + ", algorithm=" + std::to_string(algorithm));
  MPI_Type_free(&vec);
}

void test_vector_type() {
  for (const int algorithm : kAlgorithms) {
    vector_type_case(MPI_COMM_WORLD, algorithm, "allmerge vector datatype with gaps");
  }
}

// ROSCHED_ALLMERGE_AUTO's trial in debug mode, on a communicator of its own so that the first
// call of every size class is a trial again: each candidate (the library's MPI_Allgatherv and
// merge tree, Algorithms 0-2) is checked by the trial against the library's result
// (mpi_exec/trial_check.h), in place too, where the trial works on a copy of the block since
// every candidate overwrites recvbuf; and the call's result is the stable sort. A repeat of each
// call then runs the class's winner alone.
void test_auto_trial_debug() {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Datatype rec = record_type();
  Rosched_Set_debug(1);
  for (int t = 0; t < 6; ++t) {
    for (const bool in_place : {true, false}) {
      records_case(comm, rec, t, ROSCHED_ALLMERGE_AUTO, in_place, "allmerge auto trial (debug)");
    }
  }
  vector_type_case(comm, ROSCHED_ALLMERGE_AUTO, "allmerge auto trial (debug), gaps");
  Rosched_Set_debug(0);
  for (int t = 0; t < 6; ++t) {
    records_case(comm, rec, t, ROSCHED_ALLMERGE_AUTO, t % 2 == 0, "allmerge auto after its trial");
  }
  MPI_Type_free(&rec);
  MPI_Comm_free(&comm);
}

// Rosched_Allmerge_choice says what AUTO runs: one of the four, the same on every rank; before
// a size class's first call the cost rule's algorithm (that call times the candidates: its merge
// work counts every candidate's runs, more than a later call of the class, which runs the
// winner alone); after it the answer the call stored. A distribution where one block is at least
// half of the result is decided apart from equal blocks of the same total: its first call is a
// trial again (p >= 3: at p <= 2 one block is always at least half). Bad arguments are errors.
// A fresh communicator, so that no call has decided yet.
void test_auto_choice_query() {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const int rule = (p & (p - 1)) == 0 ? ROSCHED_ALLMERGE_DISSEMINATION : ROSCHED_ALLMERGE_CIRCULANT;
  const int total = 1000 * p;
  for (const bool dominated : {false, true}) {
    if (dominated && p <= 2) break;
    std::vector<int> counts(p, 1000);
    if (dominated) {
      counts.assign(p, 10);
      counts[p - 1] = total - 10 * (p - 1);
    }
    const std::string what = std::string("allmerge choice, ") +
                             (dominated ? "one block of " : "equal, ") +
                             std::to_string(counts[p - 1]) + " of " + std::to_string(total);
    std::vector<int> mine(counts[rank]), all, got(total);
    for (int j = 0; j < p; ++j) {
      for (int i = 0; i < counts[j]; ++i) all.push_back(pattern(j, i) % 997);
    }
    std::sort(all.begin(), all.end());
    for (int i = 0; i < counts[rank]; ++i) mine[i] = pattern(rank, i) % 997;
    std::sort(mine.begin(), mine.end());
    long long moves[2] = {0, 0};
    int answers[3] = {-2, -2, -2}, ran[2] = {-2, -2};
    for (int call = 0; call < 2; ++call) {
      expect(Rosched_Allmerge_choice(comm, counts.data(), MPI_INT, &answers[call]) == MPI_SUCCESS,
             what + ": query " + std::to_string(call));
      std::fill(got.begin(), got.end(), -1);
      expect(Rosched_Allmerge(mine.data(), counts[rank], got.data(), counts.data(), MPI_INT,
                              nullptr, nullptr, comm, ROSCHED_ALLMERGE_AUTO) == MPI_SUCCESS &&
                 got == all,
             what + ": call " + std::to_string(call) + " equals sort(concat)");
      moves[call] = Rosched_Allmerge_moves();
      ran[call] = rosched::mpi::last_run(rosched::mpi::Decided::kAllmerge);
    }
    Rosched_Allmerge_choice(comm, counts.data(), MPI_INT, &answers[2]);
    // What each call ran (mpi_exec/last_run.h): the trial's winner, then the class's answer,
    // both what the query after the call answers.
    for (int call = 0; call < 2; ++call) {
      expect(ran[call] == answers[call + 1], what + ": call " + std::to_string(call) +
                                                 " ran what the query after it answers (ran " +
                                                 std::to_string(ran[call]) + ", answer " +
                                                 std::to_string(answers[call + 1]) + ")");
    }
    for (const int a : answers) {
      expect(same_on_all(comm, a), what + ": the same answer on every rank");
      expect(a >= ROSCHED_ALLMERGE_ALLGATHER && a <= ROSCHED_ALLMERGE_LIBRARY,
             what + ": one of the four (" + std::to_string(a) + ")");
    }
    expect(answers[0] == rule, what + ": the rule's algorithm before the class's first call");
    expect(answers[1] == answers[2], what + ": the class's answer stands");
    if (p > 1) {  // at p = 1 nothing is timed
      expect(moves[0] > moves[1], what + ": the first call is a trial (merge work " +
                                      std::to_string(moves[0]) + " against " +
                                      std::to_string(moves[1]) + ")");
    }
  }
  MPI_Comm_free(&comm);
  MPI_Comm bad = errors_return_comm();
  std::vector<int> counts(p, 1);
  int answer = 0;
  expect(error_class(Rosched_Allmerge_choice(bad, counts.data(), MPI_INT, nullptr)) == MPI_ERR_ARG,
         "allmerge choice: a null answer pointer is MPI_ERR_ARG");
  expect(error_class(Rosched_Allmerge_choice(bad, nullptr, MPI_INT, &answer)) == MPI_ERR_ARG,
         "allmerge choice: recvcounts NULL is MPI_ERR_ARG");
  counts[0] = -1;
  expect(
      error_class(Rosched_Allmerge_choice(bad, counts.data(), MPI_INT, &answer)) == MPI_ERR_COUNT,
      "allmerge choice: a negative count is MPI_ERR_COUNT");
  MPI_Comm_free(&bad);
}

void test_allmerge_errors() {
  MPI_Comm comm = errors_return_comm();
  std::vector<int> counts(p, 2), in(2, 0), out(2 * p);
  in[1] = 1;
  float f[2] = {0, 1}, fo[64];
  std::vector<int> fcounts(p, 2);
  expect(error_class(Rosched_Allmerge(f, 2, fo, fcounts.data(), MPI_FLOAT, nullptr, nullptr, comm,
                                      ROSCHED_ALLMERGE_AUTO)) == MPI_ERR_OP,
         "allmerge: no built-in merge for MPI_FLOAT is MPI_ERR_OP");
  expect(error_class(Rosched_Allmerge(in.data(), 2, out.data(), counts.data(), MPI_INT, nullptr,
                                      nullptr, comm, 7)) == MPI_ERR_ARG,
         "allmerge: algorithm 7 is MPI_ERR_ARG");
  expect(error_class(Rosched_Allmerge(in.data(), 1, out.data(), counts.data(), MPI_INT, nullptr,
                                      nullptr, comm, 2)) == MPI_ERR_TRUNCATE,
         "allmerge: sendcount differing from recvcounts[rank] is MPI_ERR_TRUNCATE");
  expect(error_class(Rosched_Allmerge(in.data(), 2, out.data(), nullptr, MPI_INT, nullptr, nullptr,
                                      comm, 2)) == MPI_ERR_ARG,
         "allmerge: recvcounts NULL is MPI_ERR_ARG");
  // Debug mode: unsorted input on the last rank and mismatched recvcounts fail on every rank.
  Rosched_Set_debug(1);
  for (const int algorithm : {0, 1, 2, 3}) {
    std::vector<int> bad = in;
    if (rank == p - 1) bad = {1, 0};
    const int rc = Rosched_Allmerge(bad.data(), 2, out.data(), counts.data(), MPI_INT, nullptr,
                                    nullptr, comm, algorithm);
    expect(error_class(rc) == MPI_ERR_ARG, "allmerge debug: unsorted block on rank p-1 is an error here too");
    std::vector<int> mismatched = counts;
    if (rank == 0) mismatched[p - 1] = 3;
    const int rc2 = Rosched_Allmerge(in.data(), 2, out.data(), mismatched.data(), MPI_INT, nullptr,
                                     nullptr, comm, algorithm);
    expect(p == 1 || error_class(rc2) == MPI_ERR_COUNT || error_class(rc2) == MPI_ERR_TRUNCATE,
           "allmerge debug: recvcounts differing between ranks fail on every rank");
    int stride = 3;
    std::vector<Record> rec_in = {{2, rank, 0}, {rank == 0 ? 1 : 3, rank, 1}}, rec_out(2 * p);
    MPI_Datatype rec = record_type();
    const int rc3 = Rosched_Allmerge(rec_in.data(), 2, rec_out.data(), counts.data(), rec,
                                     merge_records, &stride, comm, algorithm);
    expect(error_class(rc3) == MPI_ERR_ARG, "allmerge debug: unsorted records (user merge) on rank 0 fail everywhere");
    MPI_Type_free(&rec);
  }
  Rosched_Set_debug(0);
  MPI_Comm_free(&comm);
}

}  // namespace

void test_allmerge() {
  test_records();
  test_builtin<int>(MPI_INT, "MPI_INT");
  test_builtin<long>(MPI_LONG, "MPI_LONG");
  test_builtin<double>(MPI_DOUBLE, "MPI_DOUBLE");
  test_vector_type();
  test_auto_trial_debug();
  test_auto_choice_query();
  test_empty_blocks();
  test_allmerge_errors();
}

}  // namespace rosched_mpi_test
