#include "mpi_exec/bench_alltoall.h"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "mpi_exec/bench_buffers.h"
#include "mpi_exec/rosched_mpi.h"

namespace rosched::mpi {
namespace {

int value(int s, int d, long k) { return s * 7919 + d * 31 + static_cast<int>(k); }

// counts[s * p + d] in MPI_INT.
std::vector<int> size_matrix(int p, long m, const std::string& dist) {
  std::mt19937_64 rng(12345);
  std::vector<int> c(static_cast<std::size_t>(p) * p);
  std::normal_distribution<double> normal(m / 2.0, m / 6.0);
  for (int s = 0; s < p; ++s) {
    std::vector<int> order(p);
    for (int d = 0; d < p; ++d) order[d] = d;
    std::shuffle(order.begin(), order.end(), rng);
    for (int d = 0; d < p; ++d) {
      double x;
      if (dist == "uniform") x = static_cast<double>(rng() % static_cast<unsigned long>(m + 1));
      else if (dist == "powerlaw") x = m / std::pow(1.0 + order[d], 2.0);
      else x = std::clamp(normal(rng), 0.0, static_cast<double>(m));
      c[static_cast<std::size_t>(s) * p + d] = static_cast<int>(x);
    }
  }
  return c;
}

}  // namespace

AlltoallOp make_alltoall_op(bool vector, const std::string& dist) {
  if (vector && dist != "uniform" && dist != "powerlaw" && dist != "normal") {
    throw std::invalid_argument("--dist for alltoallv must be uniform, powerlaw or normal, not " +
                                dist);
  }
  return [vector, dist](const std::string& impl, long m, bool check) {
    int p = 1, rank = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::vector<int> sc(p, static_cast<int>(m)), rc(p, static_cast<int>(m)), sd(p), rd(p);
    if (vector) {
      const std::vector<int> c = size_matrix(p, m, dist);
      for (int j = 0; j < p; ++j) sc[j] = c[rank * p + j], rc[j] = c[j * p + rank];
    }
    for (int j = 1; j < p; ++j) sd[j] = sd[j - 1] + sc[j - 1], rd[j] = rd[j - 1] + rc[j - 1];
    bench::CallBuffer send(0, sd[p - 1] + sc[p - 1] + 1, false),
        recv(1, rd[p - 1] + rc[p - 1] + 1, check);
    if (send.made() || check) {
      for (int d = 0; d < p; ++d)
        for (long k = 0; k < sc[d]; ++k) send[sd[d] + k] = value(rank, d, k);
    }
    // native: the library's; auto: the entry point (Rosched_Alltoall also chooses the library's
    // where that is faster, since 2026-12-01); a variant's name: that variant, forced.
    const bool native = impl == "native", entry = impl == "auto";
    int rcode;
    if (vector) {
      rcode = native  ? MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_INT, recv.data(),
                                      rc.data(), rd.data(), MPI_INT, MPI_COMM_WORLD)
              : entry ? Rosched_Alltoallv(send.data(), sc.data(), sd.data(), MPI_INT, recv.data(),
                                          rc.data(), rd.data(), MPI_INT, MPI_COMM_WORLD)
                      : Rosched_Alltoallv_variant(impl.c_str(), send.data(), sc.data(), sd.data(),
                                                  MPI_INT, recv.data(), rc.data(), rd.data(),
                                                  MPI_INT, MPI_COMM_WORLD);
    } else {
      const int n = static_cast<int>(m);
      rcode =
          native ? MPI_Alltoall(send.data(), n, MPI_INT, recv.data(), n, MPI_INT, MPI_COMM_WORLD)
          : entry
              ? Rosched_Alltoall(send.data(), n, MPI_INT, recv.data(), n, MPI_INT, MPI_COMM_WORLD)
              : Rosched_Alltoall_variant(impl.c_str(), send.data(), n, MPI_INT, recv.data(), n,
                                         MPI_INT, MPI_COMM_WORLD);
    }
    if (!check) return true;
    if (rcode != MPI_SUCCESS) return false;
    for (int s = 0; s < p; ++s)
      for (long k = 0; k < rc[s]; ++k)
        if (recv[rd[s] + k] != value(s, rank, k)) return false;
    return true;
  };
}

}  // namespace rosched::mpi
