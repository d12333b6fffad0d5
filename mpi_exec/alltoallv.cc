// Rosched_Alltoallv: MPI_Alltoallv (MPI 3.1, Sec. 5.8) over padded or two-phase Bruck (Fan et
// al. 2022) or a linear pairwise exchange, chosen by the cost rule of alltoall_bruck.h (on the
// largest block and the heaviest rank's bytes, agreed by one all-reduce: Rosched_Allreduce's
// choice, allreduce_choice.h), by the argument
// `variant` of Rosched_Alltoallv_variant, or by ROSCHED_ALLTOALL_VARIANT. Where no variant is
// forced it also chooses the MPI library's MPI_Alltoallv (ROSCHED_ALLTOALLV): first once per
// communicator, without looking at the sizes (alltoallv_to_library), then, where Bruck may pay,
// by a trial per size class of the heaviest rank's bytes. Blocks move as bytes
// (alltoall_side.h).
#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mpi_exec/allreduce_choice.h"
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

// Receive blocks that share a byte are an error (MPI: undefined); checked locally.
void check_no_overlap(const int* counts, const int* displs, const TypeInfo& t, int p) {
  struct Span {
    MPI_Aint lo, hi;
    int j;
  };
  const auto span = [&](int j) {
    const MPI_Aint lo = static_cast<MPI_Aint>(displs[j]) * t.extent + t.true_lb;
    return Span{lo, lo + static_cast<MPI_Aint>(counts[j] - 1) * t.extent + t.true_extent, j};
  };
  if (t.size == 0) return;
  // Blocks in rank order, each after the one before (the usual layout): no sort needed.
  bool ordered = true;
  for (int j = 0, last = -1; j < p && ordered; ++j) {
    if (counts[j] == 0) continue;
    ordered = last < 0 || span(last).hi <= span(j).lo;
    last = j;
  }
  if (ordered) return;
  std::vector<Span> spans;
  for (int j = 0; j < p; ++j) {
    if (counts[j] != 0) spans.push_back(span(j));
  }
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.lo < b.lo; });
  for (std::size_t k = 1; k < spans.size(); ++k) {
    if (spans[k].lo < spans[k - 1].hi) {
      throw Error(MPI_ERR_ARG, "the receive blocks from ranks " + std::to_string(spans[k - 1].j) +
                                   " and " + std::to_string(spans[k].j) +
                                   " overlap (rdispls and recvcounts)");
    }
  }
}

void check_entries(const char* name, const int* values, int p, bool counts) {
  if (!values) throw Error(MPI_ERR_ARG, std::string(name) + " is NULL");
  if (!counts) return;
  for (int j = 0; j < p; ++j) check_count_entry(name, j, values[j]);
}

// The checks of a call's arrays and receive datatype, in this order: recvcounts (not NULL, no
// negative entry), rdispls (not NULL), recvtype, no two receive blocks sharing a byte, and with
// a send buffer sendcounts and sdispls. Returns recvtype's layout.
TypeInfo check_arrays(const void* sendbuf, const int* sendcounts, const int* sdispls,
                      const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, int p) {
  check_entries("recvcounts", recvcounts, p, true);
  check_entries("rdispls", rdispls, p, false);
  const TypeInfo r = check_type("recvtype", recvtype);
  check_no_overlap(recvcounts, rdispls, r, p);
  if (sendbuf != MPI_IN_PLACE) {
    check_entries("sendcounts", sendcounts, p, true);
    check_entries("sdispls", sdispls, p, false);
  }
  return r;
}

// Debug mode: what every rank sends to each other rank equals what that rank asks for (one
// MPI_Alltoall of byte counts, one MPI_Allreduce of the verdict): an error on every rank.
void check_pairs(const CommInfo& ci, const std::vector<std::int64_t>& send,
                 const std::vector<std::int64_t>& recv) {
  std::vector<long long> out(send.begin(), send.end()), in(ci.p);
  check(PMPI_Alltoall(out.data(), 1, MPI_LONG_LONG, in.data(), 1, MPI_LONG_LONG, ci.c),
        "MPI_Alltoall (debug check)");
  int bad = -1;
  for (int s = 0; s < ci.p && bad < 0; ++s)
    if (in[s] != recv[s]) bad = s;
  int any = bad >= 0, any_out = 0;
  check(PMPI_Allreduce(&any, &any_out, 1, MPI_INT, MPI_MAX, ci.c), "MPI_Allreduce (debug check)");
  if (bad >= 0) {
    throw Error(MPI_ERR_TRUNCATE,
                "rank " + std::to_string(bad) + " sends " + std::to_string(in[bad]) +
                    " bytes, the receive count asks for " + std::to_string(recv[bad]));
  }
  if (any_out)
    throw Error(MPI_ERR_TRUNCATE, "send and receive sizes differ between another pair of ranks");
}

// Block j's bytes per side: counts[j] elements of `size` bytes.
std::vector<std::int64_t> block_bytes(const int* counts, int size, int p) {
  std::vector<std::int64_t> bytes(p);
  for (int j = 0; j < p; ++j) bytes[j] = static_cast<std::int64_t>(counts[j]) * size;
  return bytes;
}

// The library's MPI_Alltoallv against padded Bruck with one byte per block, the size where
// Bruck's fewer messages count most (bruck_can_pay), in a trial (time_checked_choices; a tie
// goes to the library's): 0 the library's is as fast, 1 Bruck is faster.
int time_one_byte(const CommInfo& ci) {
  const int p = ci.p;
  std::vector<int> ones(p, 1), at(p);
  std::vector<char> out(p), in(p);
  for (int j = 0; j < p; ++j) {
    at[j] = j;
    out[j] = static_cast<char>(ci.rank * 7 + j);
  }
  AlltoallSide send(out.data(), ones.data(), at.data(), MPI_BYTE, type_info(MPI_BYTE), p);
  AlltoallSide recv(in.data(), ones.data(), at.data(), MPI_BYTE, type_info(MPI_BYTE), p);
  const AlltoallAlgorithm padded{BruckVariant::kPadded};
  return time_checked_choices(
      ci, "Rosched_Alltoallv (one byte per block)", Decided::kAlltoallvAtAll, 0, 0,
      {{"native MPI_Alltoallv",
        [&] {
          check_on(ci.user,
                   PMPI_Alltoallv(out.data(), ones.data(), at.data(), MPI_BYTE, in.data(),
                                  ones.data(), at.data(), MPI_BYTE, ci.user),
                   "MPI_Alltoallv");
        }},
       {"padded", [&] { alltoall_exchange(ci, send, recv, padded, 1); }}},
      {{in.data(), p, MPI_BYTE}});
}

// Whether Rosched_Alltoallv hands every call on ci to the library's MPI_Alltoallv without
// looking at the sizes (no MPI_Allreduce of them): ROSCHED_ALLTOALLV=native; or, where the
// choice is left to rosched, if no Bruck variant can beat the linear exchange at this p by the
// cost model (bruck_can_pay: never for p <= 3), which leaves rosched the linear exchange, the
// libraries' own algorithm (at p = 2 on shared memory Open MPI's was 1.0-1.5x faster than it at
// 4 B-64 KiB per block); or (auto) if the library's collective was as fast as padded Bruck with
// one byte per block in a trial at the first call: Bruck only falls further behind with larger
// blocks (SimGrid SMPI, 36 x 1 ranks: Open MPI's selector's 8.1 us against Bruck's 64.5 at 4 B,
// 30.1 against 244.5 at 16 KiB), and the per-call agreement costs a collective (there 36 us).
// Decided once per communicator, at its first such call (the same on every rank), and kept in
// the memo of Decided::kAlltoallvAtAll under (0, 0): 0 the library's, 1 a decision per call.
bool alltoallv_to_library(const CommInfo& ci) {
  const Settings::Choice choice = settings().alltoallv;
  if (choice == Settings::Choice::kNative) return true;
  if (choice == Settings::Choice::kRosched) return false;
  DecisionMemo& memo = decision_memo(ci, Decided::kAlltoallvAtAll);
  int answer = 1;
  if (memo.find(0, 0, &answer)) return answer == 0;
  if (!bruck_can_pay(cost_model(ci), ci.p)) {
    answer = 0;
  } else if (choice == Settings::Choice::kAuto) {
    answer = time_one_byte(ci);
  }
  memo.store(0, 0, answer);
  return answer == 0;
}

// Block j of a side as a part of the receive result, for the trial's debug check.
std::vector<ResultPart> written_blocks(AlltoallSide& recv, int p) {
  std::vector<ResultPart> parts;
  for (int j = 0; j < p; ++j) {
    if (recv.size[j] > 0) {
      parts.push_back({recv.data() + recv.offset[j], static_cast<int>(recv.size[j]), MPI_BYTE});
    }
  }
  return parts;
}

// How far one side's blocks (counts[j] elements of `info` at displs[j] extents) can go: 0 through
// rosched's exchange and, as MPI_BYTE counts and displacements in int, through the library's
// collective on the same bytes (a trial); 1 rosched's only (a dense side reaching beyond INT_MAX
// bytes); 2 neither (a side with gaps and more than INT_MAX bytes, which AlltoallSide cannot
// stage).
int side_reach(const int* counts, const int* displs, const TypeInfo& info, int p) {
  std::int64_t total = 0, lo = 0, hi = 0;
  for (int j = 0; j < p; ++j) {
    const std::int64_t bytes = static_cast<std::int64_t>(counts[j]) * info.size;
    const std::int64_t at = static_cast<std::int64_t>(displs[j]) * info.extent;
    total += bytes;
    lo = std::min(lo, at);
    hi = std::max(hi, at + bytes);
  }
  if (!contiguous(info)) return total > INT_MAX ? 2 : 0;  // staged: offsets are running sums
  return lo < INT_MIN || hi > INT_MAX ? 1 : 0;
}

// A side's blocks as MPI_BYTE counts and displacements (side_reach 0 on this rank).
void byte_view(const AlltoallSide& side, std::vector<int>& counts, std::vector<int>& displs) {
  const std::size_t p = side.size.size();
  counts.resize(p);
  displs.resize(p);
  for (std::size_t j = 0; j < p; ++j) {
    counts[j] = static_cast<int>(side.size[j]);
    displs[j] = static_cast<int>(side.offset[j]);
  }
}

// Rosched_Alltoallv on a communicator whose calls all go to the library (alltoallv_to_library),
// as the thread's last call found, with the same predefined datatypes: the checks of this call's
// arrays (those of every call but the send datatype's, which matched the last call's), then the
// library's collective, without the communicator's record.
int alltoallv_repeat(const void* sendbuf, const int sendcounts[], const int sdispls[],
                     MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                     const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, int p) {
  try {
    check_arrays(sendbuf, sendcounts, sdispls, recvcounts, rdispls, recvtype, p);
  } catch (const Error& e) {
    return report("Rosched_Alltoallv", comm, e.mpi_class(), e.what());
  }
  return library_ran(Decided::kAlltoallv, "Rosched_Alltoallv", comm,
                     PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                    rdispls, recvtype, comm),
                     "MPI_Alltoallv");
}

int alltoallv(const char* variant, const void* sendbuf, const int sendcounts[], const int sdispls[],
              MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm) {
  return run_collective("Rosched_Alltoallv", comm, [&](const CommInfo& ci) {
    const bool in_place = sendbuf == MPI_IN_PLACE;
    const auto [rtype, forced] = check_arguments(ci.c, Agreement(), [&] {
      const TypeInfo r =
          check_arrays(sendbuf, sendcounts, sdispls, recvcounts, rdispls, recvtype, ci.p);
      if (!in_place) check_type("sendtype", sendtype);
      const char* name = variant ? variant : alltoall_env_variant();
      return std::make_pair(
          r, forced_algorithm(name, true, variant ? "variant" : "ROSCHED_ALLTOALL_VARIANT"));
    });
    const bool choosing = variant == nullptr && !forced && ci.p > 1;
    const auto sizes = [&] {
      std::vector<std::int64_t> recv = block_bytes(recvcounts, rtype.size, ci.p);
      std::vector<std::int64_t> send =
          in_place ? recv : block_bytes(sendcounts, type_info(sendtype).size, ci.p);
      if (debug_checks()) check_pairs(ci, send, recv);
      return std::make_pair(std::move(send), std::move(recv));
    };
    const auto library = [&](double bytes) {
      tell_choice(ci, "Rosched_Alltoallv", "native MPI_Alltoallv", 0, 0, bytes);
      check_on(ci.user,
               PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                              recvtype, ci.user),
               "MPI_Alltoallv");
      set_last_run(Decided::kAlltoallv, 0);
    };
    if (choosing && alltoallv_to_library(ci)) {
      if (debug_checks()) sizes();
      double own = 0;  // this rank's bytes to send, for ROSCHED_VERBOSE's line (rank 0's)
      if (settings().verbose) {
        const int* counts = in_place ? recvcounts : sendcounts;
        const int size = in_place ? rtype.size : type_info(sendtype).size;
        for (int j = 0; j < ci.p; ++j) own += static_cast<double>(counts[j]) * size;
      }
      library(own);
      library_repeat(Decided::kAlltoallv).remember(ci, 0, recvtype, MPI_OP_NULL);
      return;
    }
    const auto [send_bytes, recv_bytes] = sizes();
    // Over all ranks, in one all-reduce (Rosched_Allreduce's choice: on many ranks its n-way
    // all-reduce of a few bytes takes a fraction of the library's): the largest block, the heaviest
    // rank's bytes, and the least reach of a side (side_reach: 2 on any rank is an error on every
    // rank where rosched's exchange must run, 1 rules a trial out).
    long long mine[3] = {0, 0, 0}, all[3] = {0, 0, 0};
    for (int j = 0; j < ci.p; ++j) {
      mine[0] = std::max<long long>(mine[0], send_bytes[j]);
      mine[1] += send_bytes[j];
    }
    mine[2] = side_reach(recvcounts, rdispls, rtype, ci.p);
    if (in_place) {  // the data copied to one buffer first, as MPI_BYTE blocks at int offsets
      std::int64_t total = 0;
      for (const std::int64_t b : recv_bytes) total += b;
      if (total > INT_MAX) mine[2] = 2;
    } else {
      mine[2] =
          std::max<long long>(mine[2], side_reach(sendcounts, sdispls, type_info(sendtype), ci.p));
    }
    chosen_allreduce_on(ci, "Rosched_Alltoallv (sizes agreed)", mine, all, 3, MPI_LONG_LONG,
                        type_info(MPI_LONG_LONG), MPI_MAX);
    if (all[0] == 0) {  // nothing anywhere; zero receive counts are all that is allowed
      for (int j = 0; j < ci.p; ++j) {
        if (recv_bytes[j] != 0) {
          throw Error(MPI_ERR_TRUNCATE, "recvcounts[" + std::to_string(j) + "] asks for " +
                                            std::to_string(recv_bytes[j]) +
                                            " bytes, every rank sends none");
        }
      }
      return;
    }
    const AlltoallAlgorithm rule =
        forced ? *forced
               : choose_nonuniform(cost_model(ci), ci.p, static_cast<double>(all[0]),
                                   static_cast<double>(all[1]));
    int candidate = 1;
    Verdict verdict = Verdict::kRosched;
    if (choosing) {
      // Keyed by the heaviest rank's bytes (the same on every rank); more than INT_MAX of them
      // go to the library, as Rosched_Alltoall's, unless rosched's is forced.
      Settings::Choice choice = settings().alltoallv;
      if (all[2] != 0 && choice == Settings::Choice::kAuto) choice = Settings::Choice::kModel;
      verdict = (all[1] > INT_MAX && choice != Settings::Choice::kRosched) || all[2] == 2
                    ? Verdict::kLibrary
                    : library_verdict(
                          ci, Decided::kAlltoallv, choice, static_cast<int>(all[1]), 1,
                          [&] { return rule.bruck.has_value(); }, &candidate);
    }
    if (verdict == Verdict::kLibrary) return library(static_cast<double>(all[1]));
    if (all[2] == 2) throw Error(MPI_ERR_COUNT, "more than INT_MAX bytes to stage on some rank");
    AlltoallSide recv(recvbuf, recvcounts, rdispls, recvtype, rtype, ci.p);
    std::optional<ScratchBuffer> copy;
    std::unique_ptr<AlltoallSide> send;
    if (in_place) {
      recv.stage_in();
      std::vector<int> counts(ci.p), displs(ci.p);
      std::int64_t at = 0;
      for (int j = 0; j < ci.p; ++j) {
        counts[j] = static_cast<int>(recv.size[j]);
        displs[j] = static_cast<int>(at);
        at += recv.size[j];
      }
      char* const to = static_cast<char*>(copy.emplace(static_cast<std::size_t>(at) + 1).data());
      for (int j = 0; j < ci.p; ++j) {
        if (recv.size[j] > 0)
          std::memcpy(to + displs[j], recv.data() + recv.offset[j], recv.size[j]);
      }
      send = std::make_unique<AlltoallSide>(to, counts.data(), displs.data(), MPI_BYTE,
                                            type_info(MPI_BYTE), ci.p);
    } else {
      send = std::make_unique<AlltoallSide>(sendbuf, sendcounts, sdispls, sendtype,
                                            type_info(sendtype), ci.p);
      send->stage_in();
    }
    const AlltoallAlgorithm algo = candidate == 2 ? AlltoallAlgorithm{} : rule;
    if (verdict == Verdict::kTimeBoth) {
      // As Rosched_Alltoall's trial: the library's, the rule's and (beside a Bruck variant) the
      // linear exchange, all on the staged bytes.
      std::vector<int> scounts, sdispls_bytes, rcounts, rdispls_bytes;
      byte_view(*send, scounts, sdispls_bytes);  // they fit: all[2] == 0 here
      byte_view(recv, rcounts, rdispls_bytes);
      const auto on_bytes = [&] {
        check_on(
            ci.user,
            PMPI_Alltoallv(send->data(), scounts.data(), sdispls_bytes.data(), MPI_BYTE,
                           recv.data(), rcounts.data(), rdispls_bytes.data(), MPI_BYTE, ci.user),
            "MPI_Alltoallv");
      };
      const std::string rule_name = rule.name();
      std::vector<Candidate> candidates = {
          {"native MPI_Alltoallv", on_bytes},
          {rule_name.c_str(), [&] { alltoall_exchange(ci, *send, recv, rule, all[0]); }}};
      if (rule.bruck) {
        candidates.push_back(
            {"linear", [&] { alltoall_exchange(ci, *send, recv, AlltoallAlgorithm{}, all[0]); }});
      }
      const int answer = time_checked_choices(ci, "Rosched_Alltoallv", Decided::kAlltoallv,
                                              static_cast<int>(all[1]), 1, std::move(candidates),
                                              written_blocks(recv, ci.p));
      set_last_run(Decided::kAlltoallv, alltoall_ran(answer, rule));
    } else {
      tell_choice(ci, "Rosched_Alltoallv", algo.name().c_str(), 0, 0, static_cast<double>(all[1]));
      alltoall_exchange(ci, *send, recv, algo, all[0]);
      set_last_run(Decided::kAlltoallv, alltoall_ran(1, algo));
    }
    recv.stage_out();
  });
}

}  // namespace
}  // namespace rosched::mpi

extern "C" int Rosched_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  using rosched::mpi::Decided;
  const rosched::mpi::LibraryRepeat& last = rosched::mpi::library_repeat(Decided::kAlltoallv);
  if (last.match_same_sides(comm, sendbuf, 0, sendtype, 0, recvtype)) {
    return rosched::mpi::alltoallv_repeat(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                          recvcounts, rdispls, recvtype, comm, last.p());
  }
  if (rosched::mpi::inter_communicator(comm)) {  // MPI's semantics there: the library's
    return rosched::mpi::library_result(
        "Rosched_Alltoallv", comm,
        PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                       recvtype, comm),
        "MPI_Alltoallv");
  }
  return rosched::mpi::alltoallv(nullptr, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                 recvcounts, rdispls, recvtype, comm);
}

extern "C" int Rosched_Alltoallv_variant(const char* variant, const void* sendbuf,
                                         const int sendcounts[], const int sdispls[],
                                         MPI_Datatype sendtype, void* recvbuf,
                                         const int recvcounts[], const int rdispls[],
                                         MPI_Datatype recvtype, MPI_Comm comm) {
  return rosched::mpi::alltoallv(variant ? variant : "auto", sendbuf, sendcounts, sdispls, sendtype,
                                 recvbuf, recvcounts, rdispls, recvtype, comm);
}
