// Rosched_Allgather: the regular circulant all-gather, Algorithm 7 of Träff 2022 (Sec. 2.3),
// walked by circulant_rounds.h over sched/circulant/allgather_schedule.h. In round k a rank sends
// the contributions of ranks r .. r + skips[k+1] - skips[k] - 1 (mod p) and receives those of ranks
// r + skips[k] .. r + skips[k+1] - 1, straight from and into the user's receive buffer (in MPI
// order: the contribution of rank j at block j; a packed copy of it where the receive type has
// gaps: the rounds move bytes, message_bytes.h), as one derived datatype of at most two pieces.
// The pieces count units of the result in an int: where the result is more than INT_MAX bytes,
// units of a power of two bytes that divides each block and counts the result in an int (none:
// MPI_ERR_COUNT, or the library's MPI_Allgather for Rosched_Allgather).
// On several multicore nodes Rosched_Allgather is the node-aware all-gather of
// allgatherv_node_aware.cc instead (every block recvcount elements). Rosched_Allgather runs
// either, or, for short results, the n-port all-gather of allgather_nway.h (ceil(log_{n+1} p)
// rounds: Algorithm 7 on the skips of n ports), where it beats the MPI library's
// MPI_Allgather, else that (library_choice.h).
#include <algorithm>
#include <string>
#include <vector>

#include "mpi_exec/allgather_nway.h"
#include "mpi_exec/allgatherv_circulant.h"
#include "mpi_exec/args.h"
#include "mpi_exec/circulant_rounds.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/last_run.h"
#include "mpi_exec/library_choice.h"
#include "mpi_exec/message_bytes.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/round_stream.h"
#include "mpi_exec/trial_check.h"

namespace rosched::mpi {

namespace {

// MPI_Allgather's argument rules; returns the receive type.
TypeInfo check_allgather_args(const CommInfo& comm, const void* sendbuf, int sendcount,
                              MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype) {
  Agreement agreement;
  agreement.same_bytes("receive size in bytes (recvcount * size of recvtype)", recvcount,
                       recvtype, MPI_ERR_TRUNCATE);
  return check_arguments(comm.c, agreement, [&] {
    check_count("recvcount", recvcount);
    const TypeInfo rtype = check_type("recvtype", recvtype);
    check_send_side(sendbuf, sendcount, sendtype, static_cast<long long>(recvcount) * rtype.size,
                    "recvcount");
    return rtype;
  });
}

}  // namespace
}  // namespace rosched::mpi

namespace {

// The entry points: Rosched_Allgather and Rosched_Allgather_node_aware (node-aware on several
// multicore nodes whose ranks are consecutive: allgatherv_node_aware.cc, every block recvcount
// elements), Rosched_Allgather_circulant (Algorithm 7 over all ranks, always),
// Rosched_Allgather_nway (the n-port all-gather, always).
enum class Entry { kChoose, kNodeAware, kFlat, kNway };

// Rosched_Allgather_choice's answers: the library's, Algorithm 7 (or the node-aware
// all-gather), the n-port all-gather.
enum AllgatherAnswer { kAllgatherLibrary = 0, kAllgatherOwn = 1, kAllgatherNway = 2 };

// What Rosched_Allgather runs, the call's and its query's (Rosched_Allgather_choice), in its
// answers (kAllgatherOwn also where the call times the candidates; *timed says so): the
// library's collective where that is faster (library_choice.h); rosched's where there is nothing
// to choose (p = 1, an empty result).
int allgather_verdict(const rosched::mpi::CommInfo& ci, int recvcount,
                      const rosched::mpi::TypeInfo& rtype, bool* timed = nullptr) {
  using namespace rosched::mpi;
  if (timed) *timed = false;
  if (ci.p == 1 || recvcount == 0 || rtype.size == 0) return kAllgatherOwn;
  if (!message_units(recvcount, rtype, ci.p).ok &&
      settings().allgather != Settings::Choice::kRosched) {
    return kAllgatherLibrary;  // no unit counts the result in an int
  }
  int candidate = 1;
  const Verdict v = library_verdict(
      ci, Decided::kAllgather, settings().allgather, recvcount, rtype.size, [] { return true; },
      &candidate);
  if (v == Verdict::kLibrary) return kAllgatherLibrary;
  if (timed) *timed = v == Verdict::kTimeBoth;
  return v == Verdict::kRosched && candidate == kAllgatherNway ? kAllgatherNway : kAllgatherOwn;
}

int allgather(const char* name, Entry entry, const void* sendbuf, int sendcount,
              MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
              MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective(name, comm, [&](const CommInfo& ci) {
    const int p = ci.p, rank = ci.rank;
    const TypeInfo rtype =
        check_allgather_args(ci, sendbuf, sendcount, sendtype, recvcount, recvtype);
    auto* base = static_cast<char*>(recvbuf);
    const MPI_Aint block_bytes = static_cast<MPI_Aint>(recvcount) * rtype.extent;
    const double block_size = static_cast<double>(recvcount) * rtype.size;  // bytes
    const GatherBlocks blocks{block_size, block_size};  // the n-port all-gather's
    // This library's all-gathers (idempotent: a later run leaves what the first left): n = 0
    // Algorithm 7 or the node-aware one, else the n-port all-gather.
    const auto ours = [&](int n) {
      if (n > 0) tell_nway_allgather(ci, name, n, block_size * p);
      if (sendbuf != MPI_IN_PLACE) {
        local_copy(sendbuf, sendcount, sendtype, base + rank * block_bytes, recvcount, recvtype);
      }
      if (p == 1 || recvcount == 0 || rtype.size == 0) return;
      // On the result's bytes (message_bytes.h), with this rank's block in them.
      const MessageBytes result(base, recvcount, recvtype, rtype,
                                message_units(recvcount, rtype, p), false, p);
      auto* const data = static_cast<char*>(result.data());
      const int block = result.count() / p;
      if (data != base) {
        local_copy(base + rank * block_bytes, recvcount, recvtype,
                   data + static_cast<MPI_Aint>(rank) * block * result.info().size, block,
                   result.type());
      }
      const BlockCut cut{std::int64_t{block} * p, p};
      if (n > 0) {
        nway_allgather_on(ci, data, cut, result.type(), result.info(), n,
                          round_stream_model(ci, static_cast<double>(cut.n) * result.info().size));
      } else if (entry == Entry::kFlat ||
                 !node_aware_allgather_on(ci, name, data, block, result.type(), result.info())) {
        circulant_allgather_on(ci, data, cut, result.type(), result.info());
      }
      result.store();
    };
    if (entry == Entry::kNway) {
      ours(nway_allgather_ports_to_run(ci, blocks, NportRounds::kStreamed));
      return;
    }
    if (entry == Entry::kChoose) {
      const auto library = [&] {
        check_on(ci.user, PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                         recvtype, ci.user),
                 "MPI_Allgather");
      };
      bool timed = false;
      const int answer = allgather_verdict(ci, recvcount, rtype, &timed);
      if (answer == kAllgatherLibrary) {
        tell_choice(ci, name, "native MPI_Allgather", 0, 0, block_size * p);
        library();
        library_repeat(Decided::kAllgather).remember(ci, recvcount, recvtype, MPI_OP_NULL);
        set_last_run(Decided::kAllgather, kAllgatherLibrary);
        return;
      }
      if (timed) {
        // ROSCHED_DEBUG: every candidate's blocks checked, but this rank's own where it is
        // their input (in place).
        std::vector<ResultPart> result;
        for (int j = 0; j < p; ++j) {
          if (j != rank || sendbuf != MPI_IN_PLACE) {
            result.push_back({base + j * block_bytes, recvcount, recvtype});
          }
        }
        // The n-port all-gather only where its rule expects it at least 10% faster than
        // Algorithm 7 (short results: its rounds save latencies, not bytes).
        const int n = nway_allgather_ports(ci, blocks, NportRounds::kStreamed);
        const std::string nway_name = nway_allgather_name(n);
        std::vector<Candidate> candidates = {{"native MPI_Allgather", library},
                                             {"rosched's", [&] { ours(0); }},
                                             {nway_name.c_str(), nullptr}};
        if (n > 0) candidates[kAllgatherNway].run = [&] { ours(n); };
        // The candidates' places are their answers.
        set_last_run(Decided::kAllgather,
                     time_checked_choices(ci, name, Decided::kAllgather, recvcount, rtype.size,
                                          std::move(candidates), result));
        return;
      }
      if (answer == kAllgatherNway) {
        ours(nway_allgather_ports_to_run(ci, blocks, NportRounds::kStreamed));
        set_last_run(Decided::kAllgather, kAllgatherNway);
        return;
      }
    }
    ours(0);
    if (entry == Entry::kChoose) set_last_run(Decided::kAllgather, kAllgatherOwn);
  });
}

}  // namespace

extern "C" int Rosched_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm) {
  using namespace rosched::mpi;
  const LibraryRepeat& last = library_repeat(Decided::kAllgather);
  // A repeat of the last call handed to the library, or an inter-communicator: the library's.
  if (last.match_same_sides(comm, sendbuf, sendcount, sendtype, recvcount, recvtype) ||
      inter_communicator(comm)) {
    return library_ran(
        Decided::kAllgather, "Rosched_Allgather", comm,
        PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
        "MPI_Allgather");
  }
  return allgather("Rosched_Allgather", Entry::kChoose, sendbuf, sendcount, sendtype, recvbuf,
                   recvcount, recvtype, comm);
}

extern "C" int Rosched_Allgather_choice(MPI_Comm comm, int recvcount, MPI_Datatype recvtype,
                                        int* algorithm) {
  using namespace rosched::mpi;
  if (inter_communicator(comm)) return library_answer("Rosched_Allgather_choice", comm, algorithm);
  return run_collective("Rosched_Allgather_choice", comm, [&](const CommInfo& ci) {
    if (algorithm == nullptr) throw Error(MPI_ERR_ARG, "algorithm is a null pointer");
    const TypeInfo rtype = check_allgather_args(ci, MPI_IN_PLACE, 0, recvtype, recvcount, recvtype);
    *algorithm = allgather_verdict(ci, recvcount, rtype);
  });
}

extern "C" int Rosched_Allgather_node_aware(const void* sendbuf, int sendcount,
                                            MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                            MPI_Datatype recvtype, MPI_Comm comm) {
  return allgather("Rosched_Allgather_node_aware", Entry::kNodeAware, sendbuf, sendcount,
                   sendtype, recvbuf, recvcount, recvtype, comm);
}

extern "C" int Rosched_Allgather_nway(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                      void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                      MPI_Comm comm) {
  return allgather("Rosched_Allgather_nway", Entry::kNway, sendbuf, sendcount, sendtype, recvbuf,
                   recvcount, recvtype, comm);
}

extern "C" int Rosched_Allgather_circulant(const void* sendbuf, int sendcount,
                                           MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                           MPI_Datatype recvtype, MPI_Comm comm) {
  return allgather("Rosched_Allgather_circulant", Entry::kFlat, sendbuf, sendcount, sendtype,
                   recvbuf, recvcount, recvtype, comm);
}
