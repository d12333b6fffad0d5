// The interposer's counters and its report at MPI_Finalize (report.h).
#include "pmpi/report.h"

#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <vector>

namespace rosched::pmpi {
namespace {

constexpr int kCells = kCollectives * kRoutes;

// Per (collective, route): calls, bytes, nanoseconds. Atomic, so threads calling collectives
// at once (MPI_THREAD_MULTIPLE) count correctly.
std::atomic<long long> counters[3][kCells];

int cell(Collective c, Route r) { return static_cast<int>(c) * kRoutes + static_cast<int>(r); }

// 1536 -> "1.5 KiB".
std::string human_bytes(long long bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return text;
}

}  // namespace

void record(Collective c, Route r, std::int64_t bytes, double seconds) {
  const int i = cell(c, r);
  counters[0][i].fetch_add(1, std::memory_order_relaxed);
  if (bytes > 0) counters[1][i].fetch_add(bytes, std::memory_order_relaxed);
  counters[2][i].fetch_add(static_cast<long long>(seconds * 1e9), std::memory_order_relaxed);
}

void report(bool print, const std::string& tsv_path, const char* mode) {
  // The cells, then per collective this rank's totals (calls, bytes, nanoseconds, calls to
  // rosched): the table's totals are the maxima of the ranks' totals, not sums of the cells'
  // maxima, which count a call twice where ranks ran it differently (the groups of a split
  // communicator each deciding for themselves).
  constexpr int kTotals = 4;
  std::vector<long long> mine(3 * kCells + kTotals * kCollectives, 0), all(mine.size());
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < kCells; ++i) mine[k * kCells + i] = counters[k][i].load();
  }
  for (int ci = 0; ci < kCollectives; ++ci) {
    long long* total = &mine[3 * kCells + kTotals * ci];
    for (int ri = 0; ri < kRoutes; ++ri) {
      const int i = ci * kRoutes + ri;
      for (int k = 0; k < 3; ++k) total[k] += mine[k * kCells + i];
      if (static_cast<Route>(ri) != Route::kNative) total[3] += mine[i];
    }
  }
  int rank = 0, p = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &p);
  PMPI_Reduce(mine.data(), all.data(), static_cast<int>(mine.size()), MPI_LONG_LONG, MPI_MAX, 0,
              MPI_COMM_WORLD);
  if (rank != 0) return;
  auto at = [&](int k, Collective c, Route r) { return all[k * kCells + cell(c, r)]; };
  if (print) {
    std::fprintf(stderr,
                 "rosched_pmpi report: ROSCHED_PMPI=%s, %d ranks, maxima over ranks\n"
                 "%-20s %8s %12s %8s  %-34s %10s\n",
                 mode, p, "collective", "calls", "bytes", "rosched", "implementations (calls)",
                 "seconds");
  }
  std::FILE* tsv = nullptr;
  if (!tsv_path.empty()) {
    tsv = std::fopen(tsv_path.c_str(), "w");
    if (tsv == nullptr) {
      std::fprintf(stderr, "rosched_pmpi: cannot write ROSCHED_PMPI_REPORT_TSV=%s\n",
                   tsv_path.c_str());
    } else {
      std::fprintf(tsv, "collective\timplementation\tcalls\tbytes\tseconds\n");
    }
  }
  for (int ci = 0; ci < kCollectives; ++ci) {
    const auto c = static_cast<Collective>(ci);
    const long long* total = &all[3 * kCells + kTotals * ci];
    const long long calls = total[0], bytes = total[1], nanos = total[2], rosched = total[3];
    std::string used;
    for (int ri = 0; ri < kRoutes; ++ri) {
      const auto r = static_cast<Route>(ri);
      const long long n = at(0, c, r);
      if (n == 0) continue;
      used += std::string(used.empty() ? "" : ", ") + route_name(r) + " " + std::to_string(n);
      if (tsv != nullptr) {
        std::fprintf(tsv, "%s\t%s\t%lld\t%lld\t%.9f\n", collective_name(c), route_name(r), n,
                     at(1, c, r), at(2, c, r) * 1e-9);
      }
    }
    if (print && calls > 0) {
      std::fprintf(stderr, "%-20s %8lld %12s %8lld  %-34s %10.6f\n", collective_name(c), calls,
                   human_bytes(bytes).c_str(), rosched, used.c_str(), nanos * 1e-9);
    }
  }
  if (tsv != nullptr) std::fclose(tsv);
}

}  // namespace rosched::pmpi
