// The all-to-all operations of bench (mpi_exec/bench.cc): --op alltoall with m MPI_INT per
// block, and --op alltoallv whose block sizes (in MPI_INT, at most m) follow the distributions
// of Fan et al. 2022, Sec. 5: uniform in [0, m], power-law (m / (1 + k)^2 over a random
// permutation k of the destinations, so few large blocks), and normal (mean m / 2, sigma m / 6,
// clipped to [0, m]); the same size matrix on every rank (a fixed seed).
#ifndef ROSCHED_MPI_EXEC_BENCH_ALLTOALL_H_
#define ROSCHED_MPI_EXEC_BENCH_ALLTOALL_H_

#include <functional>
#include <string>

namespace rosched::mpi {

// One timed call with the implementation `impl` ("native": MPI_Alltoall(v); else a variant
// name for Rosched_Alltoall(v)_variant, "auto" for the cost rule); returns false if `check`
// found a wrong byte.
using AlltoallOp = std::function<bool(const std::string& impl, long m, bool check)>;

// Throws std::invalid_argument for an unknown distribution (uniform, powerlaw, normal).
AlltoallOp make_alltoall_op(bool vector, const std::string& dist);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_BENCH_ALLTOALL_H_
