// Rosched_Allreduce_nway, Rosched_Iallreduce_nway, Rosched_Test, Rosched_Wait,
// Rosched_Set_nway: the n-way dissemination allreduce (End et al. 2015, Sec. III-IV, with the
// last-round rules of sched/nway/nway_plan.h) over mpi_exec/nway_allreduce.h. The split-phase
// form returns this library's own request object, progressed only inside Rosched_Test and
// Rosched_Wait (as the paper's GASPI allreduce progresses only inside its calls).
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "mpi_exec/args.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/nway_allreduce.h"
#include "mpi_exec/rosched_mpi.h"

struct Rosched_Request_s {
  MPI_Comm comm;  // the user's, for its error handler
  std::unique_ptr<rosched::mpi::NwayAllreduce> op;  // null: already complete
};

namespace rosched::mpi {
namespace {

// MPI_Allreduce's argument rules and a commutative operation, then n; nothing (no operation to
// run) for count 0.
struct Start {
  TypeInfo type;
  int n = 1;
};
std::optional<Start> prepare(const void* sendbuf, const void* recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op, const CommInfo& ci) {
  const TypeInfo type = check_agreed_reduction(ci.c, sendbuf, recvbuf, count, datatype, op,
                                               "the n-way allreduce");
  if (count == 0) return std::nullopt;
  return Start{type, nway_ports(ci, static_cast<double>(count) * type.size)};
}

// Runs make() (which constructs an NwayAllreduce for the split phase; the blocking call's
// nway_allreduce_on does the same): the paper rule without a tuple for p and n is MPI_ERR_ARG.
template <typename Make>
auto construct(Make&& make) -> decltype(make()) {
  try {
    return make();
  } catch (const std::invalid_argument& e) {
    throw Error(MPI_ERR_ARG, e.what());
  }
}

}  // namespace
}  // namespace rosched::mpi

extern "C" int Rosched_Allreduce_nway(const void* sendbuf, void* recvbuf, int count,
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective("Rosched_Allreduce_nway", comm, [&](const CommInfo& ci) {
    const std::optional<Start> s = prepare(sendbuf, recvbuf, count, datatype, op, ci);
    if (!s) return;
    nway_allreduce_on(ci, sendbuf, recvbuf, count, datatype, s->type, op, s->n);
  });
}

extern "C" int Rosched_Iallreduce_nway(const void* sendbuf, void* recvbuf, int count,
                                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                       Rosched_Request* request) {
  using namespace rosched::mpi;
  return run_collective("Rosched_Iallreduce_nway", comm, [&](const CommInfo& ci) {
    if (!request) throw Error(MPI_ERR_REQUEST, "request is NULL");
    *request = ROSCHED_REQUEST_NULL;
    std::unique_ptr<NwayAllreduce> running;
    if (const std::optional<Start> s = prepare(sendbuf, recvbuf, count, datatype, op, ci)) {
      running = construct([&] {
        return std::make_unique<NwayAllreduce>(sendbuf, recvbuf, count, datatype, s->type, op, ci,
                                               s->n, nway_rule());
      });
      running->progress();  // the first round's messages go out now
    }
    *request = new Rosched_Request_s{comm, std::move(running)};
  });
}

namespace {

// Progresses *request (blocking if wait); on completion or error frees it and sets it to
// ROSCHED_REQUEST_NULL. Errors go to the handler of the communicator the call was started on.
int advance(const char* name, Rosched_Request* request, int* flag, bool wait) {
  using namespace rosched::mpi;
  // Not collective: reported to MPI_COMM_WORLD's handler without touching the communicator.
  if (!request) return report(name, MPI_COMM_WORLD, MPI_ERR_REQUEST, "request is NULL");
  if (flag) *flag = 1;
  Rosched_Request r = *request;
  if (r == ROSCHED_REQUEST_NULL) return MPI_SUCCESS;
  bool done = false;
  const int rc = run_collective(name, r->comm, [&](const CommInfo&) {
    if (!r->op) {
      done = true;
    } else if (wait) {
      r->op->finish();
      done = true;
    } else {
      done = r->op->progress();
    }
  });
  if (rc != MPI_SUCCESS || done) {
    delete r;
    *request = ROSCHED_REQUEST_NULL;
  } else if (flag) {
    *flag = 0;
  }
  return rc;
}

}  // namespace

extern "C" int Rosched_Test(Rosched_Request* request, int* flag) {
  if (!flag) return rosched::mpi::report("Rosched_Test", MPI_COMM_WORLD, MPI_ERR_ARG, "flag is NULL");
  return advance("Rosched_Test", request, flag, false);
}

extern "C" int Rosched_Wait(Rosched_Request* request) {
  return advance("Rosched_Wait", request, nullptr, true);
}

extern "C" int Rosched_Set_nway(int n, const char* rule) {
  try {
    rosched::mpi::set_nway(n, rule);
    return MPI_SUCCESS;
  } catch (const rosched::mpi::Error& e) {
    return rosched::mpi::report("Rosched_Set_nway", MPI_COMM_WORLD, e.mpi_class(), e.what());
  }
}

extern "C" int Rosched_Nway_ports(MPI_Comm comm, long long bytes, int* n) {
  using namespace rosched::mpi;
  return run_collective("Rosched_Nway_ports", comm, [&](const CommInfo& ci) {
    if (!n) throw Error(MPI_ERR_ARG, "n is NULL");
    if (bytes < 0) throw Error(MPI_ERR_COUNT, "bytes = " + std::to_string(bytes) + " is negative");
    *n = nway_ports(ci, static_cast<double>(bytes));
  });
}
