// Rosched_Allgather: the regular circulant all-gather, Algorithm 7 of Träff 2022 (seeds/001
// Sec. 2.3), walking sched/allgather_schedule.h. In round k a rank sends the contributions of
// ranks r .. r + skips[k+1] - skips[k] - 1 (mod p) and receives those of ranks
// r + skips[k] .. r + skips[k+1] - 1, straight from and into the user's receive buffer (in MPI
// order: the contribution of rank j at block j), as one derived datatype of at most two pieces.
#include <climits>
#include <string>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/rosched_mpi.h"
#include "sched/circulant/allgather_schedule.h"

extern "C" int Rosched_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm) {
  using namespace rosched::mpi;
  constexpr int kTag = 7302;
  return run_collective("Rosched_Allgather", comm, [&] {
    const auto [p, rank] = comm_info(comm);
    const bool in_place = sendbuf == MPI_IN_PLACE;
    if (recvcount < 0 || (!in_place && sendcount < 0)) {
      throw Error(MPI_ERR_COUNT, "negative count");
    }
    const TypeInfo rtype = type_info(recvtype);
    if (static_cast<long long>(recvcount) * p > INT_MAX) {
      throw Error(MPI_ERR_COUNT, "p * recvcount = " + std::to_string(static_cast<long long>(recvcount) * p) +
                                     " elements exceed INT_MAX");
    }
    if (debug_checks()) {
      check_same_on_all(comm, static_cast<long long>(recvcount) * rtype.size, MPI_ERR_TRUNCATE,
                        "receive size in bytes (recvcount * type size)");
    }
    auto* base = static_cast<char*>(recvbuf);
    const MPI_Aint block_bytes = static_cast<MPI_Aint>(recvcount) * rtype.extent;
    if (!in_place) {
      const TypeInfo stype = type_info(sendtype);
      if (static_cast<long long>(sendcount) * stype.size != static_cast<long long>(recvcount) * rtype.size) {
        throw Error(MPI_ERR_TRUNCATE, "send size " + std::to_string(static_cast<long long>(sendcount) * stype.size) +
                                          " bytes differs from receive size " +
                                          std::to_string(static_cast<long long>(recvcount) * rtype.size));
      }
      check(MPI_Sendrecv(sendbuf, sendcount, sendtype, 0, kTag, base + rank * block_bytes,
                         recvcount, recvtype, 0, kTag, MPI_COMM_SELF, MPI_STATUS_IGNORE),
            "MPI_Sendrecv (own contribution)");
    }
    if (p == 1 || recvcount == 0 || rtype.size == 0) return;
    const rosched::Skips s(p);
    const MPI_Comm c = private_comm(comm);
    for (int k = 0; k < s.q(); ++k) {
      const rosched::AllgatherRound round = rosched::allgather_round(s, rank, k);
      const OwnedType send = cyclic_blocks(s.mod(rank + round.send_offset), round.send_count, p,
                                           recvcount, recvtype, rtype.extent);
      const OwnedType recv = cyclic_blocks(s.mod(rank + round.recv_offset), round.recv_count, p,
                                           recvcount, recvtype, rtype.extent);
      check(MPI_Sendrecv(base, 1, send.get(), static_cast<int>(round.to), kTag, base, 1, recv.get(),
                         static_cast<int>(round.from), kTag, c, MPI_STATUS_IGNORE),
            "MPI_Sendrecv");
    }
  });
}
