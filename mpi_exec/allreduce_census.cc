// Rosched_Allreduce_census: the census all-reduce, Algorithm 8 of Träff 2022 (Sec. 2.3), walking
// sched/circulant/census_schedule.h: ceil(log2 p) rounds of one message of `count` elements, for
// commutative operations (predefined or user-defined) on small data. The neutral element of the
// paper is not needed: an empty partial result is tracked instead.
//
// Rosched_Allreduce: the census, the reduce-scatter/all-gather over the circulant graph or on n
// ports (allreduce_scatter_gather.h), the k-nomial reduction + broadcast, on
// several multicore nodes the lane all-reduces (allreduce_lanes.h), the n-way all-reduce
// (nway_allreduce.h), or the MPI library's MPI_Allreduce, chosen as library_choice.h says, for
// a commutative operation (else the library's, or with ROSCHED_ALLREDUCE=rosched the two-tree
// all-reduce, which keeps rank order: allreduce_two_tree.cc). The census and the n-way
// all-reduce can pay only where their whole vectors per round are not far from what an
// all-reduce must cost (census_can_pay, nway_can_pay); a timed first call of the size class
// decides among those that can.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mpi_exec/allgatherv_circulant.h"
#include "mpi_exec/allreduce_choice.h"
#include "mpi_exec/allreduce_knomial.h"
#include "mpi_exec/allreduce_lanes.h"
#include "mpi_exec/allreduce_scatter_gather.h"
#include "mpi_exec/args.h"
#include "mpi_exec/bcast_knomial.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/last_run.h"
#include "mpi_exec/library_choice.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/nway_allreduce.h"
#include "mpi_exec/reduce_trees.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"
#include "mpi_exec/trial_check.h"
#include "sched/circulant/census_schedule.h"
#include "sched/round.h"

namespace rosched::mpi {
namespace {

constexpr const char* kCensus = "the census all-reduce";

// The census of `count` > 0 elements on ci (a commutative op; MPI_IN_PLACE: the input is recvbuf).
// The paper's x is read where it lies (sendbuf, or recvbuf in place: that is written only at the
// end); the partial result S lives in recvbuf, or in place in a scratch vector; a round's
// message is sent from x or S themselves where it is one of them, and the first one received is
// S. So a census on one round (p = 2, not in place) needs no scratch at all, as the library's
// exchange does, and no call more than three vectors (S in place, what arrives, x (+) S): a
// census of 256 MiB at p = 2 took 1.6 GB per rank and 7.9 s with a copy of each (x, S, what is
// sent, what arrives) against the library's 0.67 GB and 2.0 s (docs/perf.md).
void census(const CommInfo& ci, const void* sendbuf, void* recvbuf, int count,
            MPI_Datatype datatype, const TypeInfo& type, MPI_Op op) {
  const int p = ci.p, rank = ci.rank;
  const MPI_Comm c = ci.c;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  void* const x = in_place ? recvbuf : const_cast<void*>(sendbuf);
  std::optional<ScratchBuffer> s_scratch, arrived, mixed;  // S in place, what arrives, x (+) S
  const rosched::Skips& skips = skips_of(p);
  // In place S needs a vector of its own, unless there is no round (p = 1).
  void* const s = !in_place       ? recvbuf
                  : skips.q() > 0 ? s_scratch.emplace(type, count).data()
                                  : nullptr;
  bool have_partial = false;  // S is empty until the first receive
  for (int k = 0; k < skips.q(); ++k) {
    const rosched::CensusRound round = rosched::census_round(skips, rank, k);
    if (!round.send_includes_own && !have_partial) {
      throw Error(MPI_ERR_INTERN,
                  "census round " + std::to_string(k) + " would send an empty value");
    }
    // O = x (+) S, or S alone, or x alone.
    void* out = have_partial ? s : x;
    if (round.send_includes_own && have_partial) {
      if (!mixed) mixed.emplace(type, count);
      out = mixed->data();
      copy_elements(out, s, type, count);
      check(PMPI_Reduce_local(x, out, count, datatype, op), "MPI_Reduce_local");
    }
    void* in = s;  // the first value received is S
    if (have_partial) in = (arrived ? *arrived : arrived.emplace(type, count)).data();
    check(PMPI_Sendrecv(out, count, datatype, static_cast<int>(round.to), tag::kCensusRound, in,
                        count, datatype, static_cast<int>(round.from), tag::kCensusRound, c,
                        MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
    if (have_partial) {
      check(PMPI_Reduce_local(in, s, count, datatype, op), "MPI_Reduce_local");
    }
    have_partial = true;
  }
  // Result: x (+) S (a commutative op: in either order), or x alone (p = 1).
  // recvbuf holds the one of them that is not elsewhere: S, or in place x.
  if (have_partial) {
    check(PMPI_Reduce_local(in_place ? s : x, recvbuf, count, datatype, op), "MPI_Reduce_local");
  } else if (!in_place) {
    local_copy(x, recvbuf, count, datatype);
  }
}

// The census's time by the model, ceil(log2 p) time(m), is at most twice that of an ideal
// all-reduce (nway_allreduce.h). True for short vectors and for p = 2; false for long ones on
// many ranks, where the census sends ceil(log2 p) whole vectors.
bool census_can_pay(const CostModel& model, int p, double bytes) {
  return ceil_log2(p) * model.time(bytes) <= 2 * ideal_allreduce(model, p, bytes);
}

// The decision, the answers of Rosched_Allreduce_choice; timed: this call times the candidates
// (answer: what runs without a trial).
struct AllreduceDecision {
  int answer = kAllreduceLibrary;
  bool timed = false;
};

bool census_pays(const CommInfo& ci, double bytes) {
  return census_can_pay(cost_model(ci), ci.p, bytes);
}

bool lanes_apply(const CommInfo& ci, bool commutative) {
  return ci.p >= 4 && commutative && lane_allreduce_applies(ci);
}

// Rosched_Allreduce's choice (allreduce_by_choice runs it, after the checks, count > 0). Its
// candidates, in the order of their answers (library_choice.h; AllreduceAnswer): the census
// (1), timed only where it can pay, the reduce-scatter/all-gather (2), timed only for p > 2 and
// where the lane all-reduces do not apply (over all ranks it moves about twice the vector
// through every rank's link, so a node's network link carries that for each of its ranks where
// the lanes' carries it once: on 36 x 32 simulated ranks it
// took 271 / 854 us at 64 / 256 KiB against the lanes' 72 / 134, and its trial alone costs
// 12-16 minutes of simulation per size class there; the lanes run the same reduce-scatter +
// all-gather between the nodes where it pays); at p = 2 it is two exchanges of half
// the vector where the library's is one of all of it, nothing to save but half the reduction
// work, and its trial against Open MPI's at 4 MiB (0.91: each candidate timed after the others'
// calls, which leave the caches cold) did not hold in later calls back to back (1.09-1.10);
// the lane all-reduces (3, allreduce_lanes.h: n-way in the node and the lane for short
// vectors, multi-lane for long ones), timed where the ranks sit on several nodes of equal size
// (asked from p = 4 on: the node layout is a collective at its first use), and the n-way
// all-reduce (4, End et al. 2015), timed for p > 2 where it can pay (nway_can_pay), and the
// k-nomial reduction and broadcast (7, allreduce_knomial.h), timed for p > 2 up to 64 KiB where
// the lanes do not apply, and the n-port reduce-scatter + all-gather (8,
// allreduce_scatter_gather.h), timed for p > 2 where the lanes do not apply and the n-port
// all-gather's rule finds n ports at least 10% faster than one (nport_reduce_scatter_pays). Forced
// or by the model (answer 1 without a trial): the census where it can pay, else the lane
// all-reduces where they apply, else the reduce-scatter/all-gather; forced with a
// non-commutative operation, the two-tree all-reduce (5).
AllreduceDecision allreduce_decision(const CommInfo& ci, int count, const TypeInfo& type,
                                     bool commutative) {
  const double bytes = static_cast<double>(count) * type.size;
  int answer = 1;
  if (ci.p > 1 && !commutative && settings().allreduce == Settings::Choice::kRosched) {
    AllreduceDecision forced;  // rosched's all-reduce that keeps rank order
    forced.answer = kAllreduceTwoTree;
    return forced;
  }
  const Verdict verdict =
      ci.p == 1      ? Verdict::kRosched  // a copy
      : !commutative ? Verdict::kLibrary
                     : library_verdict(ci, Decided::kAllreduce, settings().allreduce, count,
                                       type.size,
                                       [&] { return ci.p > 2 || census_pays(ci, bytes); },
                                       &answer);
  AllreduceDecision d;
  if (verdict == Verdict::kLibrary) return d;
  d.timed = verdict == Verdict::kTimeBoth;
  d.answer = answer == kAllreduceKnomial ? kAllreduceKnomial
             : answer == kAllreduceNport ? kAllreduceNport
             : answer == 4               ? kAllreduceNway
             : answer == 3 || (answer == 1 && !census_pays(ci, bytes) && lanes_apply(ci, true))
                 ? kAllreduceLanes
             : ci.p > 1 && (answer == 2 || !census_pays(ci, bytes)) ? kAllreduceScatterGather
                                                                    : kAllreduceCensus;
  return d;
}

// Returns what ran, in Rosched_Allreduce_choice's numbers (a trial: its winner).
int allreduce_by_choice(const char* name, const CommInfo& ci, const void* sendbuf, void* recvbuf,
                        int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op) {
  int commutative = 0;
  check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
  const double bytes = static_cast<double>(count) * type.size;
  const auto nway = [&](const void* input) {
    const int n = nway_ports(ci, bytes);
    if (settings().verbose) {
      tell_choice(ci, name, ("n-way, n = " + std::to_string(n)).c_str(), 0, 0, bytes);
    }
    nway_allreduce_on(ci, input, recvbuf, count, datatype, type, op, n);
  };
  const AllreduceDecision decision = allreduce_decision(ci, count, type, commutative);
  if (decision.answer == kAllreduceLibrary) {
    tell_choice(ci, name, "native MPI_Allreduce", 0, 0, bytes);
    check_on(ci.user, PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, ci.user),
             "MPI_Allreduce");
    library_repeat(Decided::kAllreduce).remember(ci, count, datatype, op);
  } else if (decision.timed) {
    // In place, the input is recvbuf, which every trial overwrites: a copy of it is the input of
    // all of them.
    std::optional<ScratchBuffer> input;
    if (sendbuf == MPI_IN_PLACE) {
      local_copy(recvbuf, input.emplace(type, count).data(), count, datatype);
    }
    const void* in = input ? input->data() : sendbuf;
    std::vector<Candidate> candidates = {
        {"native MPI_Allreduce",
         [&] {
           check_on(ci.user, PMPI_Allreduce(in, recvbuf, count, datatype, op, ci.user),
                    "MPI_Allreduce");
         }},
        {"census", nullptr},
        {"reduce-scatter + all-gather", nullptr},
        {"lanes", nullptr},
        {"n-way", nullptr},
        {"two-tree", nullptr},  // answers 5 and 6 are not timed here
        {"node-aware", nullptr},
        {"k-nomial reduction + broadcast", nullptr},
        {"n-port reduce-scatter + all-gather", nullptr}};
    if (census_pays(ci, bytes)) {
      candidates[1].run = [&] { census(ci, in, recvbuf, count, datatype, type, op); };
    }
    const bool lanes = lanes_apply(ci, commutative);
    if (ci.p > 2 && !lanes) {
      candidates[2].run = [&] {
        scatter_gather_allreduce(ci, name, in, recvbuf, count, datatype, type, op);
      };
    }
    if (lanes) {
      candidates[3].run = [&] {
        lane_allreduce_on(ci, name, in, recvbuf, count, datatype, type, op);
      };
    }
    if (ci.p > 2 && nway_can_pay(ci, bytes)) {
      candidates[4].run = [&] { nway(in); };
    }
    if (ci.p > 2 && !lanes && bytes <= kKnomialMaxBytes) {
      candidates[kAllreduceKnomial].run = [&] {
        knomial_allreduce_on(ci, name, in, recvbuf, count, datatype, type, op);
      };
    }
    if (ci.p > 2 && !lanes && nport_reduce_scatter_pays(ci, bytes)) {
      candidates[kAllreduceNport].run = [&] {
        nport_scatter_gather_allreduce(ci, name, in, recvbuf, count, datatype, type, op);
      };
    }
    // ROSCHED_DEBUG: every candidate's result checked where it is exact.
    std::vector<ResultPart> result;
    if (exact_reduction(datatype, op)) result.push_back({recvbuf, count, datatype});
    // The candidates' places are their answers.
    return time_checked_choices(ci, name, Decided::kAllreduce, count, type.size,
                                std::move(candidates), result);
  } else if (decision.answer == kAllreduceTwoTree) {
    two_tree_allreduce_on(ci, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, count,
                          datatype, type, op);
  } else if (decision.answer == kAllreduceNway) {
    nway(sendbuf);
  } else if (decision.answer == kAllreduceKnomial) {
    knomial_allreduce_on(ci, name, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, count,
                         datatype, type, op);
  } else if (decision.answer == kAllreduceLanes) {
    lane_allreduce_on(ci, name, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, count,
                      datatype, type, op);
  } else if (decision.answer == kAllreduceScatterGather) {
    scatter_gather_allreduce(ci, name, sendbuf, recvbuf, count, datatype, type, op);
  } else if (decision.answer == kAllreduceNport) {
    nport_scatter_gather_allreduce(ci, name, sendbuf, recvbuf, count, datatype, type, op);
  } else {
    tell_choice(ci, name, "census", 0, 0, bytes);
    census(ci, sendbuf, recvbuf, count, datatype, type, op);
  }
  return decision.answer;
}

}  // namespace

int chosen_allreduce_on(const CommInfo& ci, const char* name, const void* sendbuf, void* recvbuf,
                        int count, MPI_Datatype datatype, const TypeInfo& type, MPI_Op op) {
  return count > 0 ? allreduce_by_choice(name, ci, sendbuf, recvbuf, count, datatype, type, op)
                   : kNothingRan;
}

}  // namespace rosched::mpi

extern "C" int Rosched_Allreduce_census(const void* sendbuf, void* recvbuf, int count,
                                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective("Rosched_Allreduce_census", comm, [&](const CommInfo& ci) {
    const TypeInfo type =
        check_agreed_reduction(ci.c, sendbuf, recvbuf, count, datatype, op, kCensus);
    if (count > 0) census(ci, sendbuf, recvbuf, count, datatype, type, op);
  });
}

extern "C" int Rosched_Allreduce(const void* sendbuf, void* recvbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  using namespace rosched::mpi;
  const LibraryRepeat& last = library_repeat(Decided::kAllreduce);
  // A repeat of the last call handed to the library, or an inter-communicator: the library's.
  if (last.match(comm, count, datatype, op) || inter_communicator(comm)) {
    return library_ran(Decided::kAllreduce, "Rosched_Allreduce", comm,
                       PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm),
                       "MPI_Allreduce");
  }
  return run_collective("Rosched_Allreduce", comm, [&](const CommInfo& ci) {
    const TypeInfo type = check_agreed_reduction(ci.c, sendbuf, recvbuf, count, datatype, op);
    set_last_run(Decided::kAllreduce, chosen_allreduce_on(ci, "Rosched_Allreduce", sendbuf, recvbuf,
                                                          count, datatype, type, op));
  });
}

extern "C" int Rosched_Allreduce_choice(MPI_Comm comm, int count, MPI_Datatype datatype, MPI_Op op,
                                        int* algorithm) {
  using namespace rosched::mpi;
  if (inter_communicator(comm)) return library_answer("Rosched_Allreduce_choice", comm, algorithm);
  return reduction_choice("Rosched_Allreduce_choice", comm, count, datatype, op, algorithm,
                          [&](const CommInfo& ci, const TypeInfo& type) {
                            int commutative = 0;
                            check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
                            return allreduce_decision(ci, count, type, commutative).answer;
                          });
}
