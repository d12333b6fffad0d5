#include "mpi_exec/mpi_call.h"

#include <cstdio>
#include <memory>

namespace rosched::mpi {
namespace {

int free_cache(MPI_Comm, int, void* attribute, void*) {
  comm_caches_freed.fetch_add(1, std::memory_order_relaxed);
  auto* cache = static_cast<CommCache*>(attribute);
  // Frees the model's attribute on the duplicate too; an inter-communicator has none.
  const int rc = cache->dup == MPI_COMM_NULL ? MPI_SUCCESS : PMPI_Comm_free(&cache->dup);
  delete cache;
  return rc;
}

RecordKey cache_key(free_cache);

// The CommCache of comm, made at first use (collective over comm then). Threads may make the
// caches of different communicators at once (MPI forbids concurrent collectives on one); the
// one of MPI_COMM_SELF, which every thread's local copies share, is made once (self_cache).
CommCache& comm_cache(MPI_Comm comm) {
  const int cache_keyval = cache_key.get();
  void* attribute = nullptr;
  int found = 0;
  check(PMPI_Comm_get_attr(comm, cache_keyval, &attribute, &found), "MPI_Comm_get_attr");
  if (found) return *static_cast<CommCache*>(attribute);
  auto cache = std::make_unique<CommCache>();
  check(PMPI_Comm_size(comm, &cache->p), "MPI_Comm_size");
  check(PMPI_Comm_rank(comm, &cache->rank), "MPI_Comm_rank");
  int inter = 0;
  check(PMPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
  cache->inter = inter != 0;
  int rc = MPI_SUCCESS;
  if (!cache->inter) {
    check(PMPI_Comm_dup(comm, &cache->dup), "MPI_Comm_dup");
    rc = PMPI_Comm_set_errhandler(cache->dup, MPI_ERRORS_RETURN);
  }
  if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_attr(comm, cache_keyval, cache.get());
  if (rc != MPI_SUCCESS && cache->dup != MPI_COMM_NULL) PMPI_Comm_free(&cache->dup);
  check(rc, "MPI_Comm_set_errhandler or MPI_Comm_set_attr");
  return *cache.release();
}

CommCache& self_cache() {
  static CommCache& self = comm_cache(MPI_COMM_SELF);  // thread-safe, once
  return self;
}

}  // namespace

std::atomic<std::uint64_t> comm_caches_freed{0};

int RecordKey::get() {
  std::call_once(once_, [this] {
    check(PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_, &keyval_, nullptr),
          "MPI_Comm_create_keyval");
  });
  return keyval_;
}

namespace {

// "<call> failed: <MPI's error string>", and rc's error class.
std::string describe(int rc, const char* call, int* error_class) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  *error_class = MPI_ERR_OTHER;
  PMPI_Error_string(rc, text, &length);
  PMPI_Error_class(rc, error_class);
  return std::string(call) + " failed: " + std::string(text, length);
}

// Whether MPI called comm's error handler for a failed call on it: its handler is not
// MPI_ERRORS_RETURN (MPI_ERRORS_ARE_FATAL never returns; a user's handler did).
bool handler_called(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return false;
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  if (PMPI_Comm_get_errhandler(comm, &handler) != MPI_SUCCESS) return false;
  const bool called = handler != MPI_ERRORS_RETURN;
  if (handler != MPI_ERRHANDLER_NULL) PMPI_Errhandler_free(&handler);  // a new reference
  return called;
}

}  // namespace

void fail(int rc, const char* call, MPI_Comm handled_on) {
  int error_class = MPI_ERR_OTHER;
  const std::string what = describe(rc, call, &error_class);
  throw Error(error_class, what, handler_called(handled_on));
}

int library_result(const char* name, MPI_Comm comm, int rc, const char* call) {
  if (rc == MPI_SUCCESS) return rc;
  int error_class = MPI_ERR_OTHER;
  const std::string what = describe(rc, call, &error_class);
  return report(name, comm, error_class, what.c_str(), handler_called(comm));
}

int report(const char* name, MPI_Comm comm, int mpi_class, const char* what, bool handled) {
  const MPI_Comm handler = comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm;
  int rank = -1;
  PMPI_Comm_rank(handler, &rank);
  std::fprintf(stderr, "rosched %s (rank %d%s): %s\n", name, rank,
               comm == MPI_COMM_NULL ? " of MPI_COMM_WORLD" : "", what);
  if (!handled) PMPI_Comm_call_errhandler(handler, mpi_class);
  return mpi_class;
}

namespace {

// comm's CommCache (comm not MPI_COMM_NULL).
CommCache& cached(MPI_Comm comm) {
  // This thread's last communicator and its CommCache: a program calls its collectives on one
  // communicator again and again, and the attribute lookup is a hash-table search in MPI. The
  // handle still means that communicator while no CommCache has been freed since (see
  // comm_caches_freed); MPI_COMM_NULL never matches.
  thread_local MPI_Comm last_comm = MPI_COMM_NULL;
  thread_local CommCache* last_cache = nullptr;
  thread_local std::uint64_t last_freed = 0;
  const std::uint64_t freed = comm_caches_freed.load(std::memory_order_relaxed);
  if (comm != last_comm || freed != last_freed) {
    last_cache = comm == MPI_COMM_SELF ? &self_cache() : &comm_cache(comm);
    last_comm = comm;
    last_freed = freed;
  }
  return *last_cache;
}

}  // namespace

CommInfo comm_info(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) throw Error(MPI_ERR_COMM, "comm is MPI_COMM_NULL");
  CommCache& cache = cached(comm);
  if (__builtin_expect(cache.inter, 0)) {
    throw Error(MPI_ERR_COMM,
                "comm is an inter-communicator: rosched's algorithms run on intra-communicators "
                "(Rosched_Bcast, _Allgather(v), _Allreduce, _Reduce, _Reduce_scatter(_block) and "
                "_Alltoall(v) run the MPI library's collective on one)");
  }
  return {cache.p, cache.rank, cache.dup, &cache, comm};
}

bool inter_communicator(MPI_Comm comm) noexcept {
  if (comm == MPI_COMM_NULL) return false;
  try {
    return cached(comm).inter;
  } catch (...) {
    return false;
  }
}

void cancel_requests(MPI_Request* requests, int count) noexcept {
  for (int i = 0; i < count; ++i) {
    if (requests[i] == MPI_REQUEST_NULL) continue;
    PMPI_Cancel(&requests[i]);
    PMPI_Request_free(&requests[i]);
  }
}

int library_answer(const char* name, MPI_Comm comm, int* algorithm) {
  if (algorithm == nullptr) return report(name, comm, MPI_ERR_ARG, "algorithm is a null pointer");
  *algorithm = 0;
  return MPI_SUCCESS;
}

MPI_Comm self_comm() { return self_cache().dup; }

}  // namespace rosched::mpi
