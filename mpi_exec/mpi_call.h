// Error handling and communicators shared by the collectives. MPI return codes become
// exceptions that name the call; at the API boundary they are reported and handed to the error
// handler of the user's communicator. The collectives' own messages travel on private
// duplicates with MPI_ERRORS_RETURN, so every failure there comes back here, whatever handler
// the user's communicator has now (it may have changed since the duplicate was made). The MPI
// library's collectives that they call (the library's collective where it is chosen, and the
// agreements of the cost model, a trial and the node layout) run on the user's communicator
// itself: the collective the user would have had, on the communicator whose collective state
// the MPI library may have built already (one that builds it at the first collective, as Open
// MPI's coll/han its node and leader communicators, would build it again for a duplicate; SimGrid
// SMPI builds it when the duplicate is made: 4.2 ms of simulated time, 7.4 s of real time at
// 512 ranks, docs/simulation.md), and a failure there meets the user's handler as it would in
// the user's own call (check_on). The debug mode's comparison of arguments across ranks (args.h)
// stays on the duplicate, so that its verdict always comes back to the library.
#ifndef ROSCHED_MPI_EXEC_MPI_CALL_H_
#define ROSCHED_MPI_EXEC_MPI_CALL_H_

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>

namespace rosched::mpi {

// An error with an MPI error class: a failed MPI call, or an argument MPI would reject.
// handled: MPI has handed it to the user's communicator's error handler already (check_on),
// which is then not called again.
class Error : public std::runtime_error {
 public:
  Error(int mpi_class, const std::string& what, bool handled = false)
      : std::runtime_error(what), class_(mpi_class), handled_(handled) {}
  int mpi_class() const { return class_; }
  bool handled() const { return handled_; }

 private:
  int class_;
  bool handled_;
};

// Throws Error naming `call` unless rc is MPI_SUCCESS. Inline: every MPI call of a collective
// goes through it, and the failure path (error string, message) stays out of the caller.
[[noreturn]] void fail(int rc, const char* call, MPI_Comm handled_on = MPI_COMM_NULL);
inline void check(int rc, const char* call) {
  if (__builtin_expect(rc != MPI_SUCCESS, 0)) fail(rc, call);
}
// check() for a call on `comm`, a user's communicator (CommInfo::user): unless its handler is
// MPI_ERRORS_RETURN, MPI has called that handler for the failure, and the Error says so.
inline void check_on(MPI_Comm comm, int rc, const char* call) {
  if (__builtin_expect(rc != MPI_SUCCESS, 0)) fail(rc, call, comm);
}

// Runs body(comm_info(comm)) (which may throw Error or std::exception) as the collective
// `name` on comm: MPI_SUCCESS, or the message on stderr and the result of comm's error handler
// (of MPI_COMM_WORLD's when comm is MPI_COMM_NULL, as Open MPI does).
template <typename Body>
int run_collective(const char* name, MPI_Comm comm, Body&& body);

// What the library keeps on a user's communicator, as one attribute made at the first
// collective on it (collective then) and freed with it: the private duplicate, the size and
// rank (fixed for a communicator's life, so a call asks MPI for neither), and the cost model's
// record (cost_model.cc), a lane's model shared by all lanes (lanes_model, cost_model.h) and the
// node layout (node_layout.cc), made at their first use and owned by the duplicate.
struct CommModel;
struct CostModel;
struct NodeLayout;
struct CommCache {
  MPI_Comm dup = MPI_COMM_NULL;
  int p = 1, rank = 0;
  CommModel* model = nullptr;
  CostModel* lanes = nullptr;   // on a lane (node_layout.h): the lanes' shared model
  NodeLayout* nodes = nullptr;  // which ranks share a node (node_layout.h), made at first use
  unsigned nway_calls = 0;  // n-way all-reduces started on it (their tags, nway_allreduce.cc)
  bool inter = false;       // an inter-communicator (MPI_Comm_test_inter): no duplicate then
};

// Size and rank of the user's communicator, its private duplicate `c` on which the collective
// sends its messages (errors returned), from its CommCache (one attribute lookup per call), and
// the communicator itself, `user`, on which it calls the MPI library's collectives (check_on).
// Throws Error(MPI_ERR_COMM) for MPI_COMM_NULL and for an inter-communicator (rosched's
// algorithms send among one group of ranks).
struct CommInfo {
  int p = 1, rank = 0;
  MPI_Comm c = MPI_COMM_NULL;
  CommCache* cache = nullptr;
  MPI_Comm user = MPI_COMM_NULL;
};
CommInfo comm_info(MPI_Comm comm);

// Whether comm is an inter-communicator, from its CommCache (made here at the first call, as by
// comm_info); false for MPI_COMM_NULL and where MPI fails (the call's own checks report those).
// The entry points that are MPI collectives (Rosched_Bcast, ...) run the MPI library's
// collective on one: MPI's inter-communicator semantics (a root argument of MPI_ROOT or
// MPI_PROC_NULL, results from the other group), which rosched's algorithms do not have.
bool inter_communicator(MPI_Comm comm) noexcept;

// Cancels and frees each of requests[0 .. count - 1] that is not MPI_REQUEST_NULL: what a walk
// of rounds leaves outstanding when an error ends it early (its destructor's clean-up).
void cancel_requests(MPI_Request* requests, int count) noexcept;

// What an entry point's _choice query answers on an inter-communicator: 0, the library's
// collective (MPI_ERR_ARG through comm's handler for a null `algorithm`), reported as `name`.
int library_answer(const char* name, MPI_Comm comm, int* algorithm);

// How many CommCaches have been freed so far (each MPI_Comm_free of a communicator the library
// has used). A thread that remembers a communicator handle with the count of its time knows the
// handle still means that communicator while the count is unchanged: a freed communicator's
// handle can be reused by a new one.
extern std::atomic<std::uint64_t> comm_caches_freed;

// An attribute key of the library's, made at its first use with `free_record` as the delete
// callback, once per process also where threads first use it at once (MPI_THREAD_MULTIPLE).
class RecordKey {
 public:
  explicit RecordKey(MPI_Comm_delete_attr_function* free_record) : free_(free_record) {}
  int get();
  MPI_Comm_delete_attr_function* free_record() const { return free_; }

 private:
  MPI_Comm_delete_attr_function* free_;
  std::once_flag once_;
  int keyval_ = MPI_KEYVAL_INVALID;
};

// A record the library keeps per communicator (CommCache::model, CommCache::nodes): an
// attribute of comm's private duplicate under key (so the record goes with the communicator),
// made by make() (a new T) at the first call on comm, collective then; after that the
// CommCache's pointer `slot`.
template <typename T, typename Make>
T& duplicate_record(const CommInfo& comm, RecordKey& key, T* CommCache::*slot, Make&& make) {
  if (comm.cache != nullptr && comm.cache->*slot != nullptr) return *(comm.cache->*slot);
  const int keyval = key.get();
  void* attribute = nullptr;
  int found = 0;
  check(PMPI_Comm_get_attr(comm.c, keyval, &attribute, &found), "MPI_Comm_get_attr");
  if (!found) {
    T* made = make();
    const int rc = PMPI_Comm_set_attr(comm.c, keyval, made);
    if (rc != MPI_SUCCESS) key.free_record()(MPI_COMM_NULL, keyval, made, nullptr);
    check(rc, "MPI_Comm_set_attr");
    attribute = made;
  }
  T* record = static_cast<T*>(attribute);
  if (comm.cache != nullptr) comm.cache->*slot = record;
  return *record;
}

// The private duplicate of MPI_COMM_SELF (errors returned), for copies within this process;
// made once, also where threads first ask at once.
MPI_Comm self_comm();

// Implementation of run_collective: the message on stderr, then comm's error handler unless
// `handled` (Error::handled).
int report(const char* name, MPI_Comm comm, int mpi_class, const char* what, bool handled = false);

// The return code rc of the MPI library's collective `call` (on comm itself) that the entry
// point `name` ran: MPI_SUCCESS, or rc's class, reported as name's error with the message
// check_on() would throw.
int library_result(const char* name, MPI_Comm comm, int rc, const char* call);

template <typename Body>
int run_collective(const char* name, MPI_Comm comm, Body&& body) {
  try {
    body(comm_info(comm));
    return MPI_SUCCESS;
  } catch (const Error& e) {
    return report(name, comm, e.mpi_class(), e.what(), e.handled());
  } catch (const std::exception& e) {
    return report(name, comm, MPI_ERR_INTERN, e.what());
  }
}

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_MPI_CALL_H_
