// Rosched_Bcast: MPI_Bcast by the n-block circulant broadcast, Algorithm 6 of Träff 2022
// (Sec. 2.2), walking sched/circulant/bcast_schedule.h, where the cost model (cost_model.h)
// predicts it pays, else the MPI library's own MPI_Bcast. Rosched_Bcast_circulant always runs
// the circulant broadcast.
//
// The block count is the cost model's optimum (cost_model.h; for a linear model
// n = sqrt((q - 1) beta m / alpha), Träff 2022, Theorem 2). ROSCHED_BCAST_F = F instead sets
// blocks of about F sqrt(m / q) bytes (Träff 2022, Sec. 3.1; the paper used F = 80..120 on its
// cluster). Blocks are whole elements of the user's datatype.
//
// The choice (ROSCHED_BCAST=auto, the default): the circulant broadcast where its predicted
// time with n blocks is at least 10% below that of a binomial tree, ceil(log2 p) time(m),
// the algorithm MPI libraries use for short messages; below that a schedule of ceil(log2 p)
// rounds cannot beat the library's own, so MPI_Bcast runs. ROSCHED_BCAST=circulant|native
// forces one.
#include "mpi_exec/bcast_rounds.h"
#include "mpi_exec/rosched_mpi.h"
#include "sched/circulant/bcast_schedule.h"

namespace rosched::mpi {
namespace {

constexpr double kMinGain = 0.9;  // the circulant time must be below this share of binomial's

bool circulant_pays(const CommInfo& ci, int count, const TypeInfo& type) {
  // The last decision on this communicator: a program calls the same broadcast again and again.
  DecisionMemo& memo = decision_memo(ci);
  bool pays = false;
  if (memo.find(count, type.size, &pays)) return pays;
  const CostModel& model = cost_model(ci);
  const int q = ceil_log2(ci.p);
  const double bytes = static_cast<double>(count) * type.size;
  const std::int64_t n = pipeline_for(ci, settings().bcast_f, count, type, q - 1).n;
  pays = pipeline_time(model, bytes, q - 1, n) <= kMinGain * q * model.time(bytes);
  memo.store(count, type.size, pays);
  return pays;
}

// Whether Rosched_Bcast runs the circulant broadcast (else MPI_Bcast): ROSCHED_BCAST, then the
// cost model. Nothing to send (p = 1, count 0) counts as circulant (it returns at once).
bool runs_circulant(const CommInfo& ci, int count, const TypeInfo& type) {
  const Settings::Choice choice = settings().bcast;
  if (choice == Settings::Choice::kCirculant || ci.p == 1 || count == 0 || type.size == 0) {
    return true;
  }
  return choice != Settings::Choice::kNative && circulant_pays(ci, count, type);
}

int bcast_by_choice(const char* name, bool may_delegate, void* buffer, int count,
                    MPI_Datatype datatype, int root, MPI_Comm comm) {
  return run_collective(name, comm, [&](const CommInfo& ci) {
    const TypeInfo type = check_bcast_args(ci, count, datatype, root);
    if (may_delegate) {
      const double bytes = static_cast<double>(count) * type.size;
      if (!runs_circulant(ci, count, type)) {
        tell_choice(ci, name, "native MPI_Bcast", 0, 0, bytes);
        check(PMPI_Bcast(buffer, count, datatype, root, ci.c), "MPI_Bcast");
        return;
      }
    }
    pipelined_bcast_on<BcastSchedule>(ci, name, settings().bcast_f, buffer, count, datatype,
                                      type, root);
  });
}

}  // namespace
}  // namespace rosched::mpi

extern "C" int Rosched_Bcast(void* buffer, int count, MPI_Datatype datatype, int root,
                             MPI_Comm comm) {
  return rosched::mpi::bcast_by_choice("Rosched_Bcast", true, buffer, count, datatype, root,
                                       comm);
}

extern "C" int Rosched_Bcast_circulant(void* buffer, int count, MPI_Datatype datatype, int root,
                                       MPI_Comm comm) {
  return rosched::mpi::bcast_by_choice("Rosched_Bcast_circulant", false, buffer, count, datatype,
                                       root, comm);
}

extern "C" int Rosched_Bcast_choice(MPI_Comm comm, int count, MPI_Datatype datatype,
                                    int* circulant) {
  return rosched::mpi::run_collective("Rosched_Bcast_choice", comm, [&](const auto& ci) {
    if (circulant == nullptr) {
      throw rosched::mpi::Error(MPI_ERR_ARG, "circulant is a null pointer");
    }
    const rosched::mpi::TypeInfo type = rosched::mpi::check_bcast_args(ci, count, datatype, 0);
    *circulant = rosched::mpi::runs_circulant(ci, count, type) ? 1 : 0;
  });
}
