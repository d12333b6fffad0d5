// Rosched_Reduce_scatter_block and Rosched_Reduce_scatter, with the semantics of
// MPI_Reduce_scatter_block and MPI_Reduce_scatter (blocks of recvcounts[b] elements), and their
// forced forms. The algorithms, all for commutative operations (blocks are combined in the
// schedule's order, not in rank order):
//   - the circulant reduce-scatter: Träff 2022's regular all-gather (Alg. 7, Sec. 2.3) run
//     backwards, sched/circulant/reduce_scatter_schedule.h, walked by circulant_rounds.h
//     (ceil(log2 p) rounds; a rank sends p - 1 blocks in all and combines what it receives by
//     MPI_Reduce_local);
//   - for a short vector, the n-way all-reduce of all of it (End et al. 2015), then the rank's
//     block;
//   - the n-port reduce-scatter: the n-port all-gather run backwards (allgather_nway.h);
//   - on several multicore nodes, the node-aware one (reduce_scatter_node_aware.h).
// Rosched_Reduce_scatter(_block) runs one of them where, timed at the first call of each size
// class, it beat the MPI library's collective, else that (ROSCHED_REDUCE_SCATTER, as
// ROSCHED_BCAST; library_choice.h; the library's for a non-commutative operation). At p = 2,
// where either is one exchange, the trial decides too: Open MPI 4.1's MPI_Reduce_scatter took
// 6-7x the circulant one's time at 1-4 MiB there (its scratch made per call; docs/perf.md,
// "Scratch kept from call to call"). The forced forms always run theirs: _circulant the
// circulant one, _nport the n-port one (the trial's candidate 4, the same ports, so that it can
// be timed alone), _node_aware the node-aware one where it applies, else the circulant one.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mpi_exec/allgather_nway.h"
#include "mpi_exec/args.h"
#include "mpi_exec/circulant_rounds.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/last_run.h"
#include "mpi_exec/library_choice.h"
#include "mpi_exec/nway_allreduce.h"
#include "mpi_exec/reduce_scatter_node_aware.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/round_stream.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/trial_check.h"

namespace rosched::mpi {

namespace {

constexpr const char* kReduceScatter = "the circulant reduce-scatter";

// A reduce-scatter's blocks: every one recvcount elements (MPI_Reduce_scatter_block), or
// recvcounts[b] (MPI_Reduce_scatter).
struct Blocks {
  bool irregular;  // MPI_Reduce_scatter: recvcounts (else every block recvcount)
  const int* recvcounts;
  int recvcount;
};

// The recvcounts of this thread's last Rosched_Reduce_scatter handed to the library, which
// library_repeat(Decided::kReduceScatterV) records with 0 for the count (as Rosched_Allgatherv's,
// allgatherv.cc): a call with the same communicator, datatype, operation and counts (compared
// entry by entry) goes straight to the library.
thread_local std::vector<int> last_library_counts;

// The argument rules of MPI_Reduce_scatter(_block) (the counts agreed in debug mode, each >= 0,
// the local rules of a reduction, their sum <= INT_MAX); returns the type, and the sum in
// *total if given.
TypeInfo check_reduce_scatter(const CommInfo& ci, const Blocks& blocks, MPI_Datatype datatype,
                              MPI_Op op, int* total_out = nullptr) {
  Agreement agreement;
  if (blocks.irregular) {
    agreement.same_entries("recvcounts", blocks.recvcounts, ci.p, MPI_ERR_COUNT);
  } else {
    agreement.same("recvcount", blocks.recvcount, MPI_ERR_COUNT);
  }
  return check_arguments(ci.c, agreement, [&] {
    if (blocks.irregular && !blocks.recvcounts) throw Error(MPI_ERR_ARG, "recvcounts is NULL");
    long long total = 0;
    if (blocks.irregular) {
      for (int b = 0; b < ci.p; ++b) {
        check_count_entry("recvcounts", b, blocks.recvcounts[b]);
        total += blocks.recvcounts[b];
      }
    } else {
      total = static_cast<long long>(blocks.recvcount) * ci.p;
    }
    const TypeInfo type = check_reduction(
        blocks.irregular ? blocks.recvcounts[ci.rank] : blocks.recvcount, datatype, op);
    if (total > INT_MAX) {
      throw Error(MPI_ERR_COUNT,
                  std::string(blocks.irregular ? "the sum of recvcounts" : "p * recvcount") +
                      " = " + std::to_string(total) + " elements exceeds INT_MAX, the limit of " +
                      kReduceScatter);
    }
    if (total_out != nullptr) *total_out = static_cast<int>(total);
    return type;
  });
}

// This rank's block of the reduced vector at `all` (cut.n elements) into recvbuf.
void copy_own_block(const CommInfo& ci, const char* all, void* recvbuf, const BlockCut& cut,
                    MPI_Datatype datatype, const TypeInfo& type) {
  local_copy(all + static_cast<MPI_Aint>(cut.first(ci.rank)) * type.extent, recvbuf,
             static_cast<int>(cut.elements(ci.rank, 1)), datatype, type);
}

// The reduce-scatter walk `walk(acc)` on a copy acc of the cut.n > 0 elements at `in`, then this
// rank's block into recvbuf.
template <typename Walk>
void walk_on_copy(const CommInfo& ci, const void* in, void* recvbuf, const BlockCut& cut,
                  MPI_Datatype datatype, const TypeInfo& type, Walk walk) {
  ScratchBuffer acc(type, static_cast<int>(cut.n));
  char* const at = static_cast<char*>(acc.data());
  local_copy(in, at, static_cast<int>(cut.n), datatype, type);
  walk(at);
  copy_own_block(ci, at, recvbuf, cut, datatype, type);
}

// The reduce-scatter of the cut.n > 0 elements (sendbuf, or recvbuf with MPI_IN_PLACE) into
// recvbuf: node-aware (reduce_scatter_node_aware.h), or a copy of the input reduced in place by
// the circulant reduce-scatter, then this rank's block.
void reduce_scatter_into(const CommInfo& ci, const char* name, bool node_aware, const void* sendbuf,
                         void* recvbuf, const BlockCut& cut, MPI_Datatype datatype,
                         const TypeInfo& type, MPI_Op op) {
  if (node_aware) {
    node_aware_reduce_scatter_on(ci, name, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf,
                                 cut, datatype, type, op);
    return;
  }
  tell_choice(ci, name, "circulant reduce-scatter", 0, 0, static_cast<double>(cut.n) * type.size);
  walk_on_copy(ci, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, cut, datatype, type,
               [&](char* acc) { circulant_reduce_scatter_on(ci, acc, cut, datatype, type, op); });
}

// The reduce-scatter of a short vector by the n-way all-reduce of all of it (End et al. 2015,
// nway_allreduce.h: ceil(log_{n+1} p) rounds of whole vectors, n from its cost rule), then this
// rank's block: fewer rounds than the circulant reduce-scatter's ceil(log2 p) where the vector
// is short (SimGrid SMPI, paper 36 x 1, 4 B: 4.3 us against 24.2).
void nway_reduce_scatter(const CommInfo& ci, const char* name, const void* in, void* recvbuf,
                         const BlockCut& cut, MPI_Datatype datatype, const TypeInfo& type,
                         MPI_Op op) {
  const int total = static_cast<int>(cut.n);
  const double bytes = static_cast<double>(total) * type.size;
  const int n = nway_ports(ci, bytes);
  if (settings().verbose) {
    tell_choice(ci, name, ("n-way all-reduce, n = " + std::to_string(n)).c_str(), 0, 0, bytes);
  }
  ScratchBuffer all(type, total);
  char* const at = static_cast<char*>(all.data());
  nway_allreduce_on(ci, in, at, total, datatype, type, op, n);
  copy_own_block(ci, at, recvbuf, cut, datatype, type);
}

// The n-port reduce-scatter (allgather_nway.h: the n-port all-gather run backwards) of the
// input `in` (cut.n > 0 elements) into a copy, then this rank's block into recvbuf; n ports (the
// all-gather's rule, nway_allgather_ports_to_run).
void nport_reduce_scatter(const CommInfo& ci, const char* name, const void* in, void* recvbuf,
                          const BlockCut& cut, MPI_Datatype datatype, const TypeInfo& type,
                          MPI_Op op, const GatherBlocks& blocks) {
  const int n = nway_allgather_ports_to_run(ci, blocks, NportRounds::kStreamed);
  if (settings().verbose) {
    tell_choice(ci, name, ("n-port reduce-scatter, n = " + std::to_string(n)).c_str(), 0, 0,
                static_cast<double>(cut.n) * type.size);
  }
  const CostModel* const stream_model =
      round_stream_model(ci, static_cast<double>(cut.n) * type.size);
  walk_on_copy(ci, in, recvbuf, cut, datatype, type, [&](char* acc) {
    nway_reduce_scatter_on(ci, acc, cut, datatype, type, op, n, stream_model);
  });
}

// The blocks' sizes in bytes, for the n-port rule: the mean and the largest.
GatherBlocks scatter_blocks(const CommInfo& ci, const Blocks& blocks, int total,
                            const TypeInfo& type) {
  double largest = blocks.recvcount;
  if (blocks.irregular) largest = *std::max_element(blocks.recvcounts, blocks.recvcounts + ci.p);
  return {static_cast<double>(total) * type.size / ci.p, largest * type.size};
}

// The entry points: Rosched_Reduce_scatter(_block) (kChoose: the library's or rosched's, by
// library_choice.h), their _node_aware forms (kNodeAware: node-aware where it applies, else
// circulant), _circulant forms (kFlat) and _nport forms (kNport: the n-port reduce-scatter).
enum class Entry { kChoose, kNodeAware, kFlat, kNport };

// The algorithm an entry point that does not choose runs, for its messages.
const char* forced_algorithm(Entry entry) {
  return entry == Entry::kNport ? "the n-port reduce-scatter" : kReduceScatter;
}

// The memo of a reduce-scatter's decision (library_choice.h): one for each entry point, keyed by
// the block's count, or by the whole vector's (`total` elements, checked: at most INT_MAX) for
// irregular blocks.
Decided decided(const Blocks& blocks) {
  return blocks.irregular ? Decided::kReduceScatterV : Decided::kReduceScatter;
}
int memo_count(const Blocks& blocks, int total) {
  return blocks.irregular ? total : blocks.recvcount;
}

// The decision of a reduce-scatter entry point, the answers of
// Rosched_Reduce_scatter(_block)_choice; timed: this call times the candidates (answer: what
// runs without a trial).
enum ReduceScatterAnswer {
  kScatterLibrary = 0,
  kScatterCirculant = 1,
  kScatterNodeAware = 2,
  kScatterNway = 3,
  kScatterNport = 4
};
struct ReduceScatterDecision {
  int answer = kScatterLibrary;
  bool timed = false;
  bool nodes = false;  // the node-aware reduce-scatter applies (not with kFlat)
};

// Rosched's candidates (the trial's answers, library_choice.h): 1 the node-aware reduce-scatter
// where it applies (several nodes of equal size), else the circulant one; 2 the circulant one
// where the node-aware one applies; 3 the n-way all-reduce of the vector, then this rank's block,
// where the n-way all-reduce can pay (short vectors, p > 2); 4 the n-port reduce-scatter, where
// the n-port all-gather's rule expects n ports at least 10% faster than one (p > 2, not where the
// node-aware one applies). The library's collective for a
// non-commutative operation; _circulant: the circulant one; _node_aware: the node-aware one
// where it applies, else the circulant one; _nport: the n-port one.
// `which` and `count`: the memo and its key (decided, memo_count).
ReduceScatterDecision reduce_scatter_decision(const CommInfo& ci, Entry entry, Decided which,
                                              int count, const TypeInfo& type, bool commutative) {
  int answer = entry == Entry::kNport ? kScatterNport : kScatterCirculant;
  const Verdict verdict = entry != Entry::kChoose ? Verdict::kRosched
                          : !commutative          ? Verdict::kLibrary
                                                  : library_verdict(
                                                        ci, which, settings().reduce_scatter, count,
                                                        type.size, [&] { return ci.p > 1; }, &answer);
  ReduceScatterDecision d;
  if (verdict == Verdict::kLibrary) return d;
  d.timed = verdict == Verdict::kTimeBoth;
  d.nodes = (entry == Entry::kChoose || entry == Entry::kNodeAware) &&
            node_aware_reduce_scatter_applies(ci);
  d.answer = answer == kScatterNport  ? kScatterNport
             : answer == 3            ? kScatterNway
             : d.nodes && answer == 1 ? kScatterNodeAware
                                      : kScatterCirculant;
  return d;
}

int reduce_scatter_entry(const char* name, Entry entry, const void* sendbuf, void* recvbuf,
                         const Blocks& blocks, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return run_collective(name, comm, [&](const CommInfo& ci) {
    const TypeInfo type = check_reduce_scatter(ci, blocks, datatype, op);
    int commutative = 0;
    check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
    if (entry != Entry::kChoose && !commutative) {
      throw Error(MPI_ERR_OP,
                  std::string(forced_algorithm(entry)) + " needs a commutative operation");
    }
    std::vector<std::int64_t> starts;  // the irregular blocks' prefix sums
    if (blocks.irregular) starts = block_starts(blocks.recvcounts, ci.p);
    const int total = blocks.irregular ? static_cast<int>(starts[ci.p]) : blocks.recvcount * ci.p;
    const Decided which = decided(blocks);
    // The choosing entry points record what they ran (last_run.h), in their _choice numbers.
    const auto ran = [&](int answer) {
      if (entry == Entry::kChoose) set_last_run(which, answer);
    };
    if (total == 0) return ran(kNothingRan);
    const BlockCut cut{total, ci.p, blocks.irregular ? starts.data() : nullptr};
    const auto library = [&](const void* in) {
      if (blocks.irregular) {
        check_on(ci.user,
                 PMPI_Reduce_scatter(in, recvbuf, blocks.recvcounts, datatype, op, ci.user),
                 "MPI_Reduce_scatter");
      } else {
        check_on(ci.user,
                 PMPI_Reduce_scatter_block(in, recvbuf, blocks.recvcount, datatype, op, ci.user),
                 "MPI_Reduce_scatter_block");
      }
    };
    const int count = memo_count(blocks, total);
    const ReduceScatterDecision decision =
        reduce_scatter_decision(ci, entry, which, count, type, commutative);
    const bool nodes = decision.nodes;
    if (decision.answer == kScatterLibrary) {
      tell_choice(ci, name, "native", 0, 0, static_cast<double>(total) * type.size);
      library(sendbuf);
      LibraryRepeat& last = library_repeat(which);
      last.remember(ci, blocks.irregular ? 0 : count, datatype, op);
      if (blocks.irregular && last.match(ci.user, 0, datatype, op)) {
        last_library_counts.assign(blocks.recvcounts, blocks.recvcounts + ci.p);
      }
    } else if (decision.timed) {
      // In place, the input is recvbuf, which every trial overwrites: a copy serves all.
      std::optional<ScratchBuffer> input;
      if (sendbuf == MPI_IN_PLACE) {
        local_copy(recvbuf, input.emplace(type, total).data(), total, datatype, type);
      }
      const void* in = input ? input->data() : sendbuf;
      std::vector<Candidate> candidates = {
          {"native", [&] { library(in); }},
          {nodes ? "node-aware reduce-scatter" : "circulant reduce-scatter",
           [&] { reduce_scatter_into(ci, name, nodes, in, recvbuf, cut, datatype, type, op); }},
          {"circulant reduce-scatter", nullptr},
          {"n-way all-reduce, own block", nullptr},
          {"n-port reduce-scatter", nullptr}};
      if (nodes) {
        candidates[2].run = [&] {
          reduce_scatter_into(ci, name, false, in, recvbuf, cut, datatype, type, op);
        };
      }
      if (ci.p > 2 && nway_can_pay(ci, static_cast<double>(total) * type.size)) {
        candidates[3].run = [&] {
          nway_reduce_scatter(ci, name, in, recvbuf, cut, datatype, type, op);
        };
      }
      const GatherBlocks sizes = scatter_blocks(ci, blocks, total, type);
      if (ci.p > 2 && !nodes && nway_allgather_ports(ci, sizes, NportRounds::kStreamed) > 0) {
        candidates[4].run = [&] {
          nport_reduce_scatter(ci, name, in, recvbuf, cut, datatype, type, op, sizes);
        };
      }
      // ROSCHED_DEBUG: every candidate's block checked where the reduction is exact, against
      // this rank's block of the library's all-reduce of the vector (not its reduce-scatter:
      // SimGrid's delivers wrong blocks for some counts under some selectors).
      const int own = static_cast<int>(cut.elements(ci.rank, 1));
      std::vector<ResultPart> result;
      if (own > 0 && exact_reduction(datatype, op)) result.push_back({recvbuf, own, datatype});
      const auto reference = [&] {
        ScratchBuffer all(type, total);
        check(PMPI_Allreduce(in, all.data(), total, datatype, op, ci.c), "MPI_Allreduce");
        local_copy(static_cast<char*>(all.data()) + cut.first(ci.rank) * type.extent, recvbuf, own,
                   datatype, type);
      };
      // The winner in the _choice numbers (candidate 1 is node-aware where that applies).
      static constexpr int kTrialAnswer[] = {kScatterLibrary, kScatterCirculant, kScatterCirculant,
                                             kScatterNway, kScatterNport};
      const int winner = time_checked_choices(ci, name, which, count, type.size,
                                              std::move(candidates), result, reference);
      return ran(winner == 1 && nodes ? kScatterNodeAware : kTrialAnswer[winner]);
    } else if (decision.answer == kScatterNport) {
      nport_reduce_scatter(ci, name, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, cut,
                           datatype, type, op, scatter_blocks(ci, blocks, total, type));
    } else if (decision.answer == kScatterNway) {
      nway_reduce_scatter(ci, name, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, cut,
                          datatype, type, op);
    } else {
      reduce_scatter_into(ci, name, decision.answer == kScatterNodeAware, sendbuf, recvbuf, cut,
                          datatype, type, op);
    }
    ran(decision.answer);
  });
}

// Rosched_Reduce_scatter(_block)_choice.
int reduce_scatter_choice(const char* name, MPI_Comm comm, const Blocks& blocks,
                          MPI_Datatype datatype, MPI_Op op, int* algorithm) {
  return run_collective(name, comm, [&](const CommInfo& ci) {
    if (algorithm == nullptr) throw Error(MPI_ERR_ARG, "algorithm is a null pointer");
    int total = 0;
    const TypeInfo type = check_reduce_scatter(ci, blocks, datatype, op, &total);
    int commutative = 0;
    check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
    *algorithm = reduce_scatter_decision(ci, Entry::kChoose, decided(blocks),
                                         memo_count(blocks, total), type, commutative)
                     .answer;
  });
}

}  // namespace
}  // namespace rosched::mpi

extern "C" int Rosched_Reduce_scatter_block_choice(MPI_Comm comm, int recvcount,
                                                   MPI_Datatype datatype, MPI_Op op,
                                                   int* algorithm) {
  if (rosched::mpi::inter_communicator(comm)) {
    return rosched::mpi::library_answer("Rosched_Reduce_scatter_block_choice", comm, algorithm);
  }
  return rosched::mpi::reduce_scatter_choice("Rosched_Reduce_scatter_block_choice", comm,
                                             rosched::mpi::Blocks{false, nullptr, recvcount},
                                             datatype, op, algorithm);
}

extern "C" int Rosched_Reduce_scatter_choice(MPI_Comm comm, const int recvcounts[],
                                             MPI_Datatype datatype, MPI_Op op, int* algorithm) {
  if (rosched::mpi::inter_communicator(comm)) {
    return rosched::mpi::library_answer("Rosched_Reduce_scatter_choice", comm, algorithm);
  }
  return rosched::mpi::reduce_scatter_choice("Rosched_Reduce_scatter_choice", comm,
                                             rosched::mpi::Blocks{true, recvcounts, 0}, datatype,
                                             op, algorithm);
}

extern "C" int Rosched_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  using namespace rosched::mpi;
  // A repeat of this thread's last call handed to the library goes straight to it
  // (library_choice.h), as does a call on an inter-communicator (MPI's semantics there).
  if (library_repeat(Decided::kReduceScatter).match(comm, recvcount, datatype, op) ||
      inter_communicator(comm)) {
    return library_ran(Decided::kReduceScatter, "Rosched_Reduce_scatter_block", comm,
                       PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm),
                       "MPI_Reduce_scatter_block");
  }
  return reduce_scatter_entry("Rosched_Reduce_scatter_block", Entry::kChoose, sendbuf, recvbuf,
                              Blocks{false, nullptr, recvcount}, datatype, op, comm);
}

extern "C" int Rosched_Reduce_scatter_block_circulant(const void* sendbuf, void* recvbuf,
                                                      int recvcount, MPI_Datatype datatype,
                                                      MPI_Op op, MPI_Comm comm) {
  return rosched::mpi::reduce_scatter_entry(
      "Rosched_Reduce_scatter_block_circulant", rosched::mpi::Entry::kFlat, sendbuf, recvbuf,
      rosched::mpi::Blocks{false, nullptr, recvcount}, datatype, op, comm);
}

extern "C" int Rosched_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  using namespace rosched::mpi;
  const LibraryRepeat& last = library_repeat(Decided::kReduceScatterV);
  // A repeat of the last call handed to the library, or an inter-communicator: the library's.
  if ((recvcounts != nullptr && last.match(comm, 0, datatype, op) &&
       std::equal(last_library_counts.begin(), last_library_counts.end(), recvcounts)) ||
      inter_communicator(comm)) {
    return library_ran(Decided::kReduceScatterV, "Rosched_Reduce_scatter", comm,
                       PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm),
                       "MPI_Reduce_scatter");
  }
  return rosched::mpi::reduce_scatter_entry(
      "Rosched_Reduce_scatter", rosched::mpi::Entry::kChoose, sendbuf, recvbuf,
      rosched::mpi::Blocks{true, recvcounts, 0}, datatype, op, comm);
}

extern "C" int Rosched_Reduce_scatter_circulant(const void* sendbuf, void* recvbuf,
                                                const int recvcounts[], MPI_Datatype datatype,
                                                MPI_Op op, MPI_Comm comm) {
  return rosched::mpi::reduce_scatter_entry(
      "Rosched_Reduce_scatter_circulant", rosched::mpi::Entry::kFlat, sendbuf, recvbuf,
      rosched::mpi::Blocks{true, recvcounts, 0}, datatype, op, comm);
}

extern "C" int Rosched_Reduce_scatter_block_nport(const void* sendbuf, void* recvbuf, int recvcount,
                                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return rosched::mpi::reduce_scatter_entry(
      "Rosched_Reduce_scatter_block_nport", rosched::mpi::Entry::kNport, sendbuf, recvbuf,
      rosched::mpi::Blocks{false, nullptr, recvcount}, datatype, op, comm);
}

extern "C" int Rosched_Reduce_scatter_nport(const void* sendbuf, void* recvbuf,
                                            const int recvcounts[], MPI_Datatype datatype,
                                            MPI_Op op, MPI_Comm comm) {
  return rosched::mpi::reduce_scatter_entry(
      "Rosched_Reduce_scatter_nport", rosched::mpi::Entry::kNport, sendbuf, recvbuf,
      rosched::mpi::Blocks{true, recvcounts, 0}, datatype, op, comm);
}

extern "C" int Rosched_Reduce_scatter_block_node_aware(const void* sendbuf, void* recvbuf,
                                                       int recvcount, MPI_Datatype datatype,
                                                       MPI_Op op, MPI_Comm comm) {
  return rosched::mpi::reduce_scatter_entry(
      "Rosched_Reduce_scatter_block_node_aware", rosched::mpi::Entry::kNodeAware, sendbuf, recvbuf,
      rosched::mpi::Blocks{false, nullptr, recvcount}, datatype, op, comm);
}

extern "C" int Rosched_Reduce_scatter_node_aware(const void* sendbuf, void* recvbuf,
                                                 const int recvcounts[], MPI_Datatype datatype,
                                                 MPI_Op op, MPI_Comm comm) {
  return rosched::mpi::reduce_scatter_entry(
      "Rosched_Reduce_scatter_node_aware", rosched::mpi::Entry::kNodeAware, sendbuf, recvbuf,
      rosched::mpi::Blocks{true, recvcounts, 0}, datatype, op, comm);
}
