// Rosched_Bcast: the n-block circulant broadcast, Algorithm 6 of Träff 2022 (seeds/001 Sec. 2.2),
// walking sched/bcast_schedule.h. Block size rule of Sec. 3.1: about F * sqrt(m / ceil(log2 p))
// bytes for a message of m bytes. F = 1000 by default: measured here (Open MPI 4.1 shared
// memory, p = 2, 4, 8, F from 25 to 3,200) F = 800..1,600 was best; the paper used 80..120 on
// a cluster. Set ROSCHED_BCAST_F to tune. Blocks are whole elements of the user's datatype.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/rosched_mpi.h"
#include "sched/bcast_schedule.h"

namespace rosched::mpi {
namespace {

constexpr int kTag = 7301;

double block_size_factor() {
  const char* env = std::getenv("ROSCHED_BCAST_F");
  const double f = env ? std::atof(env) : 0.0;
  return f > 0 ? f : 1000.0;
}

// Number of blocks for count elements of elem_bytes bytes each on p processes.
std::int64_t block_count(std::int64_t count, std::int64_t elem_bytes, std::int64_t p) {
  const double m = static_cast<double>(count) * static_cast<double>(elem_bytes);
  const double q = ceil_log2(p);
  const double block_bytes = std::max(1.0, block_size_factor() * std::sqrt(m / q));
  const auto n = static_cast<std::int64_t>(std::ceil(m / block_bytes));
  return std::clamp<std::int64_t>(n, 1, count);
}

}  // namespace
}  // namespace rosched::mpi

extern "C" int Rosched_Bcast(void* buffer, int count, MPI_Datatype datatype, int root,
                             MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective("Rosched_Bcast", comm, [&] {
    const auto [p, rank] = comm_info(comm);
    if (count < 0) throw Error(MPI_ERR_COUNT, "count " + std::to_string(count) + " is negative");
    if (root < 0 || root >= p) {
      throw Error(MPI_ERR_ROOT, "root " + std::to_string(root) + " is outside [0, " +
                                    std::to_string(p) + ")");
    }
    const TypeInfo type = type_info(datatype);
    if (debug_checks()) {
      check_same_on_all(comm, root, MPI_ERR_ROOT, "root");
      check_same_on_all(comm, static_cast<long long>(count) * type.size, MPI_ERR_TRUNCATE,
                        "message size in bytes (count * type size)");
    }
    if (p == 1 || count == 0 || type.size == 0) return;
    const std::int64_t n = block_count(count, type.size, p);
    const rosched::BcastSchedule schedule(p, n, rank, root);
    const MPI_Comm c = private_comm(comm);
    auto* base = static_cast<char*>(buffer);
    const auto first = [&](std::int64_t b) { return b * count / n; };  // first element of block b
    for (std::int64_t i = 0; i < schedule.rounds(); ++i) {
      const rosched::BcastRound round = schedule.round(i);
      void* send_at = base;
      void* recv_at = base;
      int send_count = 0, recv_count = 0, to = MPI_PROC_NULL, from = MPI_PROC_NULL;
      if (round.send) {
        send_at = base + first(round.send->block) * type.extent;
        send_count = static_cast<int>(first(round.send->block + 1) - first(round.send->block));
        to = static_cast<int>(round.send->peer);
      }
      if (round.recv) {
        recv_at = base + first(round.recv->block) * type.extent;
        recv_count = static_cast<int>(first(round.recv->block + 1) - first(round.recv->block));
        from = static_cast<int>(round.recv->peer);
      }
      check(MPI_Sendrecv(send_at, send_count, datatype, to, kTag, recv_at, recv_count, datatype,
                         from, kTag, c, MPI_STATUS_IGNORE),
            "MPI_Sendrecv");
    }
  });
}
