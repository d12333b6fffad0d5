// Rosched_Bcast: MPI_Bcast by the n-block circulant broadcast, Algorithm 6 of Träff 2022
// (Sec. 2.2), walking sched/circulant/bcast_schedule.h, where it is faster than the MPI
// library's own MPI_Bcast, else that. Rosched_Bcast_circulant always runs the circulant
// broadcast.
//
// The block count is the cost model's optimum (cost_model.h; for a linear model
// n = sqrt((q - 1) beta m / alpha), Träff 2022, Theorem 2). ROSCHED_BCAST_F = F instead sets
// blocks of about F sqrt(m / q) bytes (Träff 2022, Sec. 3.1; the paper used F = 80..120 on its
// cluster). Blocks are whole elements of the user's datatype.
//
// The choice (ROSCHED_BCAST=auto, the default) has two steps:
//  1. The prediction: the circulant broadcast's time with n blocks must be at least 10% below
//     that of a binomial tree, ceil(log2 p) time(m), the algorithm MPI libraries use for short
//     messages; below that a schedule of ceil(log2 p) rounds cannot beat the library's own, so
//     MPI_Bcast runs.
//  2. Where the prediction says circulant, the first broadcast of each size class on a
//     communicator times both, on the caller's own buffer (library_choice.h, time_both), and
//     the faster runs for the class from then on. A call's time is the slowest rank's from a
//     barrier or, where MPI_Wtime is global (SimGrid SMPI), from one instant all ranks agreed
//     on: ranks leave a barrier in an order that can suit one tree more than another (on 36 x 32
//     simulated ranks at 16 KiB the barrier-timed trial saw the library's broadcast 9% faster
//     where from a common start it was 22% slower).
//     The model cannot predict the library's algorithm: on 36 nodes x 32 ranks (SimGrid SMPI)
//     its binomial tree at the model's cross-node message time predicted the library 1.5-1.6x
//     too slow at 16-256 KiB, whose trees over consecutive ranks stay mostly inside nodes.
//     The timed call costs six broadcasts or more (batches of short ones), once per class and
//     communicator.
// ROSCHED_BCAST=model stops after step 1; circulant|native force one.
//
// "The circulant broadcast" above is, on ranks spread over several multicore nodes
// (node_layout.h), the node-aware one (bcast_node_aware.cc: circulant between the nodes, then
// within each). There step 1 is skipped: the model, one figure for every pair of ranks, can
// predict neither it nor the library's (hierarchical or not) broadcast, so every size class's
// first call is timed. Rosched_Bcast_node_aware always runs it, Rosched_Bcast_circulant always
// the flat broadcast.
//
// A call that repeats this thread's last call handed to MPI_Bcast goes straight to it
// (library_choice.h, LibraryRepeat; the root is checked again).
#include <cstdint>

#include "mpi_exec/args.h"
#include "mpi_exec/bcast_node_aware.h"
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/library_choice.h"
#include "mpi_exec/node_layout.h"
#include "mpi_exec/rosched_mpi.h"
#include "sched/circulant/bcast_schedule.h"

namespace rosched::mpi {
namespace {

constexpr double kMinGain = 0.9;  // the circulant time must be below this share of binomial's

// Step 1 of the choice: the cost model's prediction.
bool predicted_to_pay(const CommInfo& ci, int count, const TypeInfo& type) {
  const CostModel& model = cost_model(ci);
  const int q = ceil_log2(ci.p);
  const double bytes = static_cast<double>(count) * type.size;
  const std::int64_t n = pipeline_for(ci, settings().bcast_f, count, type, q - 1, true).n;
  return pipeline_time(model, bytes, q - 1, n) <= kMinGain * q * model.time(bytes);
}

// ROSCHED_BCAST, the memo of the last call, the prediction, then the size class's measured
// answer (library_choice.h). Nothing to send (p = 1, count 0) counts as circulant (it returns
// at once). On several multicore nodes the model (one figure for all pairs) predicts neither
// rosched's node-aware broadcast nor the library's: both are timed.
Verdict verdict(const CommInfo& ci, int count, const TypeInfo& type) {
  if (ci.p == 1 || count == 0 || type.size == 0) return Verdict::kRosched;
  const Settings::Choice choice = settings().bcast;
  return library_verdict(ci, Decided::kBcast, choice, count, type.size, [&] {
    return (choice == Settings::Choice::kAuto && node_layout(ci).hierarchical()) ||
           predicted_to_pay(ci, count, type);
  });
}

// The three entry points: Rosched_Bcast (kChoose), Rosched_Bcast_node_aware (kNodeAware: the
// node-aware broadcast, which is the circulant one on a single node or one rank per node) and
// Rosched_Bcast_circulant (kFlat: the circulant broadcast over all ranks).
enum class Entry { kChoose, kNodeAware, kFlat };

int bcast_by_choice(const char* name, Entry entry, void* buffer, int count,
                    MPI_Datatype datatype, int root, MPI_Comm comm) {
  return run_collective(name, comm, [&](const CommInfo& ci) {
    const TypeInfo type = check_bcast_args(ci, count, datatype, root);
    if (entry == Entry::kFlat) {
      pipelined_bcast_on<BcastSchedule>(ci, name, settings().bcast_f, true, buffer, count,
                                        datatype, type, root);
      return;
    }
    if (entry == Entry::kChoose) {
      switch (verdict(ci, count, type)) {
        case Verdict::kLibrary:
          tell_choice(ci, name, "native MPI_Bcast", 0, 0, static_cast<double>(count) * type.size);
          check(PMPI_Bcast(buffer, count, datatype, root, ci.c), "MPI_Bcast");
          library_repeat(Decided::kBcast).remember(comm, ci, count, datatype, MPI_OP_NULL);
          return;
        case Verdict::kTimeBoth:
          // A broadcast is idempotent: the later calls deliver the bytes the first did.
          node_aware_bcast_prepare(ci, root);
          time_both(
              ci, name, Decided::kBcast, count, type.size, "native MPI_Bcast", "circulant",
              [&] { check(PMPI_Bcast(buffer, count, datatype, root, ci.c), "MPI_Bcast"); },
              [&] { node_aware_bcast_on(ci, name, buffer, count, datatype, type, root); });
          return;
        case Verdict::kRosched:
          break;
      }
    }
    node_aware_bcast_on(ci, name, buffer, count, datatype, type, root);
  });
}

}  // namespace
}  // namespace rosched::mpi

extern "C" int Rosched_Bcast(void* buffer, int count, MPI_Datatype datatype, int root,
                             MPI_Comm comm) {
  using namespace rosched::mpi;
  const LibraryRepeat& last = library_repeat(Decided::kBcast);
  if (const MPI_Comm dup = last.match(comm, count, datatype, MPI_OP_NULL);
      dup != MPI_COMM_NULL && root >= 0 && root < last.p()) {
    const int rc = PMPI_Bcast(buffer, count, datatype, root, dup);
    return rc == MPI_SUCCESS ? rc : report_call("Rosched_Bcast", comm, rc, "MPI_Bcast");
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
                                    int* circulant) {
  return rosched::mpi::run_collective("Rosched_Bcast_choice", comm, [&](const auto& ci) {
    if (circulant == nullptr) {
      throw rosched::mpi::Error(MPI_ERR_ARG, "circulant is a null pointer");
    }
    const rosched::mpi::TypeInfo type = rosched::mpi::check_bcast_args(ci, count, datatype, 0);
    *circulant = rosched::mpi::verdict(ci, count, type) != rosched::mpi::Verdict::kLibrary ? 1 : 0;
  });
}
