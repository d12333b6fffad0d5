// Rosched_Allreduce: the census all-reduce, Algorithm 8 of Träff 2022 (Sec. 2.3), walking
// sched/circulant/census_schedule.h: ceil(log2 p) rounds of one message of `count` elements, for
// commutative operations (predefined or user-defined) on small data. The neutral element of the
// paper is not needed: an empty partial result is tracked instead.
#include <cstring>
#include <string>

#include "mpi_exec/allgatherv_circulant.h"
#include "mpi_exec/args.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/tags.h"
#include "sched/circulant/census_schedule.h"

extern "C" int Rosched_Allreduce(const void* sendbuf, void* recvbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective("Rosched_Allreduce", comm, [&](const CommInfo& ci) {
    const int p = ci.p, rank = ci.rank;
    const MPI_Comm c = ci.c;
    const TypeInfo type =
        check_commutative_reduction(c, count, datatype, op, "the census all-reduce");
    const bool in_place = sendbuf == MPI_IN_PLACE;
    if (count == 0) return;
    // x: this rank's contribution (a copy when it lives in recvbuf, which is overwritten).
    ScratchBuffer own(type, count), partial(type, count), out(type, count), in(type, count);
    const std::size_t span = span_of(type, count);
    local_copy(in_place ? recvbuf : sendbuf, own.data(), count, datatype);
    bool have_partial = false;  // S is empty until the first receive
    const rosched::Skips& s = skips_of(p);
    for (int k = 0; k < s.q(); ++k) {
      const rosched::CensusRound round = rosched::census_round(s, rank, k);
      if (!round.send_includes_own && !have_partial) {
        throw Error(MPI_ERR_INTERN, "census round " + std::to_string(k) + " would send an empty value");
      }
      // O = x (+) S, or S alone.
      if (have_partial) std::memcpy(out.data(), partial.data(), span);
      if (round.send_includes_own) {
        if (have_partial) {
          check(PMPI_Reduce_local(own.data(), out.data(), count, datatype, op), "MPI_Reduce_local");
        } else {
          std::memcpy(out.data(), own.data(), span);
        }
      }
      check(PMPI_Sendrecv(out.data(), count, datatype, static_cast<int>(round.to),
                         tag::kCensusRound, in.data(), count, datatype,
                         static_cast<int>(round.from), tag::kCensusRound, c, MPI_STATUS_IGNORE),
            "MPI_Sendrecv");
      if (have_partial) {
        check(PMPI_Reduce_local(in.data(), partial.data(), count, datatype, op), "MPI_Reduce_local");
      } else {
        std::memcpy(partial.data(), in.data(), span);
        have_partial = true;
      }
    }
    // Result: x (+) S.
    if (have_partial) {
      check(PMPI_Reduce_local(own.data(), partial.data(), count, datatype, op), "MPI_Reduce_local");
      local_copy(partial.data(), recvbuf, count, datatype);
    } else if (!in_place) {
      local_copy(own.data(), recvbuf, count, datatype);
    }
  });
}
