// Rosched_Allgatherv and the variants that force one algorithm: MPI_Allgatherv's argument
// rules, then the choice between the MPI library's MPI_Allgatherv and rosched's all-gathers
// (library_choice.h, as Rosched_Allgather's):
//  - rosched's first candidate is the node-aware all-gather where it applies
//    (allgatherv_node_aware.cc), else Algorithm 9 of Träff 2022, Sec. 2.4
//    (allgatherv_circulant.cc);
//  - where the largest block is at least half of the data, the second is the broadcast of that
//    block followed by Algorithm 9 for the others (allgatherv_largest.cc);
//  - for short results the third is the n-port all-gather (allgather_nway.h: ceil(log_{n+1} p)
//    rounds where Algorithm 9 with one block takes ceil(log2 p)), timed where its cost rule, on
//    the blocks' mean and largest sizes, expects it at least 10% faster than on one port.
// No prediction: Algorithm 9 moves no more data than the libraries' all-gathers and takes no
// more rounds, so only a trial tells; the first call of each size class of the total times the
// candidates. The decision's key is the result's size in bytes (blocks_units of it, the same on
// every rank whatever its receive type), kept apart for distributions with a dominant block
// (Decided::kAllgathervLargest) and for the others (Decided::kAllgatherv); two distributions of
// one total in the same group share an answer, which costs at most speed: every candidate is a
// correct all-gather of any distribution. rosched's all-gathers run on the result's bytes, the
// blocks in rank order (message_bytes.h, BlocksBytes: ranks may pass different datatypes of one
// type signature, and different displacements). ROSCHED_ALLGATHERV=native|rosched forces the
// library's or the first candidate. A call that repeats this thread's last call handed to the
// library, counts and all, goes straight to it (as LibraryRepeat's for the other collectives).
#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "mpi_exec/allgather_nway.h"
#include "mpi_exec/allgatherv_circulant.h"
#include "mpi_exec/args.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/last_run.h"
#include "mpi_exec/library_choice.h"
#include "mpi_exec/message_bytes.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/round_stream.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/trial_check.h"

namespace rosched::mpi {
namespace {

// What is checked: a call's arguments, or a query's (Rosched_Allgatherv_choice: recvcounts and
// recvtype alone).
enum class Check { kCall, kQuery };

// MPI_Allgatherv's argument rules (recvcounts entries >= 0, the send size equal to this rank's
// receive size); in debug mode also the same recvcounts on every rank, entry by entry, in bytes
// (recvcounts[j] * size of recvtype: ranks may receive in different datatypes). A query
// passes MPI_IN_PLACE and no displs.
TypeInfo check_allgatherv_args(const CommInfo& comm, const void* sendbuf, int sendcount,
                               MPI_Datatype sendtype, const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, Check what = Check::kCall) {
  Agreement agreement;
  agreement.same_entry_bytes("recvcounts", recvcounts, comm.p, recvtype, " * size of recvtype",
                             MPI_ERR_COUNT);
  return check_arguments(comm.c, agreement, [&] {
    if (!recvcounts) throw Error(MPI_ERR_ARG, "recvcounts is NULL");
    if (!displs && what == Check::kCall) throw Error(MPI_ERR_ARG, "displs is NULL");
    for (int j = 0; j < comm.p; ++j) {
      check_count_entry("recvcounts", j, recvcounts[j]);
    }
    const TypeInfo rtype = check_type("recvtype", recvtype);
    check_send_side(sendbuf, sendcount, sendtype,
                    static_cast<long long>(recvcounts[comm.rank]) * rtype.size, "recvcounts",
                    comm.rank);
    return rtype;
  });
}

// The entry points: Rosched_Allgatherv (kChoose), Rosched_Allgatherv_node_aware (kNodeAware:
// node-aware where it applies, else Algorithm 9), Rosched_Allgatherv_circulant (kFlat:
// Algorithm 9), Rosched_Allgatherv_largest (kLargest: allgatherv_largest.cc) and
// Rosched_Allgatherv_nway (kNway: the n-port all-gather).
enum class Entry { kChoose, kNodeAware, kFlat, kLargest, kNway };

// The recvcounts of this thread's last call handed to MPI_Allgatherv, which
// library_repeat(Decided::kAllgatherv) records (with 0 for the count: the counts are here).
// A call with the same communicator, receive type and counts (compared entry by entry: a
// program may change the array between calls) goes straight to the library
// (Rosched_Allgatherv): its counts passed the checks then, and its decision does not change.
thread_local std::vector<int> last_library_counts;

void remember_library_call(const CommInfo& ci, const int recvcounts[], MPI_Datatype recvtype) {
  LibraryRepeat& last = library_repeat(Decided::kAllgatherv);
  last.remember(ci, 0, recvtype, MPI_OP_NULL);
  if (last.match(ci.user, 0, recvtype, MPI_OP_NULL)) {
    last_library_counts.assign(recvcounts, recvcounts + ci.p);
  }
}

// Answers of the choice (0 is the library's MPI_Allgatherv; Rosched_Allgatherv_choice's).
enum Answer { kOurs = 1, kLargestBlock = 2, kNwayBlocks = 3 };

// What Rosched_Allgatherv runs for a distribution, the call's and its query's
// (Rosched_Allgatherv_choice): library_verdict's answer and candidate, and the key it is kept
// under: the answers of distributions whose largest block is at least half of the data (which
// have a third candidate) or the others', and the result's bytes as `count` units of `size`
// bytes (blocks_units).
struct AllgathervChoice {
  Verdict verdict = Verdict::kRosched;
  int candidate = kOurs;
  bool dominated = false;
  Decided which = Decided::kAllgatherv;
  int count = 0, size = 1;
  std::int64_t bytes = 0;
};

// The choice for checked counts; rosched's first candidate where there is nothing to choose
// (p = 1, no data), the library's where no unit counts the bytes in an int.
AllgathervChoice allgatherv_choice(const CommInfo& ci, const int recvcounts[],
                                   const TypeInfo& rtype) {
  AllgathervChoice c;
  c.bytes = blocks_bytes(recvcounts, ci.p, rtype.size);
  if (ci.p == 1 || c.bytes == 0) return c;
  const ByteUnits units = blocks_units(recvcounts, ci.p, rtype.size);
  if (!units.ok) {
    if (settings().allgatherv != Settings::Choice::kRosched) c.verdict = Verdict::kLibrary;
    return c;
  }
  c.count = units.count;
  c.size = units.info.size;
  c.dominated = largest_block_dominates(recvcounts, ci.p);
  c.which = c.dominated ? Decided::kAllgathervLargest : Decided::kAllgatherv;
  c.verdict = library_verdict(
      ci, c.which, settings().allgatherv, c.count, c.size, [] { return true; }, &c.candidate);
  return c;
}

int allgatherv_entry(const char* name, Entry entry, const void* sendbuf, int sendcount,
                     MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                     const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  return run_collective(name, comm, [&](const CommInfo& ci) {
    const TypeInfo rtype =
        check_allgatherv_args(ci, sendbuf, sendcount, sendtype, recvcounts, displs, recvtype);
    auto* base = static_cast<char*>(recvbuf);
    // The n-port all-gather's ports go by the blocks' mean and largest sizes: two passes over
    // recvcounts, made only where it may run.
    const auto sizes = [&] {
      return GatherBlocks{
          static_cast<double>(blocks_bytes(recvcounts, ci.p, rtype.size)) / ci.p,
          static_cast<double>(recvcounts[largest_block(recvcounts, ci.p)]) * rtype.size};
    };
    // Rosched's all-gather `e` (idempotent: a later run leaves what the first left); n: the
    // n-port all-gather's ports (kNway).
    const auto ours = [&](Entry e, int n = 0) {
      if (e == Entry::kNway) tell_nway_allgather(ci, name, n, sizes().mean * ci.p);
      if (sendbuf != MPI_IN_PLACE) {
        local_copy(sendbuf, sendcount, sendtype,
                   base + static_cast<MPI_Aint>(displs[ci.rank]) * rtype.extent,
                   recvcounts[ci.rank], recvtype);
      }
      const BlocksBytes blocks(base, ci.p, ci.rank, recvcounts, displs, recvtype, rtype);
      char* const data = static_cast<char*>(blocks.data());
      if (e == Entry::kNway) {
        if (ci.p > 1) {
          // The blocks one after the other in rank order (BlocksBytes).
          const std::vector<std::int64_t> starts = block_starts(blocks.counts(), ci.p);
          const BlockCut cut{starts[ci.p], ci.p, starts.data()};
          nway_allgather_on(
              ci, data, cut, blocks.type(), blocks.info(), n,
              round_stream_model(ci, static_cast<double>(cut.n) * blocks.info().size));
        }
      } else if (e == Entry::kLargest) {
        largest_bcast_allgatherv_on(ci, name, data, blocks.counts(), blocks.displs(), blocks.type(),
                                    blocks.info());
      } else if (e == Entry::kFlat ||
                 !node_aware_allgatherv_on(ci, name, data, blocks.counts(), blocks.displs(),
                                           blocks.type(), blocks.info())) {
        circulant_allgatherv_on(ci, name, data, blocks.counts(), blocks.displs(), blocks.type(),
                                blocks.info());
      }
      blocks.store();
    };
    if (entry != Entry::kChoose) {
      ours(entry, entry == Entry::kNway
                      ? nway_allgather_ports_to_run(ci, sizes(), NportRounds::kStreamed)
                      : 0);
      return;
    }
    const AllgathervChoice c = allgatherv_choice(ci, recvcounts, rtype);
    // The library's, with this rank's block put in place first where the send type is not the
    // receive type: Open MPI 4.1's MPI_Allgatherv sizes the result for its choice of algorithm
    // as the send type's size times recvcounts, so ranks whose types differ (a legal program)
    // chose different algorithms and hung.
    const auto library = [&] {
      const void* send = sendbuf;
      if (sendbuf != MPI_IN_PLACE && sendtype != recvtype) {
        local_copy(sendbuf, sendcount, sendtype,
                   base + static_cast<MPI_Aint>(displs[ci.rank]) * rtype.extent,
                   recvcounts[ci.rank], recvtype);
        send = MPI_IN_PLACE;
      }
      check_on(ci.user,
               PMPI_Allgatherv(send, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                               ci.user),
               "MPI_Allgatherv");
    };
    switch (c.verdict) {
      case Verdict::kLibrary:
        tell_choice(ci, name, "native MPI_Allgatherv", 0, 0, static_cast<double>(c.bytes));
        library();
        remember_library_call(ci, recvcounts, recvtype);
        set_last_run(Decided::kAllgatherv, 0);
        return;
      case Verdict::kTimeBoth: {
        // The candidates' places are their answers; one that does not apply is not timed.
        const int n = nway_allgather_ports(ci, sizes(), NportRounds::kStreamed);
        const std::string nway_name = nway_allgather_name(n);
        std::vector<Candidate> candidates = {{"native MPI_Allgatherv", library},
                                             {"rosched's", [&] { ours(Entry::kNodeAware); }},
                                             {"largest block's broadcast", nullptr},
                                             {nway_name.c_str(), nullptr}};
        if (c.dominated) candidates[kLargestBlock].run = [&] { ours(Entry::kLargest); };
        if (n > 0) candidates[kNwayBlocks].run = [&] { ours(Entry::kNway, n); };
        // ROSCHED_DEBUG: every candidate's blocks checked, but this rank's own where it is
        // their input (in place).
        std::vector<ResultPart> result;
        for (int j = 0; j < ci.p; ++j) {
          if (recvcounts[j] > 0 && (j != ci.rank || sendbuf != MPI_IN_PLACE)) {
            result.push_back(
                {base + static_cast<MPI_Aint>(displs[j]) * rtype.extent, recvcounts[j], recvtype});
          }
        }
        set_last_run(Decided::kAllgatherv, time_checked_choices(ci, name, c.which, c.count, c.size,
                                                                std::move(candidates), result));
        return;
      }
      case Verdict::kRosched:
        if (c.candidate == kNwayBlocks) {
          ours(Entry::kNway, nway_allgather_ports_to_run(ci, sizes(), NportRounds::kStreamed));
        } else {
          ours(c.candidate == kLargestBlock ? Entry::kLargest : Entry::kNodeAware);
        }
        set_last_run(Decided::kAllgatherv, c.candidate);
    }
  });
}

}  // namespace
}  // namespace rosched::mpi

extern "C" int Rosched_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void* recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm) {
  using namespace rosched::mpi;
  const LibraryRepeat& last = library_repeat(Decided::kAllgatherv);
  // A repeat of the last call handed to the library, or an inter-communicator: the library's.
  if ((last.match(comm, 0, recvtype, MPI_OP_NULL) && recvcounts != nullptr && displs != nullptr &&
       std::equal(last_library_counts.begin(), last_library_counts.end(), recvcounts) &&
       (sendbuf == MPI_IN_PLACE ||
        (sendtype == recvtype && sendcount == recvcounts[last.rank()]))) ||
      inter_communicator(comm)) {
    return library_ran(
        Decided::kAllgatherv, "Rosched_Allgatherv", comm,
        PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),
        "MPI_Allgatherv");
  }
  return rosched::mpi::allgatherv_entry("Rosched_Allgatherv", rosched::mpi::Entry::kChoose, sendbuf,
                                        sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                                        comm);
}

extern "C" int Rosched_Allgatherv_choice(MPI_Comm comm, const int recvcounts[],
                                         MPI_Datatype recvtype, int* algorithm) {
  using namespace rosched::mpi;
  if (inter_communicator(comm)) return library_answer("Rosched_Allgatherv_choice", comm, algorithm);
  return run_collective("Rosched_Allgatherv_choice", comm, [&](const CommInfo& ci) {
    if (algorithm == nullptr) throw Error(MPI_ERR_ARG, "algorithm is a null pointer");
    const TypeInfo rtype = check_allgatherv_args(ci, MPI_IN_PLACE, 0, recvtype, recvcounts, nullptr,
                                                 recvtype, Check::kQuery);
    const AllgathervChoice c = allgatherv_choice(ci, recvcounts, rtype);
    // 1 also where the next call times the candidates (kTimeBoth)
    *algorithm = c.verdict == Verdict::kLibrary   ? 0
                 : c.verdict == Verdict::kRosched ? c.candidate
                                                  : kOurs;
  });
}

extern "C" int Rosched_Allgatherv_node_aware(const void* sendbuf, int sendcount,
                                             MPI_Datatype sendtype, void* recvbuf,
                                             const int recvcounts[], const int displs[],
                                             MPI_Datatype recvtype, MPI_Comm comm) {
  return rosched::mpi::allgatherv_entry("Rosched_Allgatherv_node_aware",
                                        rosched::mpi::Entry::kNodeAware, sendbuf, sendcount,
                                        sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

extern "C" int Rosched_Allgatherv_circulant(const void* sendbuf, int sendcount,
                                            MPI_Datatype sendtype, void* recvbuf,
                                            const int recvcounts[], const int displs[],
                                            MPI_Datatype recvtype, MPI_Comm comm) {
  return rosched::mpi::allgatherv_entry("Rosched_Allgatherv_circulant", rosched::mpi::Entry::kFlat,
                                        sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                        recvtype, comm);
}

extern "C" int Rosched_Allgatherv_nway(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                       void* recvbuf, const int recvcounts[], const int displs[],
                                       MPI_Datatype recvtype, MPI_Comm comm) {
  return rosched::mpi::allgatherv_entry("Rosched_Allgatherv_nway", rosched::mpi::Entry::kNway,
                                        sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                        recvtype, comm);
}

extern "C" int Rosched_Allgatherv_largest(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                          void* recvbuf, const int recvcounts[], const int displs[],
                                          MPI_Datatype recvtype, MPI_Comm comm) {
  return rosched::mpi::allgatherv_entry("Rosched_Allgatherv_largest", rosched::mpi::Entry::kLargest,
                                        sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                        recvtype, comm);
}
