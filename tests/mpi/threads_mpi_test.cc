// The collectives from several threads at once (MPI_THREAD_MULTIPLE): each of four threads of
// every process calls them on a communicator of its own (MPI forbids concurrent collectives on
// one), their first calls together, so that the library's per-process state is made by several
// threads at once: the attribute keys, the private duplicate of MPI_COMM_SELF that local copies
// and the operation checks use, and each communicator's cache, cost model and timed trials.
// Every result is checked against its formula. Prints "threads p=N: ok" where every check on
// every rank passed.
#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "mpi_exec/rosched_mpi.h"

namespace {

constexpr int kThreads = 4;

int p = 1, rank = 0;
std::atomic<int> failures{0};
std::atomic<int> arrived{0};

void expect(bool ok, int thread, const std::string& what) {
  if (ok) return;
  failures.fetch_add(1);
  std::fprintf(stderr, "FAIL threads p=%d rank=%d thread=%d: %s\n", p, rank, thread, what.c_str());
}

// Element i of rank r's contribution in thread t.
int value(int r, int t, int i) { return 1000 * r + 100 * t + i % 97; }

// Every thread waits here until all have come: their next calls start together.
void all_threads_here(int round) {
  arrived.fetch_add(1);
  while (arrived.load() < kThreads * round) std::this_thread::yield();
}

void work(int t, MPI_Comm comm) {
  all_threads_here(1);
  // Together: the first call on each communicator (its cache, its cost model).
  int one = rank == 0 ? 5 : -1;
  expect(Rosched_Bcast(&one, 1, MPI_INT, 0, comm) == MPI_SUCCESS && one == 5, t, "first call");
  // Together again: the first local copies and operation checks (MPI_COMM_SELF's duplicate).
  all_threads_here(2);
  for (const int n : {1, 300, 20000}) {
    const std::string at = " (" + std::to_string(n) + " ints)";
    std::vector<int> mine(n), out(n, -1);
    for (int i = 0; i < n; ++i) mine[i] = value(rank, t, i);
    // In place: the library copies the input within the process (MPI_COMM_SELF's duplicate).
    out = mine;
    int rc = Rosched_Allreduce(MPI_IN_PLACE, out.data(), n, MPI_INT, MPI_SUM, comm);
    bool ok = rc == MPI_SUCCESS;
    for (int i = 0; i < n; ++i) {
      int sum = 0;
      for (int r = 0; r < p; ++r) sum += value(r, t, i);
      ok = ok && out[i] == sum;
    }
    expect(ok, t, "Rosched_Allreduce in place" + at);
    const int root = (t + n) % p;
    out = rank == root ? mine : std::vector<int>(n, -1);
    rc = Rosched_Bcast(out.data(), n, MPI_INT, root, comm);
    ok = rc == MPI_SUCCESS;
    for (int i = 0; i < n; ++i) ok = ok && out[i] == value(root, t, i);
    expect(ok, t, "Rosched_Bcast" + at);
    std::vector<int> all(static_cast<std::size_t>(n) * p, -1);
    rc = Rosched_Allgather(mine.data(), n, MPI_INT, all.data(), n, MPI_INT, comm);
    ok = rc == MPI_SUCCESS;
    for (int r = 0; r < p; ++r) {
      const int* block = all.data() + static_cast<std::size_t>(r) * n;
      for (int i = 0; i < n; ++i) ok = ok && block[i] == value(r, t, i);
    }
    expect(ok, t, "Rosched_Allgather" + at);
    std::fill(out.begin(), out.end(), -1);
    rc = Rosched_Reduce(mine.data(), out.data(), n, MPI_INT, MPI_MAX, root, comm);
    ok = rc == MPI_SUCCESS;
    for (int i = 0; rank == root && i < n; ++i) ok = ok && out[i] == value(p - 1, t, i);
    expect(ok, t, "Rosched_Reduce" + at);
    std::fill(out.begin(), out.end(), -1);
    rc = Rosched_Allreduce_nway(mine.data(), out.data(), n, MPI_INT, MPI_MIN, comm);
    ok = rc == MPI_SUCCESS;
    for (int i = 0; i < n; ++i) ok = ok && out[i] == value(0, t, i);
    expect(ok, t, "Rosched_Allreduce_nway" + at);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0) std::printf("threads p=%d: MPI_THREAD_MULTIPLE not provided\n", p);
    MPI_Finalize();
    return 1;
  }
  std::vector<MPI_Comm> comms(kThreads);
  for (MPI_Comm& c : comms) MPI_Comm_dup(MPI_COMM_WORLD, &c);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(work, t, comms[t]);
  for (std::thread& th : threads) th.join();
  for (MPI_Comm& c : comms) MPI_Comm_free(&c);
  int mine = failures.load(), all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) std::printf("threads p=%d: ok\n", p);
  if (rank == 0 && all != 0) std::printf("threads p=%d: %d checks failed\n", p, all);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
