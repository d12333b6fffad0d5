// Shared by the MPI test program's files: the process count and rank, result counting, and
// the data pattern.
#ifndef ROSCHED_TESTS_MPI_MPI_TEST_UTIL_H_
#define ROSCHED_TESTS_MPI_MPI_TEST_UTIL_H_

#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace rosched_mpi_test {

extern int p, rank;
extern long passed, failed;

// Counts a check; prints the failing ones (with p and rank) on stderr.
void expect(bool ok, const std::string& what);
int ceil_log2(int x);
// The value of element i of root's data.
int pattern(int root, int i);

// A duplicate of MPI_COMM_WORLD with MPI_ERRORS_RETURN (free it with MPI_Comm_free).
MPI_Comm errors_return_comm();

// Whether every rank of comm passed the same answer (collective).
bool same_on_all(MPI_Comm comm, int answer);

inline int error_class(int rc) {
  int cls = MPI_SUCCESS;
  MPI_Error_class(rc, &cls);
  return cls;
}

// Runs call with stderr sent to a temporary file; returns its error class and the text.
template <typename Call>
int capture_stderr(Call call, std::string& text) {
  std::fflush(stderr);
  const int saved = dup(2);
  std::FILE* tmp = std::tmpfile();
  dup2(fileno(tmp), 2);
  const int cls = error_class(call());
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::rewind(tmp);
  text.clear();
  for (int ch; (ch = std::fgetc(tmp)) != EOF;) text += static_cast<char>(ch);
  std::fclose(tmp);
  return cls;
}

using BcastFn = int (*)(void*, int, MPI_Datatype, int, MPI_Comm);
using AllreduceFn = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);
using ReduceFn = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
using ReduceScatterBlockFn = AllreduceFn;  // (sendbuf, recvbuf, recvcount, ...)

// Every algorithm of a collective, by name (tests/mpi/lower_bound_mpi_test.cc): the entry point
// first, then each one a program can call directly.
std::vector<std::pair<const char*, AllreduceFn>> named_allreduces();
std::vector<std::pair<const char*, ReduceFn>> named_reduces();
std::vector<std::pair<const char*, ReduceScatterBlockFn>> named_reduce_scatter_blocks();
std::vector<std::pair<const char*, BcastFn>> named_broadcasts();

// tests/mpi/bcast_mpi_test.cc: one broadcast of ints from every root, sizes 0 to 1 MiB; of a
// vector type with gaps; its bad arguments and debug-mode mismatches.
void test_bcast_ints(BcastFn bcast, const std::string& name);
void test_bcast_derived(BcastFn bcast, const std::string& name);
void test_bcast_errors(BcastFn bcast, const std::string& name);
// Rosched_Bcast's timed choice of a size class, and its short way for a repeat of a call that
// went to MPI_Bcast.
void test_bcast_measured_choice();
void test_bcast_repeat();
// The node-aware broadcast's one-block tree degree against its rule, and the node layout on
// nodes of k ranks (ROSCHED_NODE_SIZE = k).
void test_one_block_tree_degree();
void test_bcast_node_layout(int k);

// tests/mpi/allgather_mpi_test.cc: Rosched_Allgather, Rosched_Allgatherv and the algorithms
// they choose from, forced; the answers a trial stores and the choice queries.
void test_allgather();
void test_allgather_circulant();
void test_allgathervs();
void test_allgather_choices();

// tests/mpi/two_tree_mpi_test.cc: Rosched_Reduce_two_tree and Rosched_Allreduce_two_tree.
void test_two_tree_reductions();
void test_node_aware_reductions();

// tests/mpi/alltoall_mpi_test.cc: Rosched_Alltoall and Rosched_Alltoallv, every variant.
void test_alltoall();
// tests/mpi/allmerge_mpi_test.cc: Rosched_Allmerge (Lang 2025), its errors and debug checks.
void test_allmerge();
// tests/mpi/nway_mpi_test.cc: Rosched_Allreduce_nway and its split-phase form (with the error
// cases if errors).
void test_nway_allreduce(bool errors);
// tests/mpi/round_stream_mpi_test.cc: rounds streamed on several ports at once, and the n-port
// all-gather and reduce-scatter with their rounds streamed.
void test_round_streams();

// tests/mpi/library_choice_mpi_test.cc: element i of rank r's contribution to the reductions,
// and its sum over all ranks; one Rosched_Reduce of `count` ints to `root` on comm (in place at
// the root or not) and one Rosched_Allreduce with op (MPI_SUM or a user-defined sum), each
// checked (also that recvbuf past the vector is untouched).
int value(int r, int i);
int sum_of(int i);
void reduce_once(MPI_Comm comm, int count, int root, bool in_place, const std::string& what);
void allreduce_once(MPI_Comm comm, int count, MPI_Op op, bool in_place, const std::string& what);
// The MPI_User_function of a sum of ints (MPI_Op_create: commutative or not).
void sum_ints(void* in, void* inout, int* len, MPI_Datatype*);

// tests/mpi/choice_query_mpi_test.cc: Rosched_Reduce_choice, Rosched_Allreduce_choice and
// Rosched_Reduce_scatter(_block)_choice against what the calls do; reduce_forced: run with
// ROSCHED_REDUCE=rosched and ROSCHED_ALLREDUCE=rosched; scatter_nodes: run with
// ROSCHED_REDUCE_SCATTER=rosched on nodes of that many consecutive ranks (0: neither).
void test_choice_queries(bool reduce_forced, int scatter_nodes);

// tests/mpi/library_choice_mpi_test.cc: Rosched_Reduce's and Rosched_Allreduce's choice of the
// library's collective or rosched's, their short way for repeats, and the census itself.
void test_library_choices();
// The timed first calls of Rosched_Reduce, _Allreduce, _Allgather, _Allgatherv (several size
// classes on a fresh communicator, in place and not, every root) and the reduce-scatters (their
// tests, each on a fresh communicator) in debug mode, where each
// trial checks every candidate's result against the library's (mpi_exec/trial_check.h): a
// right candidate must pass the check. Also run on nodes (the node-aware candidates).
void test_checked_trials();
// Rosched_Reduce_scatter(_block) and their _circulant forms (library_choice_mpi_test.cc; also
// run on nodes, where the choosing entries run the node-aware reduce-scatter).
void test_reduce_scatters();

// tests/mpi/errors_mpi_test.cc: errors reach the caller's error handler, debug mode never hangs.
void test_error_handling();

// tests/mpi/intercomm_mpi_test.cc: the collectives on an inter-communicator (p >= 2).
void test_inter_communicators();
// tests/mpi/lower_bound_mpi_test.cc: every algorithm on a datatype with a negative lower bound.
void test_lower_bound();
// tests/mpi/loc_pairs_mpi_test.cc: MPI_MAXLOC / MPI_MINLOC on MPI_DOUBLE_INT and MPI_2INT.
void test_loc_pairs();
// tests/mpi/signature_mpi_test.cc: different datatypes of matching type signatures on different
// ranks, every algorithm by name.
void test_matching_signatures();

}  // namespace rosched_mpi_test

#endif  // ROSCHED_TESTS_MPI_MPI_TEST_UTIL_H_
