#include "mpi_exec/bcast_rounds.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "sched/circulant/skips.h"

namespace rosched::mpi {

TypeInfo check_bcast_args(MPI_Comm comm, int count, MPI_Datatype datatype, int root, int p) {
  if (count < 0) throw Error(MPI_ERR_COUNT, "count " + std::to_string(count) + " is negative");
  if (root < 0 || root >= p) {
    throw Error(MPI_ERR_ROOT,
                "root " + std::to_string(root) + " is outside [0, " + std::to_string(p) + ")");
  }
  const TypeInfo type = type_info(datatype);
  if (debug_checks()) {
    check_same_on_all(comm, root, MPI_ERR_ROOT, "root");
    check_same_on_all(comm, static_cast<long long>(count) * type.size, MPI_ERR_TRUNCATE,
                      "message size in bytes (count * type size)");
  }
  return type;
}

std::int64_t block_count(std::int64_t count, std::int64_t elem_bytes, std::int64_t p,
                         const char* env_factor, double default_factor) {
  const char* env = std::getenv(env_factor);
  const double f = env && std::atof(env) > 0 ? std::atof(env) : default_factor;
  const double m = static_cast<double>(count) * static_cast<double>(elem_bytes);
  const double q = std::max(1, ceil_log2(p));
  const double block_bytes = std::max(1.0, f * std::sqrt(m / q));
  const auto n = static_cast<std::int64_t>(std::ceil(m / block_bytes));
  return std::clamp<std::int64_t>(n, 1, std::max<std::int64_t>(count, 1));
}

}  // namespace rosched::mpi
