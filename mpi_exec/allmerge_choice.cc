// Rosched_Allmerge: the merge-allreduce's entry point (Lang 2025, Algorithms 0-2: allmerge.cc),
// its choice and the choice's query (Rosched_Allmerge_choice). An algorithm the caller names
// runs as asked (ROSCHED_ALLMERGE_LIBRARY: the library's way below). ROSCHED_ALLMERGE_AUTO chooses
// as the MPI collectives do (library_choice.h; ROSCHED_ALLMERGE=auto|model|rosched|native):
// the library's way is its MPI_Allgatherv of the blocks followed by Algorithm 0's merge tree
// (what a program without this library does, but for a sort in place of the merges); rosched's
// are the cost rule's algorithm (rosched_mpi.h), the other of Algorithms 1 and 2, and Algorithm
// 0. `model` and `rosched` run the rule's, `native` the library's, and `auto` times all four at
// the first call of each size class of the result's bytes and keeps the fastest for the class
// (a rosched algorithm where it is at least 5% faster than the library's). As Rosched_Allgatherv's,
// the answers for distributions whose largest block is at least half of the result are kept
// apart from the others' (Decided::kAllmergeLargest): one large block and equal blocks of the
// same total are different messages in every algorithm's rounds. The rule alone lost
// to the library's 1.26x on SimGrid's 36 x 1 cluster at 1,000 elements per rank, where one of
// Algorithm 2's messages crosses the simulated network's 65,472-byte latency step and Algorithm
// 1's does not (docs/sim/alltoall.md).
#include <climits>
#include <optional>
#include <string>
#include <vector>

#include "mpi_exec/allmerge.h"
#include "mpi_exec/args.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/last_run.h"
#include "mpi_exec/library_choice.h"
#include "mpi_exec/merge_kernel.h"
#include "mpi_exec/message_bytes.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/trial_check.h"

namespace rosched::mpi {
namespace {

thread_local long long last_moves = 0;  // Rosched_Allmerge_moves: this thread's last call

struct Args {
  TypeInfo type;
  // For ROSCHED_ALLMERGE_AUTO the cost rule's; none for ROSCHED_ALLMERGE_LIBRARY.
  std::optional<merge::Algorithm> algorithm;
};

// The cost rule of rosched_mpi.h.
merge::Algorithm rule_algorithm(int p) {
  return (p & (p - 1)) == 0 ? merge::Algorithm::kDissemination : merge::Algorithm::kCirculant;
}

// The algorithm asked for; ROSCHED_ALLMERGE_AUTO: the cost rule's; ROSCHED_ALLMERGE_LIBRARY:
// none (the library's MPI_Allgatherv and a merge tree).
std::optional<merge::Algorithm> algorithm_of(int algorithm, int p) {
  switch (algorithm) {
    case ROSCHED_ALLMERGE_ALLGATHER:
      return merge::Algorithm::kAllgather;
    case ROSCHED_ALLMERGE_DISSEMINATION:
      return merge::Algorithm::kDissemination;
    case ROSCHED_ALLMERGE_CIRCULANT:
      return merge::Algorithm::kCirculant;
    case ROSCHED_ALLMERGE_AUTO:
      return rule_algorithm(p);
    case ROSCHED_ALLMERGE_LIBRARY:
      return std::nullopt;
  }
  throw Error(MPI_ERR_ARG, "algorithm = " + std::to_string(algorithm) +
                               " is not ROSCHED_ALLMERGE_AUTO (-1), _ALLGATHER (0), "
                               "_DISSEMINATION (1), _CIRCULANT (2) or _LIBRARY (3)");
}

// What is checked: a call's arguments, or a query's (Rosched_Allmerge_choice: recvcounts and
// datatype alone).
enum class Check { kCall, kQuery };

// The argument rules; in debug mode also the same recvcounts and algorithm on every rank and
// a sorted block on this one.
Args check_allmerge_args(const CommInfo& comm, const void* sendbuf, int sendcount,
                         const void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                         Rosched_Merge_fn* merge_fn, void* state, int algorithm,
                         Check what = Check::kCall) {
  Agreement agreement;
  agreement.same_entries("recvcounts", recvcounts, comm.p, MPI_ERR_COUNT)
      .same("algorithm", algorithm, MPI_ERR_ARG);
  return check_arguments(comm.c, agreement, [&] {
    if (!recvcounts) throw Error(MPI_ERR_ARG, "recvcounts is NULL");
    long long total = 0;
    for (int j = 0; j < comm.p; ++j) {
      check_count_entry("recvcounts", j, recvcounts[j]);
      total += recvcounts[j];
    }
    if (total > INT_MAX) {
      throw Error(MPI_ERR_COUNT,
                  "sum of recvcounts = " + std::to_string(total) + " exceeds INT_MAX elements");
    }
    Args args{check_type("datatype", datatype), algorithm_of(algorithm, comm.p)};
    if (what == Check::kQuery) return args;
    const int own = recvcounts[comm.rank];
    if (sendbuf != MPI_IN_PLACE && sendcount != own) {
      throw Error(MPI_ERR_TRUNCATE, "sendcount = " + std::to_string(sendcount) +
                                        " differs from recvcounts[" + std::to_string(comm.rank) +
                                        "] = " + std::to_string(own));
    }
    if (own > 0 && !(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf)) {
      throw Error(MPI_ERR_BUFFER, "the send buffer is NULL");
    }
    Merger merger(datatype, args.type, merge_fn, state);  // MPI_ERR_OP without a merge
    if (debug_checks()) {
      const std::int64_t i =
          merger.first_unsorted(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, own);
      if (i >= 0) {
        throw Error(MPI_ERR_ARG, "the block of rank " + std::to_string(comm.rank) +
                                     " is not sorted: element " + std::to_string(i + 1) +
                                     " belongs before element " + std::to_string(i));
      }
    }
    return args;
  });
}

// Rosched's candidates of AUTO's trial, in the order of its answers 1..3: the cost rule's
// algorithm first (what `model` and `rosched` run), the other of Algorithms 1 and 2, Algorithm 0.
merge::Algorithm candidate_algorithm(int answer, int p) {
  const merge::Algorithm rule = rule_algorithm(p);
  if (answer == 2) {
    return rule == merge::Algorithm::kDissemination ? merge::Algorithm::kCirculant
                                                    : merge::Algorithm::kDissemination;
  }
  return answer == 3 ? merge::Algorithm::kAllgather : rule;
}

// ROSCHED_VERBOSE's and the trial's name of a candidate (one of the three above).
const char* candidate_name(merge::Algorithm a) {
  return a == merge::Algorithm::kAllgather       ? "Algorithm 0 (all-gather + merge tree)"
         : a == merge::Algorithm::kDissemination ? "Algorithm 1 (dissemination)"
                                                 : "Algorithm 2 (circulant)";
}

constexpr const char* kName = "Rosched_Allmerge";
constexpr const char* kLibrary = "MPI_Allgatherv + merge tree";

// AUTO's decision for a call's checked counts, the call's and its query's: library_verdict's
// answer and candidate (1..3 above), kept under the result's element count and size, apart for
// distributions with a dominant block; the rule's algorithm where there is nothing to choose
// (p = 1, no data).
struct AllmergeChoice {
  Verdict verdict = Verdict::kRosched;
  int answer = 1;
  Decided which = Decided::kAllmerge;
};

AllmergeChoice allmerge_choice(const CommInfo& ci, const int* recvcounts, int total,
                               const TypeInfo& type) {
  AllmergeChoice c;
  if (ci.p == 1 || total == 0) return c;
  c.which =
      largest_block_dominates(recvcounts, ci.p) ? Decided::kAllmergeLargest : Decided::kAllmerge;
  c.verdict = library_verdict(
      ci, c.which, settings().allmerge, total, type.size, [] { return true; }, &c.answer);
  return c;
}

// ROSCHED_ALLMERGE_AUTO: the library's way or one of rosched's algorithms, as the file comment
// says. Returns what ran (a trial: its winner), as Rosched_Allmerge_choice numbers it.
int allmerge_by_choice(const CommInfo& ci, const void* own, bool in_place, void* recvbuf,
                       const int* recvcounts, const BlockCounts& counts, MPI_Datatype datatype,
                       const TypeInfo& type, Merger& merger) {
  const int total = static_cast<int>(counts.total());  // at most INT_MAX: checked
  const double bytes = static_cast<double>(total) * type.size;
  const AllmergeChoice c = allmerge_choice(ci, recvcounts, total, type);
  if (c.verdict == Verdict::kLibrary) {
    tell_choice(ci, kName, kLibrary, 0, 0, bytes);
    // In place the block is read from recvbuf, which the merge tree writes only at its end.
    library_allmerge(ci, recvcounts, counts, own, recvbuf, datatype, type, merger);
    return ROSCHED_ALLMERGE_LIBRARY;
  }
  if (c.verdict == Verdict::kRosched) {
    const merge::Algorithm a = candidate_algorithm(c.answer, ci.p);
    tell_choice(ci, kName, candidate_name(a), 0, 0, bytes);
    allmerge_by_schedule(a, ci, counts, own, in_place, recvbuf, datatype, type, merger);
    return static_cast<int>(a);
  }
  // The trial: every candidate writes recvbuf, so in place the block is copied out first.
  std::optional<ElementBuffer> copy;
  const void* input = own;
  if (in_place) {
    copy.emplace(type);
    copy->resize(counts.block(ci.rank));
    merger.merge({Span{own, counts.block(ci.rank)}}, copy->at(0));
    input = copy->at(0);
  }
  std::vector<Candidate> candidates = {
      {kLibrary,
       [&] { library_allmerge(ci, recvcounts, counts, input, recvbuf, datatype, type, merger); }}};
  for (int answer_k = 1; answer_k <= 3; ++answer_k) {
    const merge::Algorithm a = candidate_algorithm(answer_k, ci.p);
    candidates.push_back({candidate_name(a), [&, a] {
                            allmerge_by_schedule(a, ci, counts, input, false, recvbuf, datatype,
                                                 type, merger);
                          }});
  }
  const int winner = time_checked_choices(ci, kName, c.which, total, type.size,
                                          std::move(candidates), {{recvbuf, total, datatype}});
  return winner == 0 ? ROSCHED_ALLMERGE_LIBRARY
                     : static_cast<int>(candidate_algorithm(winner, ci.p));
}

}  // namespace
}  // namespace rosched::mpi

extern "C" int Rosched_Allmerge(const void* sendbuf, int sendcount, void* recvbuf,
                                const int recvcounts[], MPI_Datatype datatype,
                                Rosched_Merge_fn* merge_fn, void* state, MPI_Comm comm,
                                int algorithm) {
  using namespace rosched::mpi;
  return run_collective(kName, comm, [&](const CommInfo& ci) {
    const Args args = check_allmerge_args(ci, sendbuf, sendcount, recvbuf, recvcounts, datatype,
                                          merge_fn, state, algorithm);
    const BlockCounts counts(recvcounts, ci.p);
    Merger merger(datatype, args.type, merge_fn, state);
    const bool in_place = sendbuf == MPI_IN_PLACE;
    const void* own = in_place ? recvbuf : sendbuf;
    int ran = algorithm;  // what a call that does not choose runs, as asked
    if (algorithm == ROSCHED_ALLMERGE_AUTO) {
      ran = allmerge_by_choice(ci, own, in_place, recvbuf, recvcounts, counts, datatype, args.type,
                               merger);
    } else if (!args.algorithm) {  // ROSCHED_ALLMERGE_LIBRARY
      library_allmerge(ci, recvcounts, counts, own, recvbuf, datatype, args.type, merger);
    } else {
      allmerge_by_schedule(*args.algorithm, ci, counts, own, in_place, recvbuf, datatype, args.type,
                           merger);
    }
    last_moves = merger.moves();
    set_last_run(Decided::kAllmerge, ran);
  });
}

extern "C" int Rosched_Allmerge_choice(MPI_Comm comm, const int recvcounts[], MPI_Datatype datatype,
                                       int* algorithm) {
  using namespace rosched::mpi;
  return run_collective("Rosched_Allmerge_choice", comm, [&](const CommInfo& ci) {
    if (algorithm == nullptr) throw Error(MPI_ERR_ARG, "algorithm is a null pointer");
    const Args args = check_allmerge_args(ci, MPI_IN_PLACE, 0, nullptr, recvcounts, datatype,
                                          nullptr, nullptr, ROSCHED_ALLMERGE_AUTO, Check::kQuery);
    const BlockCounts counts(recvcounts, ci.p);
    const AllmergeChoice c =
        allmerge_choice(ci, recvcounts, static_cast<int>(counts.total()), args.type);
    // The rule's algorithm also where the next call times the candidates (kTimeBoth).
    *algorithm = c.verdict == Verdict::kLibrary
                     ? ROSCHED_ALLMERGE_LIBRARY
                     : static_cast<int>(candidate_algorithm(
                           c.verdict == Verdict::kRosched ? c.answer : 1, ci.p));
  });
}

extern "C" long long Rosched_Allmerge_moves(void) { return rosched::mpi::last_moves; }
