// The MPI collectives of mpi_exec/ against their definitions, run under mpirun with p processes
// (tests/mpi/run_mpi_tests.sh runs p = 1..9): every root, sizes 0, 1, q - 1, q, primes, 1 MiB,
// irregular counts with zeros and one rank holding almost everything, MPI_IN_PLACE, derived
// datatypes, user-defined operations, bad arguments and debug-mode mismatches; the broadcasts
// (circulant, node-aware, two-tree, hypercube) through the same checks, and with --nodes=K the
// node-aware one on nodes of K ranks; with --one-block the allgathervs with one block per
// contribution and rounds streamed in parts. Every rank checks its own result; rank 0 prints
// "p=P[ mode]: N passed, M failed". This file: main, which runs the tests of each collective's
// file (tests/mpi/mpi_test_util.h names them), the shared counting, Rosched_Allreduce's entry
// point, the collectives' argument errors and the cost model.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/node_layout.h"
#include "mpi_exec/rosched_mpi.h"
#include "tests/cost_model_figures.h"
#include "tests/mpi/mpi_test_util.h"

namespace rosched_mpi_test {

int p = 1, rank = 0;
long passed = 0, failed = 0;

void expect(bool ok, const std::string& what) {
  if (ok) {
    ++passed;
  } else {
    ++failed;
    const char* f = std::getenv("ROSCHED_BCAST_F");  // set for the many-blocks pass
    std::fprintf(stderr, "FAIL p=%d rank=%d: %s%s%s\n", p, rank, what.c_str(),
                 f ? " with block-size factor F=" : "", f ? f : "");
  }
}

int ceil_log2(int x) {
  int q = 0;
  while ((1 << q) < x) ++q;
  return q;
}

int pattern(int root, int i) { return root * 1000003 + i * 7 + 1; }

MPI_Comm errors_return_comm() {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  return comm;
}

bool same_on_all(MPI_Comm comm, int answer) {
  int low = 0, high = 0;
  MPI_Allreduce(&answer, &low, 1, MPI_INT, MPI_MIN, comm);
  MPI_Allreduce(&answer, &high, 1, MPI_INT, MPI_MAX, comm);
  return low == high;
}

}  // namespace rosched_mpi_test

namespace {

using namespace rosched_mpi_test;

void xor_ints(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[i] ^= static_cast<int*>(in)[i];
}

void test_allreduce() {
  for (int count : {0, 1, 17, 1000}) {
    for (bool in_place : {false, true}) {
      std::vector<int> send(count), mine(count + 1, -1), native(count);
      for (int i = 0; i < count; ++i) send[i] = pattern(rank, i) % 1000;
      if (in_place) std::copy(send.begin(), send.end(), mine.begin());
      int rc = Rosched_Allreduce(in_place ? MPI_IN_PLACE : send.data(), mine.data(), count,
                                 MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      MPI_Allreduce(send.data(), native.data(), count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      bool ok = rc == MPI_SUCCESS && mine[count] == -1;
      for (int i = 0; i < count && ok; ++i) ok = mine[i] == native[i];
      expect(ok, "allreduce MPI_SUM count=" + std::to_string(count) + (in_place ? " in place" : ""));
    }
  }
  std::vector<double> x(33), mx(33), native(33);
  for (int i = 0; i < 33; ++i) x[i] = (rank * 37 + i * 11) % 23 - 0.5 * rank;
  int rc = Rosched_Allreduce(x.data(), mx.data(), 33, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(x.data(), native.data(), 33, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  expect(rc == MPI_SUCCESS && mx == native, "allreduce MPI_MAX double");
  MPI_Op op;
  MPI_Op_create(xor_ints, 1, &op);
  std::vector<int> v(9), r(9), n(9);
  for (int i = 0; i < 9; ++i) v[i] = pattern(rank, i);
  rc = Rosched_Allreduce(v.data(), r.data(), 9, MPI_INT, op, MPI_COMM_WORLD);
  MPI_Allreduce(v.data(), n.data(), 9, MPI_INT, MPI_BXOR, MPI_COMM_WORLD);
  expect(rc == MPI_SUCCESS && r == n, "allreduce user-defined commutative op");
  MPI_Op_free(&op);
}

// Errors come back as MPI error classes on a communicator with MPI_ERRORS_RETURN (the
// broadcasts': test_bcast_errors).
void test_errors() {
  MPI_Comm comm = errors_return_comm();
  int buf[4] = {0, 0, 0, 0};
  int cls = 0;
  std::vector<int> negative(p, 1), displs(p, 0);
  negative[0] = -1;
  MPI_Error_class(Rosched_Allgatherv(MPI_IN_PLACE, 0, MPI_INT, buf, negative.data(), displs.data(),
                                     MPI_INT, comm), &cls);
  expect(cls == MPI_ERR_COUNT, "allgatherv negative recvcount gives MPI_ERR_COUNT");
  MPI_Op op;
  MPI_Op_create(xor_ints, 0, &op);  // declared non-commutative
  MPI_Error_class(Rosched_Allreduce_census(buf, buf + 2, 2, MPI_INT, op, comm), &cls);
  expect(cls == MPI_ERR_OP, "census allreduce: non-commutative op gives MPI_ERR_OP");
  MPI_Op_free(&op);
  if (p > 1) {  // mismatched arguments in debug mode: an error on every rank, not a hang
    Rosched_Set_debug(1);
    MPI_Error_class(Rosched_Allreduce(buf, buf + 2, rank == 0 ? 1 : 2, MPI_INT, MPI_SUM, comm), &cls);
    expect(cls == MPI_ERR_COUNT, "debug: mismatched allreduce count gives MPI_ERR_COUNT");
    std::vector<int> counts(p, 1), displs(p);
    for (int j = 0; j < p; ++j) displs[j] = j;
    if (rank == 0) counts[p - 1] = 0;  // rank 0 disagrees about rank p-1's count
    std::vector<int> all(p);
    MPI_Error_class(Rosched_Allgatherv(MPI_IN_PLACE, 0, MPI_INT, all.data(), counts.data(),
                                       displs.data(), MPI_INT, comm), &cls);
    expect(cls == MPI_ERR_COUNT, "debug: mismatched allgatherv recvcounts give MPI_ERR_COUNT");
    Rosched_Set_debug(0);
  }
  MPI_Comm_free(&comm);
}

// The cost model every rank decides by: positive times not decreasing with the size, and the
// same on every rank (else the ranks would split a message into different block counts).
void test_cost_model() {
  const rosched::mpi::CommInfo ci = rosched::mpi::comm_info(MPI_COMM_WORLD);
  const rosched::mpi::CostModel& model = rosched::mpi::cost_model(ci);
  constexpr int k = rosched::mpi::CostModel::kPoints;
  double mine[k], low[k], high[k];
  bool ordered = model.seconds[0] > 0;
  for (int i = 0; i < k; ++i) {
    mine[i] = model.seconds[i];
    if (i > 0 && model.seconds[i] < model.seconds[i - 1]) ordered = false;
  }
  MPI_Allreduce(mine, low, k, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(mine, high, k, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  expect(ordered, "cost model times are positive and grow with the size");
  expect(std::equal(low, low + k, high), "cost model is the same on every rank");
  expect(&rosched::mpi::cost_model(ci) == &model, "cost model is measured once per communicator");
}

// With nodes of k ranks (ROSCHED_NODE_SIZE) that divide p into several: the model the lanes
// share (lanes_model) is the same on every rank of every lane, its times grow with the size, and
// it is made once per lane; made after each lane's own model (cost_model(lane), measured lane by
// lane), it is another record.
void test_lanes_model(int k) {
  namespace rm = rosched::mpi;
  const rm::CommInfo ci = rm::comm_info(MPI_COMM_WORLD);
  const rm::NodeLayout& layout = rm::node_layout(ci);
  if (!layout.equal_nodes()) return;
  const rm::CommInfo node = rm::comm_info(layout.node), lane = rm::comm_info(layout.lane);
  for (int l = 0; l < layout.min_node_size; ++l) {  // each lane's own, one lane at a time
    if (layout.node_rank == l) rm::cost_model(lane);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  const rm::CostModel& model = rm::lanes_model(lane, node);
  std::vector<double> mine = rm::all_figures(model);
  std::vector<double> low(mine.size()), high(mine.size());
  const int n = static_cast<int>(mine.size());
  MPI_Allreduce(mine.data(), low.data(), n, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(mine.data(), high.data(), n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const std::string what = "lanes' model, nodes of " + std::to_string(k) + ": ";
  expect(low == high, what + "the same on every rank of every lane");
  expect(model.seconds[0] > 0 && std::is_sorted(model.seconds.begin(), model.seconds.end()),
         what + "positive times that grow with the size");
  expect(&rm::lanes_model(lane, node) == &model, what + "made once");
  expect(&rm::cost_model(lane) != &model, what + "apart from the lane's own");
}

// Sums the results over the ranks, rank 0 prints "p=P[ mode]: N passed, M failed", finalizes;
// the exit status of main.
int finish(const std::string& mode) {
  long local[2] = {passed, failed}, total[2] = {0, 0};
  MPI_Reduce(local, total, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("p=%d%s%s: %ld passed, %ld failed\n", p, mode.empty() ? "" : " ", mode.c_str(),
                total[0], total[1]);
  }
  MPI_Finalize();
  return total[1] == 0 || rank != 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  // With --many-blocks: the broadcasts, reductions and Allgatherv with block-size factors F = 3,
  // so that the pipelines run many blocks (with the default F = 1000 most test messages are a single block).
  // The collectives read these variables once, at their first call: set them before it.
  // Also a window of 3 rounds in flight, so that the pipelined walks reuse their slots often.
  const bool many_blocks = argc > 1 && std::string(argv[1]) == "--many-blocks";
  // With --nodes=K: ranks in consecutive blocks of K form the nodes (ROSCHED_NODE_SIZE), and
  // only the broadcasts, Allgather(v) and the node-aware reduction run, with many blocks:
  // Rosched_Bcast_node_aware the node-aware broadcast, Rosched_Bcast its trial of it and its
  // variants against the library's (nodes of unequal sizes where K does not divide p: roots
  // whose node rank is missing on the last node go through lane 0).
  const std::string nodes = argc > 1 && std::string(argv[1]).rfind("--nodes=", 0) == 0
                                ? std::string(argv[1]).substr(8)
                                : "";
  // With --one-block: the allgathervs only, every contribution one block (ROSCHED_ALLGATHERV_G
  // so large that Algorithm 9 takes n = 1) and each round streamed in parts of 24 B
  // (ROSCHED_STREAM_PART), so that parts cut across the pieces of several roots in a round.
  const bool one_block = argc > 1 && std::string(argv[1]) == "--one-block";
  if (one_block) {
    setenv("ROSCHED_ALLGATHERV_G", "1e12", 1);
    setenv("ROSCHED_STREAM_PART", "24", 1);
  }
  if (!nodes.empty()) {
    setenv("ROSCHED_NODE_SIZE", nodes.c_str(), 1);
    setenv("ROSCHED_ALLGATHER", "rosched", 1);  // the node-aware all-gather, never the library's
    setenv("ROSCHED_REDUCE_SCATTER", "rosched", 1);  // the node-aware reduce-scatter likewise
    setenv("ROSCHED_BCAST_F", "3", 1);
    setenv("ROSCHED_WINDOW", "3", 1);
  }
  if (many_blocks) {
    for (const char* var : {"ROSCHED_BCAST_F", "ROSCHED_TWOTREE_F", "ROSCHED_HYPERCUBE_F",
                            "ROSCHED_KARY_F", "ROSCHED_ALLGATHERV_G"}) {
      setenv(var, "3", 1);
    }
    setenv("ROSCHED_WINDOW", "3", 1);
    setenv("ROSCHED_KARY_DEGREE", "3", 1);  // the k-ary tree with three children a rank
    setenv("ROSCHED_BCAST_PORTS", "2", 1);  // the k-nomial broadcast: a 3-nomial tree
    setenv("ROSCHED_NWAY_N", "3", 1);  // and the n-way allreduce with n = 3 by default
    setenv("ROSCHED_REDUCE_PORTS", "3", 1);  // Rosched_Reduce's short vectors: a 4-nomial tree
    setenv("ROSCHED_REDUCE", "rosched", 1);  // and rosched's trees, never MPI_Reduce
    setenv("ROSCHED_ALLREDUCE", "rosched", 1);  // rosched's all-reduces (non-commutative too)
    setenv("ROSCHED_NWAY_RULE", "digits", 1);
    setenv("ROSCHED_STREAM_PART", "24", 1);  // all-gathers' rounds in parts of 24 B or one element
  }
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::pair<BcastFn, std::string> broadcasts[] = {
      {Rosched_Bcast, "bcast"},
      {Rosched_Bcast_circulant, "bcast circulant"},
      {Rosched_Bcast_node_aware, "bcast node-aware"},
      {Rosched_Bcast_two_tree, "bcast two-tree"},
      {Rosched_Bcast_hypercube, "bcast hypercube"},
      {Rosched_Bcast_kary_tree, "bcast k-ary tree"},
      {Rosched_Bcast_knomial, "bcast k-nomial tree"},
      {Rosched_Bcast_scatter_allgather, "bcast scatter + all-gather"}};
  if (!nodes.empty()) {
    for (const auto& [bcast, name] : broadcasts) {
      if (name != "bcast" && name != "bcast node-aware") continue;
      // Rosched_Bcast chooses (a trial at each size class's first call), in debug mode: the
      // trial checks every candidate's bytes (the node-aware broadcast, also with the scatter +
      // all-gather between the nodes, and the library's), every root, derived datatypes.
      if (name == "bcast") Rosched_Set_debug(1);
      test_bcast_ints(bcast, name);
      test_bcast_derived(bcast, name);
      Rosched_Set_debug(0);
      test_bcast_errors(bcast, name);
    }
    test_bcast_node_layout(std::atoi(nodes.c_str()));
    test_lanes_model(std::atoi(nodes.c_str()));
    test_allgather();
    test_allgathervs();
    test_node_aware_reductions();
    test_checked_trials();  // the node-aware reductions among the trials' checked candidates
    test_reduce_scatters();  // node-aware on nodes of equal size (ROSCHED_REDUCE_SCATTER=rosched)
    test_choice_queries(false, std::atoi(nodes.c_str()));
    test_lower_bound();  // the node-aware algorithms
    test_loc_pairs();
    test_matching_signatures();
    return finish("nodes of " + nodes);
  }
  if (one_block) {
    test_allgathervs();
    return finish("one block");
  }
  test_cost_model();
  test_one_block_tree_degree();
  test_bcast_measured_choice();
  test_bcast_repeat();
  for (const auto& [bcast, name] : broadcasts) {
    test_bcast_ints(bcast, name);
    test_bcast_derived(bcast, name);
    if (!many_blocks) test_bcast_errors(bcast, name);
  }
  test_allgathervs();
  test_allgather_circulant();
  if (many_blocks) test_reduce_scatters();  // their rounds streamed in parts of 24 B
  test_choice_queries(many_blocks, 0);  // many blocks: ROSCHED_REDUCE=rosched
  if (!many_blocks) {
    test_allgather();
    test_allreduce();
    test_library_choices();
    test_allgather_choices();
    test_errors();
    test_error_handling();
    test_inter_communicators();
    test_alltoall();
    test_allmerge();
  }
  test_two_tree_reductions();
  test_node_aware_reductions();
  test_lower_bound();  // many blocks: the pipelines cut 1,000 elements into many
  test_loc_pairs();
  test_matching_signatures();
  test_nway_allreduce(!many_blocks);
  if (!many_blocks) test_round_streams();
  return finish(many_blocks ? "many blocks" : "");
}
