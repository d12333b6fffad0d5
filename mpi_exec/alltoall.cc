// Rosched_Alltoall: MPI_Alltoall (MPI 3.1, Sec. 5.8) over the Bruck all-to-all variants of
// sched/bruck/ (Fan et al. 2022) or a linear pairwise exchange, chosen by the cost rule of
// alltoall_bruck.h, by the argument `variant` of Rosched_Alltoall_variant, or by
// ROSCHED_ALLTOALL_VARIANT (read once). Where no variant is forced it also chooses between that
// and the MPI library's MPI_Alltoall as the other choosing collectives do (library_choice.h:
// ROSCHED_ALLTOALL, a timed first call per size class of a block's bytes, a repeat of the last
// call handed to the library going straight to it): on shared memory at p = 2 Open MPI's was
// 1.3-2.7x faster than either (docs/perf.md, "The Bruck all-to-all family"). Blocks move as
// bytes (alltoall_side.h).
#include <climits>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mpi_exec/alltoall_bruck.h"
#include "mpi_exec/alltoall_side.h"
#include "mpi_exec/args.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/last_run.h"
#include "mpi_exec/library_choice.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/trial_check.h"

namespace rosched::mpi {
namespace {

// Whether Rosched_Alltoall runs the library's MPI_Alltoall, rosched's exchange, or times both,
// for p blocks of n = recvcount * size bytes; the call's and its query's
// (Rosched_Alltoall_choice). rosched's where nothing is to be chosen: an algorithm forced by
// `variant` (Rosched_Alltoall_variant) or ROSCHED_ALLTOALL_VARIANT (`forced`), p = 1, n = 0.
// The whole exchange in more than INT_MAX bytes, which rosched's steps cannot all carry and a
// trial cannot view as bytes, goes to the library unless rosched's is forced. For kRosched,
// *candidate (left alone where nothing is chosen) is 1 for the cost rule's algorithm
// (choose_uniform), 2 for the linear exchange where a trial found it faster than the rule's
// Bruck variant.
Verdict alltoall_verdict(const CommInfo& ci, const char* variant, bool forced, int recvcount,
                         const TypeInfo& rtype, int* candidate) {
  const std::int64_t n = static_cast<std::int64_t>(recvcount) * rtype.size;
  if (variant != nullptr || forced || ci.p == 1 || n == 0) return Verdict::kRosched;
  if (n * ci.p > INT_MAX && settings().alltoall != Settings::Choice::kRosched) {
    return Verdict::kLibrary;
  }
  return library_verdict(
      ci, Decided::kAlltoall, settings().alltoall, recvcount, rtype.size, [] { return true; },
      candidate);
}

// MPI_Alltoall's argument rules (a query, Rosched_Alltoall_choice, passes MPI_IN_PLACE: the
// receive side alone); in debug mode also recvcount * size of recvtype the same on every rank
// (ranks may receive in different datatypes of one signature). Returns the receive type and
// the algorithm `variant` or ROSCHED_ALLTOALL_VARIANT forces, if any.
std::pair<TypeInfo, std::optional<AlltoallAlgorithm>> check_alltoall_args(
    const CommInfo& ci, const char* variant, const void* sendbuf, int sendcount,
    MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype) {
  Agreement agreement;
  agreement.same_bytes("recvcount * size of recvtype", recvcount, recvtype, MPI_ERR_TRUNCATE);
  return check_arguments(ci.c, agreement, [&] {
    check_count("recvcount", recvcount);
    const TypeInfo r = check_type("recvtype", recvtype);
    check_send_side(sendbuf, sendcount, sendtype, static_cast<long long>(recvcount) * r.size,
                    "recvcount");
    const char* name = variant ? variant : alltoall_env_variant();
    return std::make_pair(
        r, forced_algorithm(name, false, variant ? "variant" : "ROSCHED_ALLTOALL_VARIANT"));
  });
}

int alltoall(const char* variant, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return run_collective("Rosched_Alltoall", comm, [&](const CommInfo& ci) {
    const bool in_place = sendbuf == MPI_IN_PLACE;
    const auto [rtype, forced] =
        check_alltoall_args(ci, variant, sendbuf, sendcount, sendtype, recvcount, recvtype);
    const std::int64_t n = static_cast<std::int64_t>(recvcount) * rtype.size;
    if (n == 0) return;
    int candidate = 1;
    const Verdict verdict =
        alltoall_verdict(ci, variant, forced.has_value(), recvcount, rtype, &candidate);
    if (verdict == Verdict::kLibrary) {
      tell_choice(ci, "Rosched_Alltoall", "native MPI_Alltoall", 0, 0,
                  static_cast<double>(n * ci.p));
      check_on(ci.user,
               PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, ci.user),
               "MPI_Alltoall");
      library_repeat(Decided::kAlltoall).remember(ci, recvcount, recvtype, MPI_OP_NULL);
      set_last_run(Decided::kAlltoall, 0);
      return;
    }
    std::vector<int> rcounts(ci.p, recvcount), rdispls(ci.p);
    for (int j = 0; j < ci.p; ++j) rdispls[j] = j * recvcount;
    AlltoallSide recv(recvbuf, rcounts.data(), rdispls.data(), recvtype, rtype, ci.p);
    std::optional<ScratchBuffer> copy;  // MPI_IN_PLACE: the data, before recvbuf is written
    std::unique_ptr<AlltoallSide> send;
    if (in_place) {
      recv.stage_in();
      copy.emplace(static_cast<std::size_t>(n * ci.p));
      std::memcpy(copy->data(), recv.data(), static_cast<std::size_t>(n * ci.p));
      std::vector<int> counts(ci.p, static_cast<int>(n)), displs(ci.p);
      for (int j = 0; j < ci.p; ++j) displs[j] = static_cast<int>(j * n);
      send = std::make_unique<AlltoallSide>(copy->data(), counts.data(), displs.data(), MPI_BYTE,
                                            type_info(MPI_BYTE), ci.p);
    } else {
      std::vector<int> counts(ci.p, sendcount), displs(ci.p);
      for (int j = 0; j < ci.p; ++j) displs[j] = j * sendcount;
      send = std::make_unique<AlltoallSide>(sendbuf, counts.data(), displs.data(), sendtype,
                                            check_type("sendtype", sendtype), ci.p);
      send->stage_in();
    }
    const AlltoallAlgorithm rule =
        forced ? *forced : choose_uniform(cost_model(ci), ci.p, static_cast<double>(n));
    const AlltoallAlgorithm algo = candidate == 2 ? AlltoallAlgorithm{} : rule;
    const auto ours = [&] { alltoall_exchange(ci, *send, recv, algo, n); };
    if (verdict == Verdict::kTimeBoth) {
      // Both on the same bytes (block j of either side at j n, staged or not; p n <= INT_MAX
      // here), so that either leaves the same result and the input is never written.
      const int block = static_cast<int>(n);
      const auto library = [&] {
        check_on(
            ci.user,
            PMPI_Alltoall(send->data(), block, MPI_BYTE, recv.data(), block, MPI_BYTE, ci.user),
            "MPI_Alltoall");
      };
      // The rule's algorithm, and the linear exchange beside a Bruck variant: at p = 2 on shared
      // memory the linear one was 0.87-1.03 of Open MPI's at 4-64 KiB, the Bruck one 1.14-1.32.
      const std::string rule_name = rule.name();
      std::vector<Candidate> candidates = {{"native MPI_Alltoall", library},
                                           {rule_name.c_str(), ours}};
      if (rule.bruck) {
        candidates.push_back(
            {"linear", [&] { alltoall_exchange(ci, *send, recv, AlltoallAlgorithm{}, n); }});
      }
      const int answer =
          time_checked_choices(ci, "Rosched_Alltoall", Decided::kAlltoall, recvcount, rtype.size,
                               std::move(candidates), {{recv.data(), block * ci.p, MPI_BYTE}});
      set_last_run(Decided::kAlltoall, alltoall_ran(answer, rule));
    } else {
      tell_choice(ci, "Rosched_Alltoall", algo.name().c_str(), 0, 0, static_cast<double>(n * ci.p));
      ours();
      set_last_run(Decided::kAlltoall, alltoall_ran(1, algo));
    }
    recv.stage_out();
  });
}

}  // namespace
}  // namespace rosched::mpi

extern "C" int Rosched_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm) {
  using rosched::mpi::Decided;
  const rosched::mpi::LibraryRepeat& last = rosched::mpi::library_repeat(Decided::kAlltoall);
  // A repeat of the last call handed to the library, or an inter-communicator (MPI's semantics
  // there): the library's.
  if (last.match_same_sides(comm, sendbuf, sendcount, sendtype, recvcount, recvtype) ||
      rosched::mpi::inter_communicator(comm)) {
    return rosched::mpi::library_ran(
        rosched::mpi::Decided::kAlltoall, "Rosched_Alltoall", comm,
        PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
        "MPI_Alltoall");
  }
  return rosched::mpi::alltoall(nullptr, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                recvtype, comm);
}

extern "C" int Rosched_Alltoall_choice(MPI_Comm comm, int recvcount, MPI_Datatype recvtype,
                                       int* algorithm) {
  using namespace rosched::mpi;
  if (inter_communicator(comm)) return library_answer("Rosched_Alltoall_choice", comm, algorithm);
  return run_collective("Rosched_Alltoall_choice", comm, [&](const CommInfo& ci) {
    if (algorithm == nullptr) throw Error(MPI_ERR_ARG, "algorithm is a null pointer");
    const auto [rtype, forced] =
        check_alltoall_args(ci, nullptr, MPI_IN_PLACE, 0, recvtype, recvcount, recvtype);
    int candidate = 1;
    const Verdict verdict =
        alltoall_verdict(ci, nullptr, forced.has_value(), recvcount, rtype, &candidate);
    // 1 also where the next call times the candidates (kTimeBoth)
    *algorithm = verdict == Verdict::kLibrary ? 0 : verdict == Verdict::kRosched ? candidate : 1;
  });
}

extern "C" int Rosched_Alltoall_variant(const char* variant, const void* sendbuf, int sendcount,
                                        MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                        MPI_Datatype recvtype, MPI_Comm comm) {
  return rosched::mpi::alltoall(variant ? variant : "auto", sendbuf, sendcount, sendtype, recvbuf,
                                recvcount, recvtype, comm);
}
