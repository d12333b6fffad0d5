// Rosched_Bcast: MPI_Bcast by the n-block circulant broadcast, Algorithm 6 of Träff 2022
// (Sec. 2.2), walking sched/circulant/bcast_schedule.h, or by another of rosched's broadcasts
// (Jia's hypercube, the two trees, the k-ary tree, the scatter + all-gather) where one of them is
// faster than the MPI library's own MPI_Bcast, else that. Rosched_Bcast_circulant always runs
// the circulant broadcast.
//
// rosched's broadcasts run on the message's bytes (message_bytes.h: ranks may pass different
// datatypes of one type signature), and every decision below is taken on the byte count.
//
// The block count is the cost model's optimum (cost_model.h; for a linear model
// n = sqrt((q - 1) beta m / alpha), Träff 2022, Theorem 2). ROSCHED_BCAST_F = F instead sets
// blocks of about F sqrt(m / q) bytes (Träff 2022, Sec. 3.1; the paper used F = 80..120 on its
// cluster). Blocks are cut at bytes, not at the user's elements (message_bytes.h).
//
// The choice (ROSCHED_BCAST=auto, the default) has two steps:
//  1. The prediction: the circulant broadcast's time with n blocks must be no more than that
//     of a binomial tree, ceil(log2 p) time(m), the algorithm MPI libraries use for short
//     messages; above it MPI_Bcast runs. At equal time (short messages: one block, ceil(log2 p)
//     rounds either way) the trial of step 2 decides: on the paper's 36 nodes x 1 rank (SimGrid
//     SMPI) the circulant broadcast took 0.80 of the fastest library's time from 4 B to 1 KiB.
//     At p = 2, where every broadcast is one message, it must be 10% below: no trial there.
//  2. Where the prediction says circulant, the first broadcast of each size class on a
//     communicator times the library's against rosched's three (the circulant, Bin Jia's
//     hypercube and the two-tree broadcast), on the caller's own buffer (library_choice.h,
//     time_choices), and the fastest runs for the class from then on. All three take about the
//     same time by the model (the same rounds, or twice the rounds of half the blocks), but not
//     on a network that all ranks share: at 1,152 ranks on SMPI's `flat` platform, whose
//     backbone carries a seventh of what the ranks' links can send at once, the hypercube
//     broadcast took 0.87 of the circulant's time at 256 KiB, the two trees 0.78 at 1 MiB. On a
//     single node or one rank per node (p > 2) all three are timed, and where the ranks share a
//     network narrower than their links (the model's crowding at least 2) also the pipelined
//     k-ary tree (bcast_kary_tree.cc), whose k sends at once cost a rank no more than one
//     there and which pays a block's latency once per level, not once per round: on `flat`
//     with 1,152 ranks it took 0.66 of Open MPI's selector's time at 1 MiB (the fastest of
//     the four there) where the two trees took 0.82 (docs/sim/first_runs.md, "The k-ary
//     tree"); elsewhere (crowding below 2, every rank's block an element) also the scatter +
//     all-gather (bcast_scatter_allgather.cc), whose streamed all-gather rounds need no block
//     of the round before: on the paper's 36 x 1 0.61 of the circulant broadcast's time at
//     1 MiB (docs/sim/reduce_scatter_gather.md); up to 64 KiB also the k-nomial tree of one
//     block (bcast_knomial.cc), whose ceil(log_{n+1} p) levels of n sends at once are fewer
//     than a k-ary tree's levels of as many sends; on several multicore nodes the node-aware
//     circulant broadcast and, where every node's block holds an element, the node-aware
//     broadcast with the scatter + all-gather between the nodes, up to 64 KiB with the
//     k-nomial tree between the nodes; at p = 2 the three are one message. Where the circulant
//     pipeline sends synchronously (on several nodes: between the nodes), it is also timed with 1,
//     3 and 4 rounds in flight: the best window depends on the schedule and the network more than
//     the model tells (on SimGrid's `paper` 36 x 1, 64 KiB took 37.3 us with 4 where the model's 2
//     took 49.5, on 36 x 32 47.7 us where it took 60.0; on `flatnb` at p = 256, 256 KiB 157.1 us
//     with 1 where 2 took 200.2). A call's time is the slowest rank's from a barrier or, where
//     MPI_Wtime is global (SimGrid SMPI), from one instant all ranks agreed on: ranks leave a
//     barrier in an order that can suit one tree more than another (on 36 x 32 simulated ranks at
//     16 KiB the barrier-timed trial saw the library's broadcast 9% faster where from a common
//     start it was 22% slower). The model cannot predict the library's algorithm: on 36 nodes x 32
//     ranks (SimGrid SMPI) its binomial tree at the model's cross-node message time predicted the
//     library 1.5-1.6x too slow at 16-256 KiB, whose trees over consecutive ranks stay mostly
//     inside nodes. The timed call costs six broadcasts per candidate or more (batches of short
//     ones), once per class and communicator.
// ROSCHED_BCAST=model stops after step 1; circulant|native force one.
//
// "The circulant broadcast" above is, on ranks spread over several multicore nodes
// (node_layout.h), the node-aware one (bcast_node_aware.cc: circulant between the nodes, then
// within each), and in each phase (all ranks where there are no nodes) a k-ary tree of one
// block where the model predicts that faster than the circulant pipeline (sub_bcast_on; step 1
// then predicts with the tree's time). On several nodes step 1 is skipped: the model, one
// figure for every pair of ranks, can predict neither it nor the library's (hierarchical or
// not) broadcast, so every size class's
// first call is timed. Rosched_Bcast_node_aware always runs it, Rosched_Bcast_circulant always
// the flat broadcast.
//
// A call that repeats this thread's last call handed to MPI_Bcast goes straight to it
// (library_choice.h, LibraryRepeat; the root is checked again).
#include <array>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "mpi_exec/args.h"
#include "mpi_exec/bcast_choice.h"
#include "mpi_exec/bcast_kary_tree.h"
#include "mpi_exec/bcast_knomial.h"
#include "mpi_exec/bcast_node_aware.h"
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/last_run.h"
#include "mpi_exec/library_choice.h"
#include "mpi_exec/node_layout.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/trial_check.h"
#include "sched/circulant/bcast_schedule.h"
#include "sched/hypercube/hypercube_schedule.h"
#include "sched/two_tree/two_tree_schedule.h"

namespace rosched::mpi {
namespace {

// The circulant time must be at most this share of binomial's (p = 2: kMinGainPair).
constexpr double kMinGain = 1.0;
constexpr double kMinGainPair = 0.9;

// Step 1 of the choice: the cost model's prediction.
bool predicted_to_pay(const CommInfo& ci, int count, const TypeInfo& type) {
  const CostModel& model = cost_model(ci);
  const int q = ceil_log2(ci.p);
  const double bytes = static_cast<double>(count) * type.size;
  const double gain = ci.p == 2 ? kMinGainPair : kMinGain;
  // The circulant broadcast's pipeline, or the one-block tree that takes its place where the
  // model predicts that faster: what the one phase over all ranks runs (bcast_node_aware.h).
  return phase_plan(ci, count, type).seconds <= gain * q * model.time(bytes);
}

// Rosched's broadcasts in the choice, as answers of library_verdict (0 is MPI_Bcast). The last
// three are the circulant broadcast (node-aware: its phase between the nodes) with 1, 3 or 4
// rounds in flight instead of the cost model's (synchronous_window): which is fastest depends
// on how the schedule's rounds pass blocks on and on the network, more than the model's
// figures tell (docs/sim/refinements.md, "Rounds in flight of the synchronous circulant
// broadcast, timed").
// clang-format off
enum Family {
  kCirculant = 1, kHypercube = 2, kTwoTree = 3, kKaryTree = 4, kScatterAllgather = 5,
  kKnomial = 6, kCirculantWindow1 = 7, kCirculantWindow3 = 8, kCirculantWindow4 = 9
};
// clang-format on
static_assert(kCirculantWindow4 <= kMaxAnswer, "every family is an answer");
constexpr std::array<int, 3> kTrialWindows = {1, 3, 4};
constexpr std::array<const char*, 3> kTrialWindowNames = {
    "circulant, 1 round in flight", "circulant, 3 rounds in flight",
    "circulant, 4 rounds in flight"};

bool is_window_variant(int family) {
  return family >= kCirculantWindow1 && family <= kCirculantWindow4;
}

// Rosched_Bcast_choice's answer for a family (0: MPI_Bcast): a window variant is the circulant
// broadcast.
int family_answer(int family) { return is_window_variant(family) ? kCirculant : family; }

// Where the k-ary tree is a candidate: the model's crowding from this on (a flow gets half a
// link or less when all ranks send).
constexpr double kKaryCrowding = 2;

// ROSCHED_BCAST, the memo of the last call, the prediction, then the size class's measured
// answer (library_choice.h), all on the message's bytes (`units`, byte_units of them: the same
// on every rank); *family: which of rosched's runs where that does. Nothing to send (p = 1, no
// bytes) counts as circulant (it returns at once); bytes that no unit counts in an int go to the
// library. On several multicore nodes the model (one figure for all pairs) predicts neither
// rosched's node-aware broadcast nor the library's: both are timed.
Verdict verdict(const CommInfo& ci, const ByteUnits& units, int* family) {
  *family = kCirculant;
  if (ci.p == 1 || (units.ok && units.count == 0)) return Verdict::kRosched;
  const Settings::Choice choice = settings().bcast;
  if (!units.ok && choice != Settings::Choice::kRosched) return Verdict::kLibrary;
  return library_verdict(
      ci, Decided::kBcast, choice, units.count, units.info.size,
      [&] {
        return (choice == Settings::Choice::kAuto && node_layout(ci).hierarchical()) ||
               predicted_to_pay(ci, units.count, units.info);
      },
      family);
}

// Runs rosched's broadcast `family` (the circulant one: node-aware where the layout has it) for
// Rosched_Bcast (`name`; ROSCHED_VERBOSE names the other families), each planned on the
// message's bytes and cut at them (bcast_planned, bcast_rounds.h).
void run_family(int family, const CommInfo& ci, const char* name, void* buffer, int count,
                MPI_Datatype datatype, const TypeInfo& type, int root) {
  const Settings& s = settings();
  if (is_window_variant(family)) {
    // The circulant pipeline over all ranks, or between the nodes, with the trial's window.
    node_aware_bcast_on(ci, name, buffer, count, datatype, type, root,
                        {kTrialWindows[family - kCirculantWindow1], false});
    return;
  }
  switch (family) {
    case kHypercube:
      pipelined_bcast_on<HypercubeBcastSchedule>(ci, "Rosched_Bcast (hypercube)", s.hypercube_f,
                                                 true, buffer, count, datatype, type, root);
      return;
    case kTwoTree:
      pipelined_bcast_on<TwoTreeBcastSchedule>(ci, "Rosched_Bcast (two-tree)", s.twotree_f,
                                               false, buffer, count, datatype, type, root);
      return;
    case kKaryTree:
      kary_tree_bcast_on(ci, "Rosched_Bcast (k-ary tree)", buffer, count, datatype, type, root);
      return;
    case kKnomial:
      if (node_layout(ci).hierarchical()) {  // between the nodes, then within each as planned
        node_aware_bcast_on(ci, name, buffer, count, datatype, type, root, {0, false, true});
      } else {
        knomial_bcast_on(ci, "Rosched_Bcast (k-nomial tree)", buffer, count, datatype, type, root);
      }
      return;
    case kScatterAllgather:
      // Over all ranks, or between the nodes and then within each node as planned.
      node_aware_bcast_on(ci, name, buffer, count, datatype, type, root, {0, true});
      return;
    default:
      node_aware_bcast_on(ci, name, buffer, count, datatype, type, root);
  }
}

// The size class's trial: MPI_Bcast against the node-aware broadcast on several multicore
// nodes (up to kKnomialMaxBytes also with the k-nomial tree between the nodes), else against the
// circulant, hypercube and two-tree broadcasts, up to kKnomialMaxBytes the k-nomial tree and, where
// the model's crowding is at least kKaryCrowding, the k-ary tree, elsewhere the scatter +
// all-gather; at p = 2 all are one message: the circulant alone. Unless ROSCHED_WINDOW sets the
// window, also the circulant pipeline with 1, 3 and 4 rounds in flight: over all ranks where it
// sends synchronously (those windows that are not timed already: the model's, unless the model
// takes a one-block tree instead of the pipeline); on several nodes, the node-aware broadcast with
// that window between the nodes (all three: only the ranks of a lane have the model that tells
// whether the lane's pipeline sends synchronously; where it does not, the variant runs as the
// node-aware broadcast). A broadcast is idempotent: the later calls deliver the bytes the first
// did. The candidates and the size class are the bytes' (`units`).
// Returns the winner (0: MPI_Bcast).
int time_families(const CommInfo& ci, const char* name, void* buffer, int count,
                  MPI_Datatype datatype, const TypeInfo& type, const ByteUnits& units, int root) {
  node_aware_bcast_prepare(ci, root);
  // ROSCHED_DEBUG: every candidate's bytes checked on the ranks that receive them.
  std::vector<ResultPart> result;
  if (ci.rank != root) result.push_back({buffer, count, datatype});
  const auto time = [&](std::vector<Candidate>& candidates) {
    return time_checked_choices(ci, name, Decided::kBcast, units.count, units.info.size,
                                std::move(candidates), result);
  };
  const auto family = [&](int f) -> std::function<void()> {
    return [&, f] { run_family(f, ci, name, buffer, count, datatype, type, root); };
  };
  std::vector<Candidate> candidates = {
      {"native MPI_Bcast",
       [&] {
         check_on(ci.user, PMPI_Bcast(buffer, count, datatype, root, ci.user), "MPI_Bcast");
       }},
      {"circulant", family(kCirculant), 1}};
  const bool hierarchical = node_layout(ci).hierarchical();
  if (ci.p <= 2) return time(candidates);
  const bool kary = !hierarchical && cost_model(ci).crowding >= kKaryCrowding;
  candidates.push_back({"hypercube", hierarchical ? nullptr : family(kHypercube), 1});
  candidates.push_back({"two-tree", hierarchical ? nullptr : family(kTwoTree), 1});
  candidates.push_back({"k-ary tree", kary ? family(kKaryTree) : nullptr, 1});
  // The scatter + all-gather where the ranks' own links limit (a network all ranks share moves
  // the message once more in it than a broadcast must: there the k-ary tree is the candidate),
  // every rank's block holding an element; on several nodes as the phase between the nodes
  // (one rank of each, on its node's own link), every node's block holding an element.
  const bool scatter =
      hierarchical ? units.count >= node_layout(ci).nodes : !kary && units.count >= ci.p;
  candidates.push_back({"scatter + all-gather", scatter ? family(kScatterAllgather) : nullptr, 1});
  // The k-nomial tree of one block for short messages (on several nodes: between the nodes).
  const bool knomial = static_cast<double>(units.count) * units.info.size <= kKnomialMaxBytes;
  candidates.push_back({"k-nomial tree", knomial ? family(kKnomial) : nullptr, 1});
  const PhasePlan plan = hierarchical ? PhasePlan{} : phase_plan(ci, units.count, units.info);
  const bool windows =
      settings().window == 0 && (hierarchical || (plan.pipe.n > 0 && plan.pipe.synchronous));
  for (int f = kCirculantWindow1; f <= kCirculantWindow4; ++f) {
    const int k = f - kCirculantWindow1;
    // The model's own window is timed as "circulant" unless that is a one-block tree.
    const bool timed =
        windows && (hierarchical || plan.degree >= 2 || kTrialWindows[k] != plan.pipe.window);
    candidates.push_back({kTrialWindowNames[k], timed ? family(f) : nullptr, 1});
  }
  return time(candidates);
}

// The three entry points: Rosched_Bcast (kChoose), Rosched_Bcast_node_aware (kNodeAware: the
// node-aware broadcast, which is the circulant one on a single node or one rank per node) and
// Rosched_Bcast_circulant (kFlat: the circulant broadcast over all ranks).
enum class Entry { kChoose, kNodeAware, kFlat };

int bcast_by_choice(const char* name, Entry entry, void* buffer, int count,
                    MPI_Datatype datatype, int root, MPI_Comm comm) {
  return run_collective(name, comm, [&](const CommInfo& ci) {
    const TypeInfo type = check_bcast_args(ci, count, datatype, root);
    switch (entry) {
      case Entry::kFlat:
        pipelined_bcast_on<BcastSchedule>(ci, name, settings().bcast_f, true, buffer, count,
                                          datatype, type, root);
        return;
      case Entry::kNodeAware:
        run_family(kCirculant, ci, name, buffer, count, datatype, type, root);
        return;
      case Entry::kChoose:
        set_last_run(Decided::kBcast,
                     chosen_bcast_on(ci, name, buffer, count, datatype, type, root));
    }
  });
}

}  // namespace

int chosen_bcast_on(const CommInfo& ci, const char* name, void* buffer, int count,
                    MPI_Datatype datatype, const TypeInfo& type, int root) {
  int family = kCirculant;
  const ByteUnits units = message_units(count, type);
  switch (verdict(ci, units, &family)) {
    case Verdict::kLibrary:
      tell_choice(ci, name, "native MPI_Bcast", 0, 0, static_cast<double>(count) * type.size);
      check_on(ci.user, PMPI_Bcast(buffer, count, datatype, root, ci.user), "MPI_Bcast");
      library_repeat(Decided::kBcast).remember(ci, count, datatype, MPI_OP_NULL);
      return 0;
    case Verdict::kTimeBoth:
      return family_answer(time_families(ci, name, buffer, count, datatype, type, units, root));
    case Verdict::kRosched:
      run_family(family, ci, name, buffer, count, datatype, type, root);
  }
  return family_answer(family);
}

}  // namespace rosched::mpi

extern "C" int Rosched_Bcast(void* buffer, int count, MPI_Datatype datatype, int root,
                             MPI_Comm comm) {
  using namespace rosched::mpi;
  const LibraryRepeat& last = library_repeat(Decided::kBcast);
  // A repeat of the last call handed to the library, or an inter-communicator: the library's.
  if ((last.match(comm, count, datatype, MPI_OP_NULL) && root >= 0 && root < last.p()) ||
      inter_communicator(comm)) {
    return library_ran(Decided::kBcast, "Rosched_Bcast", comm,
                       PMPI_Bcast(buffer, count, datatype, root, comm), "MPI_Bcast");
  }
  return rosched::mpi::bcast_by_choice("Rosched_Bcast", rosched::mpi::Entry::kChoose, buffer,
                                       count, datatype, root, comm);
}

extern "C" int Rosched_Bcast_node_aware(void* buffer, int count, MPI_Datatype datatype, int root,
                                        MPI_Comm comm) {
  return rosched::mpi::bcast_by_choice("Rosched_Bcast_node_aware",
                                       rosched::mpi::Entry::kNodeAware, buffer, count, datatype,
                                       root, comm);
}

extern "C" int Rosched_Bcast_circulant(void* buffer, int count, MPI_Datatype datatype, int root,
                                       MPI_Comm comm) {
  return rosched::mpi::bcast_by_choice("Rosched_Bcast_circulant", rosched::mpi::Entry::kFlat,
                                       buffer, count, datatype, root, comm);
}

extern "C" int Rosched_Bcast_choice(MPI_Comm comm, int count, MPI_Datatype datatype,
                                    int* algorithm) {
  if (rosched::mpi::inter_communicator(comm)) {
    return rosched::mpi::library_answer("Rosched_Bcast_choice", comm, algorithm);
  }
  return rosched::mpi::run_collective("Rosched_Bcast_choice", comm, [&](const auto& ci) {
    if (algorithm == nullptr) {
      throw rosched::mpi::Error(MPI_ERR_ARG, "algorithm is a null pointer");
    }
    const rosched::mpi::TypeInfo type = rosched::mpi::check_bcast_args(ci, count, datatype, 0);
    int family = 0;
    const bool ours = rosched::mpi::verdict(ci, rosched::mpi::message_units(count, type),
                                            &family) != rosched::mpi::Verdict::kLibrary;
    *algorithm = ours ? rosched::mpi::family_answer(family) : 0;
  });
}
