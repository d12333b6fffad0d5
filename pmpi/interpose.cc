// librosched_pmpi.so: MPI_Bcast, MPI_Allgather, MPI_Allgatherv, MPI_Reduce, MPI_Allreduce,
// MPI_Reduce_scatter_block, MPI_Reduce_scatter, MPI_Alltoall and MPI_Alltoallv for unmodified
// MPI programs, through MPI's profiling interface
// (MPI 3.1, Chapter 14): this library defines the MPI_ names, so a program linked against it
// (or run with it in LD_PRELOAD) calls these; each call goes either to rosched's collective or
// to the MPI library's own, the PMPI_ function, by the rule of policy.h. rosched's collectives
// themselves make only PMPI_ calls, so nothing recurses, and a profiler that also intercepts
// MPI_ names sees each collective once. MPI_Finalize is intercepted for the report
// (ROSCHED_PMPI_REPORT, report.h).
//
// A control variable that cannot be parsed is reported on stderr and aborts the job at the
// first intercepted call (MPI_Abort), rather than silently running something else.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "mpi_exec/last_run.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/node_layout.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/settings.h"
#include "pmpi/policy.h"
#include "pmpi/report.h"

namespace rosched::pmpi {
namespace {

struct State {
  Controls controls;
  bool print_report = false;
  std::string tsv_path;
  std::string mode = "auto";
  bool counting = false;  // a report is wanted: count and time the calls
};

const State& state() {
  static const State s = [] {
    State st;
    const char* mode = std::getenv("ROSCHED_PMPI");
    const std::string error = parse_controls(mode, std::getenv("ROSCHED_PMPI_ONLY"),
                                             std::getenv("ROSCHED_PMPI_THRESHOLD"), st.controls);
    if (!error.empty()) {
      std::fprintf(stderr, "rosched_pmpi: %s\n", error.c_str());
      PMPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (mode != nullptr && *mode != '\0') st.mode = mode;
    st.print_report = rosched::mpi::env_flag("ROSCHED_PMPI_REPORT");
    if (const char* tsv = std::getenv("ROSCHED_PMPI_REPORT_TSV")) st.tsv_path = tsv;
    st.counting = st.print_report || !st.tsv_path.empty();
    return st;
  }();
  return s;
}

// Size and layout of `count` elements of a datatype; bytes -1 where MPI would reject the
// arguments (auto then leaves the call, and its error, to the MPI library).
struct TypeFacts {
  std::int64_t size = -1;
  bool contiguous = false;
};
TypeFacts asked_type_facts(MPI_Datatype t) {
  TypeFacts f;
  if (t == MPI_DATATYPE_NULL) return f;
  int size = 0;
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  if (PMPI_Type_size(t, &size) != MPI_SUCCESS ||
      PMPI_Type_get_extent(t, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent(t, &true_lb, &true_extent) != MPI_SUCCESS) {
    return f;
  }
  f.size = size;
  f.contiguous = lb == 0 && true_lb == 0 && extent == size && true_extent == size;
  return f;
}

std::int64_t times(int count, const TypeFacts& t) {
  return count < 0 || t.size < 0 ? -1 : static_cast<std::int64_t>(count) * t.size;
}

// p and whether comm is an inter-communicator; MPI_COMM_NULL counts as one (the MPI library
// reports the error).
CallFacts asked_comm_facts(MPI_Comm comm) {
  CallFacts f;
  if (comm == MPI_COMM_NULL) {
    f.intercomm = true;
    return f;
  }
  int inter = 0;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) {
    f.intercomm = true;
    return f;
  }
  PMPI_Comm_size(comm, &f.p);
  return f;
}

// The facts of the handles that never change meaning, asked of MPI once per process: the
// predefined communicators (never freed, their sizes fixed) and the common predefined datatypes
// and operations (all commutative). Every other handle is asked at each call: a freed handle can
// come back meaning another object. Per call this saves six queries of the MPI library: an
// interposed MPI_Bcast of 4 B at p = 2 took 68 ns against 74 before, 49 without the interposer
// (Open MPI 4.1, bench/call_overhead, the shortest of three runs; docs/tools.md).
// Not under SimGrid SMPI, where MPI_COMM_WORLD is each simulated process's own.
struct KnownHandles {
  CallFacts world, self;
  std::vector<std::pair<MPI_Datatype, TypeFacts>> types;
  std::vector<MPI_Op> ops;
};

const KnownHandles* known_handles() {
#ifdef SMPI_H
  return nullptr;
#else
  static const KnownHandles* const known = []() -> const KnownHandles* {
    int initialized = 0, finalized = 0;
    PMPI_Initialized(&initialized);
    PMPI_Finalized(&finalized);
    if (!initialized || finalized) return nullptr;  // the library reports the call's error
    auto* k = new KnownHandles;  // kept for the process's life, as MPI's own handles are
    k->world = asked_comm_facts(MPI_COMM_WORLD);
    k->self = asked_comm_facts(MPI_COMM_SELF);
    for (MPI_Datatype t :
         {MPI_INT, MPI_DOUBLE, MPI_BYTE, MPI_CHAR, MPI_FLOAT, MPI_LONG, MPI_LONG_LONG,
          MPI_UNSIGNED, MPI_UNSIGNED_LONG, MPI_UNSIGNED_LONG_LONG, MPI_SHORT, MPI_UNSIGNED_SHORT,
          MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_LONG_DOUBLE, MPI_C_BOOL, MPI_INT8_T,
          MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T,
          MPI_UINT64_T, MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT}) {
      k->types.emplace_back(t, asked_type_facts(t));
    }
    k->ops = {MPI_SUM, MPI_MAX, MPI_MIN, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR,
              MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC};
    return k;
  }();
  return known;
#endif
}

CallFacts comm_facts(MPI_Comm comm) {
  if (const KnownHandles* k = known_handles()) {
    if (comm == MPI_COMM_WORLD) return k->world;
    if (comm == MPI_COMM_SELF) return k->self;
  }
  return asked_comm_facts(comm);
}

TypeFacts type_facts(MPI_Datatype t) {
  if (const KnownHandles* k = known_handles()) {
    for (const auto& [handle, facts] : k->types) {
      if (handle == t) return facts;
    }
  }
  return asked_type_facts(t);
}

bool commutative(MPI_Op op) {
  if (const KnownHandles* k = known_handles()) {
    if (std::find(k->ops.begin(), k->ops.end(), op) != k->ops.end()) return true;
  }
  int yes = 0;
  return op != MPI_OP_NULL && PMPI_Op_commutative(op, &yes) == MPI_SUCCESS && yes;
}

bool in_place(const void* buffer) { return buffer == MPI_IN_PLACE; }

// The facts of the send side: with MPI_IN_PLACE the data is in the receive buffer, as
// elements of the receive type.
TypeFacts send_facts(const void* sendbuf, MPI_Datatype sendtype, const TypeFacts& recv) {
  return in_place(sendbuf) ? recv : type_facts(sendtype);
}

// The bytes of counts[0..p) elements of t; -1 for no counts, a negative count, or p unknown
// (an inter-communicator: the MPI library then reports what is wrong).
std::int64_t sum_bytes(const int counts[], const CallFacts& f, const TypeFacts& t) {
  if (counts == nullptr || f.intercomm) return -1;
  std::int64_t total = 0;
  for (int i = 0; i < f.p; ++i) {
    const std::int64_t b = times(counts[i], t);
    if (b < 0) return -1;
    total += b;
  }
  return total;
}

// The facts of a call on `count` elements of one datatype (bcast, reduce, allreduce).
CallFacts count_facts(MPI_Comm comm, int count, MPI_Datatype datatype) {
  CallFacts f = comm_facts(comm);
  const TypeFacts t = type_facts(datatype);
  f.bytes = times(count, t);
  f.contiguous = t.contiguous;
  return f;
}
CallFacts reduction_facts(MPI_Comm comm, int count, MPI_Datatype datatype, MPI_Op op) {
  CallFacts f = count_facts(comm, count, datatype);
  f.commutative = commutative(op);
  return f;
}

// Whether comm's ranks sit on several multicore nodes of equal size (rosched's node layout,
// made at the first question for comm, collective then, and cached on it): asked only for calls
// that every rank asks about alike (the same size, operation and controls).
bool equal_multicore_nodes(MPI_Comm comm) {
  try {
    const rosched::mpi::NodeLayout& layout =
        rosched::mpi::node_layout(rosched::mpi::comm_info(comm));
    return layout.equal_nodes();
  } catch (const std::exception&) {
    return false;  // the MPI library's own all-reduce then
  }
}

// The clock, read only when a report is wanted.
double clock_if_counting() { return state().counting ? PMPI_Wtime() : 0; }

void record_if_counting(Collective c, Route route, std::int64_t bytes, double start) {
  if (state().counting) record(c, route, bytes, PMPI_Wtime() - start);
}

// Decides, runs native() or rosched(route) and records the call.
template <typename Native, typename Rosched>
int dispatch(double start, Collective c, const CallFacts& facts, std::int64_t report_bytes,
             Native&& native, Rosched&& rosched) {
  const Route route = decide(c, facts, state().controls);
  const int rc = route == Route::kNative ? native() : rosched(route);
  record_if_counting(c, route, report_bytes, start);
  return rc;
}

// The same for a collective whose entry point chooses (Rosched_Bcast, Rosched_Allgather(v),
// Rosched_Reduce, Rosched_Allreduce, Rosched_Reduce_scatter(_block), Rosched_Alltoall(v)), where
// the route is kModel,
// or whose rosched route runs an entry point that decides for itself (Rosched_Reduce_node_aware,
// Rosched_Allreduce_node_aware): the report names what ran (choice(route, &algorithm): what the
// entry point recorded (last_run.h), MPI_SUCCESS, or kNoQuery where the route names what ran;
// chosen_route). A call that ran nothing (an empty reduction: kNothingRan) keeps its route.
constexpr int kNoQuery = -1;
template <typename Native, typename Rosched, typename Choice>
int dispatch(double start, Collective c, const CallFacts& facts, std::int64_t report_bytes,
             Native&& native, Rosched&& rosched, Choice&& choice) {
  Route route = decide(c, facts, state().controls);
  const int rc = route == Route::kNative ? native() : rosched(route);
  if (state().counting && route != Route::kNative && rc == MPI_SUCCESS) {
    int algorithm = -1;
    if (choice(route, &algorithm) == MPI_SUCCESS && algorithm != rosched::mpi::kNothingRan) {
      route = chosen_route(c, algorithm);
    }
  }
  record_if_counting(c, route, report_bytes, start);
  return rc;
}

// The choice of an entry point that records what it ran (last_run.h), on the routes whose
// entry points record it (kModel: the choosing one; `also`: the node-aware reduction's and
// all-reduce's, the all-to-alls' forced variant); kNoQuery on the others.
auto recorded_run(rosched::mpi::Decided which, Route also = Route::kModel,
                  Route also2 = Route::kModel) {
  return [=](Route route, int* algorithm) -> int {
    if (route != Route::kModel && route != also && route != also2) return kNoQuery;
    *algorithm = rosched::mpi::last_run(which);
    return MPI_SUCCESS;
  };
}

}  // namespace
}  // namespace rosched::pmpi

using rosched::pmpi::CallFacts;
using rosched::pmpi::Collective;
using rosched::pmpi::Route;

extern "C" int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  using namespace rosched::pmpi;
  const double start = clock_if_counting();
  const CallFacts f = count_facts(comm, count, datatype);
  return dispatch(
      start, Collective::kBcast, f, f.bytes,
      [&] { return PMPI_Bcast(buffer, count, datatype, root, comm); },
      [&](Route route) {
        // kModel: Rosched_Bcast chooses (and times its broadcasts against the library's at a
        // size's first call); kCirculant (forced, or a threshold set): the node-aware broadcast
        return route == Route::kModel ? Rosched_Bcast(buffer, count, datatype, root, comm)
                                      : Rosched_Bcast_node_aware(buffer, count, datatype, root,
                                                                 comm);
      },
      recorded_run(rosched::mpi::Decided::kBcast));
}

extern "C" int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  using namespace rosched::pmpi;
  const double start = clock_if_counting();
  CallFacts f = comm_facts(comm);
  const TypeFacts r = type_facts(recvtype);
  f.bytes = times(recvcount, r) < 0 ? -1 : f.p * times(recvcount, r);
  f.contiguous = r.contiguous && send_facts(sendbuf, sendtype, r).contiguous;
  return dispatch(
      start, Collective::kAllgather, f, f.bytes,
      [&] {
        return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
      },
      [&](Route route) {
        // kModel: Rosched_Allgather's own choice; kCirculant (forced, or a threshold set):
        // Algorithm 7 (node-aware on several multicore nodes)
        return route == Route::kModel
                   ? Rosched_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       comm)
                   : Rosched_Allgather_node_aware(sendbuf, sendcount, sendtype, recvbuf,
                                                  recvcount, recvtype, comm);
      },
      recorded_run(rosched::mpi::Decided::kAllgather));
}

extern "C" int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm) {
  using namespace rosched::pmpi;
  const double start = clock_if_counting();
  CallFacts f = comm_facts(comm);
  const TypeFacts r = type_facts(recvtype);
  f.bytes = displs == nullptr ? -1 : sum_bytes(recvcounts, f, r);
  f.contiguous = r.contiguous && send_facts(sendbuf, sendtype, r).contiguous;
  return dispatch(
      start, Collective::kAllgatherv, f, f.bytes,
      [&] {
        return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                               recvtype, comm);
      },
      [&](Route route) {
        // kModel: Rosched_Allgatherv's own choice; kCirculant (forced, or a threshold set):
        // Algorithm 9 (node-aware on several multicore nodes)
        return route == Route::kModel
                   ? Rosched_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                        recvtype, comm)
                   : Rosched_Allgatherv_node_aware(sendbuf, sendcount, sendtype, recvbuf,
                                                   recvcounts, displs, recvtype, comm);
      },
      recorded_run(rosched::mpi::Decided::kAllgatherv));
}

extern "C" int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, int root, MPI_Comm comm) {
  using namespace rosched::pmpi;
  const double start = clock_if_counting();
  const CallFacts f = reduction_facts(comm, count, datatype, op);
  return dispatch(
      start, Collective::kReduce, f, f.bytes,
      [&] { return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm); },
      [&](Route route) {
        // kModel: Rosched_Reduce's own choice (timed at a size class's first call); kTwoTree
        // (forced, or a threshold set): the node-aware reduction, on one rank per node the tree
        // Rosched_Reduce takes (the circulant reduction for a commutative operation, long vectors)
        return route == Route::kModel
                   ? Rosched_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm)
                   : Rosched_Reduce_node_aware(sendbuf, recvbuf, count, datatype, op, root, comm);
      },
      // kTwoTree runs Rosched_Reduce_node_aware, which picks its own tree and records it too
      recorded_run(rosched::mpi::Decided::kReduce, Route::kTwoTree));
}

extern "C" int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm) {
  using namespace rosched::pmpi;
  const double start = clock_if_counting();
  CallFacts f = reduction_facts(comm, count, datatype, op);
  if (uses_node_facts(Collective::kAllreduce, f, state().controls)) {
    f.equal_nodes = equal_multicore_nodes(comm);
  }
  return dispatch(
      start, Collective::kAllreduce, f, f.bytes,
      [&] { return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm); },
      [&](Route route) {
        return route == Route::kNway
                   ? Rosched_Allreduce_nway(sendbuf, recvbuf, count, datatype, op, comm)
               : route == Route::kModel
                   ? Rosched_Allreduce(sendbuf, recvbuf, count, datatype, op, comm)
                   // kNodeAware, and kTwoTree (forced): the lanes on equal multicore nodes,
                   // else the two-tree all-reduce
                   : Rosched_Allreduce_node_aware(sendbuf, recvbuf, count, datatype, op, comm);
      },
      // kNodeAware, kTwoTree: Rosched_Allreduce_node_aware decides, and records it too
      recorded_run(rosched::mpi::Decided::kAllreduce, Route::kNodeAware, Route::kTwoTree));
}

extern "C" int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  using namespace rosched::pmpi;
  const double start = clock_if_counting();
  CallFacts f = reduction_facts(comm, recvcount, datatype, op);
  f.bytes = f.bytes < 0 ? -1 : f.p * f.bytes;  // the whole vector, as the size rules count it
  return dispatch(
      start, Collective::kReduceScatterBlock, f, f.bytes,
      [&] { return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm); },
      [&](Route route) {
        return route == Route::kModel
                   ? Rosched_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm)
                   : Rosched_Reduce_scatter_block_circulant(sendbuf, recvbuf, recvcount, datatype,
                                                            op, comm);
      },
      recorded_run(rosched::mpi::Decided::kReduceScatter));
}

extern "C" int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  using namespace rosched::pmpi;
  const double start = clock_if_counting();
  CallFacts f = reduction_facts(comm, 0, datatype, op);
  f.bytes = sum_bytes(recvcounts, f, type_facts(datatype));  // the whole vector
  return dispatch(
      start, Collective::kReduceScatter, f, f.bytes,
      [&] { return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm); },
      [&](Route route) {
        return route == Route::kModel
                   ? Rosched_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm)
                   : Rosched_Reduce_scatter_circulant(sendbuf, recvbuf, recvcounts, datatype, op,
                                                      comm);
      },
      recorded_run(rosched::mpi::Decided::kReduceScatterV));
}

extern "C" int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  using namespace rosched::pmpi;
  const double start = clock_if_counting();
  CallFacts f = comm_facts(comm);
  const TypeFacts r = type_facts(recvtype);
  const TypeFacts s = send_facts(sendbuf, sendtype, r);
  f.bytes = in_place(sendbuf) ? times(recvcount, r) : times(sendcount, s);
  f.contiguous = r.contiguous && s.contiguous;
  return dispatch(
      start, Collective::kAlltoall, f, f.bytes < 0 ? f.bytes : f.bytes * f.p,
      [&] {
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
      },
      [&](Route route) {  // kModel: the entry point's own choice; else rosched's rule (force)
        return route == Route::kModel
                   ? Rosched_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      comm)
                   : Rosched_Alltoall_variant("auto", sendbuf, sendcount, sendtype, recvbuf,
                                              recvcount, recvtype, comm);
      },
      // what it ran on either route: the library's, Bruck or linear
      recorded_run(rosched::mpi::Decided::kAlltoall, Route::kBruck));
}

extern "C" int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  using namespace rosched::pmpi;
  const double start = clock_if_counting();
  CallFacts f = comm_facts(comm);
  const TypeFacts r = type_facts(recvtype);
  const TypeFacts s = send_facts(sendbuf, sendtype, r);
  f.contiguous = r.contiguous && s.contiguous;
  // This rank's send bytes, for the report only (they differ between ranks).
  const std::int64_t mine = sum_bytes(in_place(sendbuf) ? recvcounts : sendcounts, f, s);
  return dispatch(
      start, Collective::kAlltoallv, f, mine,
      [&] {
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                              rdispls, recvtype, comm);
      },
      [&](Route route) {
        return route == Route::kModel
                   ? Rosched_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                       rdispls, recvtype, comm)
                   : Rosched_Alltoallv_variant("auto", sendbuf, sendcounts, sdispls, sendtype,
                                               recvbuf, recvcounts, rdispls, recvtype, comm);
      },
      recorded_run(rosched::mpi::Decided::kAlltoallv, Route::kBruck));
}

extern "C" int MPI_Finalize(void) {
  using namespace rosched::pmpi;
  const State& s = state();
  if (s.counting) report(s.print_report, s.tsv_path, s.mode.c_str());
  return PMPI_Finalize();
}
