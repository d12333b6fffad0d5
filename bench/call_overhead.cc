// call_overhead: what one call of a collective on one int costs, back to back, for the calls a
// program makes (MPI_Bcast, MPI_Allreduce: the MPI library's, or the interposer's when
// librosched_pmpi.so is preloaded) and rosched's entry points called directly (Rosched_Bcast,
// Rosched_Allreduce). Short calls are where a layer's own per-call work shows: at p = 2 a
// broadcast of 4 bytes takes about 60 ns over shared memory.
//
//   mpirun -np 2 [-x LD_PRELOAD=$PWD/bazel-bin/pmpi/librosched_pmpi.so -x ROSCHED_PMPI=auto] \
//     bazel-bin/bench/call_overhead [--calls N] [--trials T]
//
// Prints a TSV on rank 0: call, p, ns per call (the shortest of T trials of N calls each).
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "mpi_exec/rosched_mpi.h"

namespace {

void usage(std::FILE* to) {
  std::fprintf(
      to,
      "usage: call_overhead [--calls N] [--trials T]\n"
      "  Times N back-to-back calls of MPI_Bcast, MPI_Allreduce, Rosched_Bcast and\n"
      "  Rosched_Allreduce on one int of MPI_COMM_WORLD, T times each (defaults 1000000\n"
      "  and 5), and prints on rank 0 a TSV: call, p, ns per call (the shortest trial).\n"
      "  Run under mpirun; preload librosched_pmpi.so to time the interposer's MPI_ calls.\n");
}

// Parses a positive count; 0 where it is not one.
long positive(const char* text) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  return end != text && *end == '\0' && v > 0 ? v : 0;
}

}  // namespace

int main(int argc, char** argv) {
  long calls = 1000000, trials = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      usage(stdout);
      return 0;
    }
    long* into = a == "--calls" ? &calls : a == "--trials" ? &trials : nullptr;
    if (into == nullptr || i + 1 == argc || (*into = positive(argv[++i])) == 0) {
      std::fprintf(stderr, "call_overhead: bad argument '%s'\n", a.c_str());
      usage(stderr);
      return 2;
    }
  }
  MPI_Init(&argc, &argv);
  int p = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int x = 1, y = 0, failures = 0;
  const char* names[] = {"MPI_Bcast", "MPI_Allreduce", "Rosched_Bcast", "Rosched_Allreduce"};
  if (rank == 0) std::printf("call\tp\tns\n");
  for (int which = 0; which < 4; ++which) {
    double best = 1e300;
    for (long t = 0; t < trials; ++t) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      for (long i = 0; i < calls; ++i) {
        int rc = MPI_SUCCESS;
        switch (which) {
          case 0:
            rc = MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
            break;
          case 1:
            rc = MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            break;
          case 2:
            rc = Rosched_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
            break;
          default:
            rc = Rosched_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        }
        failures += rc != MPI_SUCCESS;
      }
      best = std::min(best, MPI_Wtime() - start);
    }
    MPI_Allreduce(MPI_IN_PLACE, &best, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) std::printf("%s\t%d\t%.2f\n", names[which], p, best / calls * 1e9);
  }
  // Every call broadcast 1 and summed p ones.
  const bool right = x == 1 && y == p && failures == 0;
  int wrong = right ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && wrong)
    std::fprintf(stderr, "call_overhead: a call failed or gave a wrong value\n");
  MPI_Finalize();
  return wrong ? 1 : 0;
}
