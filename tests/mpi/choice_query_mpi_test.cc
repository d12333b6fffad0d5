// Rosched_Reduce_choice, Rosched_Allreduce_choice and Rosched_Reduce_scatter(_block)_choice
// (mpi_exec/rosched_mpi.h) say what the choosing entry points run: the same answer on every
// rank, one of the collective's answers, and after a size class's first (timed) call the answer
// that call stored, which later calls keep; the library's collective wherever rosched's cannot
// run the operation (non-commutative: the all-reduce and the reduce-scatters; the node-aware
// reduction never; forced by ROSCHED_ALLREDUCE=rosched, the two-tree all-reduce); where a setting
// forces rosched's (ROSCHED_REDUCE=rosched, or ROSCHED_REDUCE_SCATTER=rosched on nodes), exactly
// the algorithm that runs then. Bad arguments
// are errors. The calls between the questions are checked as well. Rosched_Reduce_node_aware_choice
// and Rosched_Allreduce_node_aware_choice name what the node-aware entry points run: the
// node-aware forms exactly where the ranks sit on several multicore nodes (the lanes only on
// equal ones) and the operation is commutative, else the tree Rosched_Reduce would run without
// the library's, or the two-tree all-reduce.
#include <mpi.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/last_run.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/rosched_mpi.h"
#include "tests/mpi/mpi_test_util.h"

namespace rosched_mpi_test {
namespace {

using rosched::mpi::Decided;
using rosched::mpi::last_run;

// One Rosched_Reduce_scatter_block (irregular: Rosched_Reduce_scatter with block b of
// block + b % 3 elements) of the ints value(rank, i) with op, checked.
void reduce_scatter_once(MPI_Comm comm, int block, bool irregular, MPI_Op op,
                         const std::string& what) {
  std::vector<int> counts(p), starts(p + 1, 0);
  for (int b = 0; b < p; ++b) {
    counts[b] = irregular ? block + b % 3 : block;
    starts[b + 1] = starts[b] + counts[b];
  }
  std::vector<int> send(starts[p]), recv(counts[rank] + 1, -7);
  for (int i = 0; i < starts[p]; ++i) send[i] = value(rank, i);
  const int rc =
      irregular ? Rosched_Reduce_scatter(send.data(), recv.data(), counts.data(), MPI_INT, op, comm)
                : Rosched_Reduce_scatter_block(send.data(), recv.data(), block, MPI_INT, op, comm);
  bool ok = rc == MPI_SUCCESS && recv[counts[rank]] == -7;
  for (int i = 0; i < counts[rank] && ok; ++i) ok = recv[i] == sum_of(starts[rank] + i);
  expect(ok, what + ": data");
}

// A collective under test: its query for `count` with op, a checked call, and the kind under
// which the call records what it ran (mpi_exec/last_run.h).
struct Queried {
  const char* name;
  int answers;  // answers 0 .. answers - 1
  int (*query)(MPI_Comm comm, int count, MPI_Op op, int* algorithm);
  void (*call)(MPI_Comm comm, int count, MPI_Op op, const std::string& what);
  Decided recorded;
};

int reduce_query(MPI_Comm comm, int count, MPI_Op op, int* algorithm) {
  return Rosched_Reduce_choice(comm, count, MPI_INT, op, algorithm);
}
int allreduce_query(MPI_Comm comm, int count, MPI_Op op, int* algorithm) {
  return Rosched_Allreduce_choice(comm, count, MPI_INT, op, algorithm);
}
int scatter_block_query(MPI_Comm comm, int count, MPI_Op op, int* algorithm) {
  return Rosched_Reduce_scatter_block_choice(comm, count, MPI_INT, op, algorithm);
}
int scatter_query(MPI_Comm comm, int count, MPI_Op op, int* algorithm) {
  std::vector<int> counts(p);
  for (int b = 0; b < p; ++b) counts[b] = count + b % 3;
  return Rosched_Reduce_scatter_choice(comm, counts.data(), MPI_INT, op, algorithm);
}

void reduce_call(MPI_Comm comm, int count, MPI_Op op, const std::string& what) {
  if (op == MPI_SUM) {
    reduce_once(comm, count, count % p, false, what);
  } else {  // user-defined: the root's result only
    std::vector<int> send(count), recv(count, -7);
    for (int i = 0; i < count; ++i) send[i] = value(rank, i);
    bool ok = Rosched_Reduce(send.data(), recv.data(), count, MPI_INT, op, 0, comm) == MPI_SUCCESS;
    for (int i = 0; i < count && ok && rank == 0; ++i) ok = recv[i] == sum_of(i);
    expect(ok, what + ": data");
  }
}
void allreduce_call(MPI_Comm comm, int count, MPI_Op op, const std::string& what) {
  allreduce_once(comm, count, op, false, what);
}
void scatter_block_call(MPI_Comm comm, int count, MPI_Op op, const std::string& what) {
  reduce_scatter_once(comm, count, false, op, what);
}
void scatter_call(MPI_Comm comm, int count, MPI_Op op, const std::string& what) {
  reduce_scatter_once(comm, count, true, op, what);
}

const Queried kQueried[] = {
    {"reduce", 8, reduce_query, reduce_call, Decided::kReduce},
    {"allreduce", 9, allreduce_query, allreduce_call, Decided::kAllreduce},
    {"reduce_scatter_block", 5, scatter_block_query, scatter_block_call, Decided::kReduceScatter},
    {"reduce_scatter", 5, scatter_query, scatter_call, Decided::kReduceScatterV}};

// The call just made ran `answer` (its query's, asked after it), as it recorded.
void expect_ran(Decided recorded, int answer, const std::string& what) {
  const int ran = last_run(recorded);
  expect(ran == answer, what + ": ran what its query answers (ran " + std::to_string(ran) +
                            ", answer " + std::to_string(answer) + ")");
}

// Asks q for (count, op) on comm, checks the answer is one of q's and the same on every rank.
int ask(const Queried& q, MPI_Comm comm, int count, MPI_Op op, const std::string& what) {
  int answer = -1;
  const int rc = q.query(comm, count, op, &answer);
  expect(rc == MPI_SUCCESS && answer >= 0 && answer < q.answers,
         what + ": one of its answers (" + std::to_string(answer) + ")");
  expect(same_on_all(comm, answer), what + ": the same answer on every rank");
  return answer;
}

int reduce_node_aware_query(MPI_Comm comm, int count, MPI_Op op, int* algorithm) {
  return Rosched_Reduce_node_aware_choice(comm, count, MPI_INT, op, algorithm);
}
int allreduce_node_aware_query(MPI_Comm comm, int count, MPI_Op op, int* algorithm) {
  return Rosched_Allreduce_node_aware_choice(comm, count, MPI_INT, op, algorithm);
}

// The node-aware entry points' queries on comm, whose ranks sit on nodes of `nodes` consecutive
// ranks (0: on this machine's one node), with a reduction of each answer's kind run after it.
void test_node_aware_queries(MPI_Comm comm, bool reduce_forced, int nodes, MPI_Op noncommutative) {
  const bool several = nodes > 1 && p > nodes, equal = several && p % nodes == 0;
  for (int count : {3, 700, 20000}) {
    const std::string what = "node-aware choices, count " + std::to_string(count) +
                             (nodes > 0 ? ", nodes of " + std::to_string(nodes) : "");
    int reduce = -1, allreduce = -1, nc_reduce = -1, nc_allreduce = -1;
    expect(reduce_node_aware_query(comm, count, MPI_SUM, &reduce) == MPI_SUCCESS &&
               allreduce_node_aware_query(comm, count, MPI_SUM, &allreduce) == MPI_SUCCESS &&
               reduce_node_aware_query(comm, count, noncommutative, &nc_reduce) == MPI_SUCCESS &&
               allreduce_node_aware_query(comm, count, noncommutative, &nc_allreduce) ==
                   MPI_SUCCESS,
           what + ": answered");
    for (int a : {reduce, allreduce, nc_reduce, nc_allreduce}) {
      expect(same_on_all(comm, a), what + ": the same answer on every rank");
    }
    const std::string got = " (" + std::to_string(reduce) + ", " + std::to_string(allreduce) +
                            "; non-commutative " + std::to_string(nc_reduce) + ", " +
                            std::to_string(nc_allreduce) + ")";
    // The reduction: node-aware exactly on several nodes with a commutative operation; else the
    // k-nomial tree (always at p <= 2) or, for long vectors, the circulant reduction (commutative
    // operations) or the two trees (which keep rank order).
    expect(several ? reduce == 3 : reduce == 1 || reduce == 4, what + ": reduce" + got);
    expect(nc_reduce == 1 || nc_reduce == 2, what + ": non-commutative reduce, a tree" + got);
    for (int tree : {several ? nc_reduce : reduce, nc_reduce}) {
      if (p <= 2) expect(tree == 1, what + ": the k-nomial tree at p <= 2" + got);
    }
    if (p > 2 && count == 20000) {
      if (!several) expect(reduce == 4, what + ": the circulant reduction, long" + got);
      expect(nc_reduce == 2, what + ": the two trees, long, non-commutative" + got);
    }
    // With ROSCHED_REDUCE=rosched, Rosched_Reduce runs the same tree off nodes.
    int forced = -1;
    if (reduce_forced && !several &&
        Rosched_Reduce_choice(comm, count, MPI_INT, MPI_SUM, &forced) == MPI_SUCCESS) {
      expect(forced == reduce, what + ": Rosched_Reduce's tree, forced" + got);
    }
    // The all-reduce: the lanes on equal nodes, node-aware reduction + broadcast on unequal
    // ones, the two trees elsewhere and for a non-commutative operation.
    expect(allreduce == (equal ? 3 : several ? 6 : 5), what + ": allreduce" + got);
    expect(nc_allreduce == 5, what + ": non-commutative allreduce, the two trees" + got);
    // And they run: the reductions they name, checked.
    std::vector<int> send(count), recv(count, -7);
    for (int i = 0; i < count; ++i) send[i] = value(rank, i);
    bool ok = Rosched_Reduce_node_aware(send.data(), recv.data(), count, MPI_INT, MPI_SUM,
                                        p - 1, comm) == MPI_SUCCESS;
    for (int i = 0; i < count && ok && rank == p - 1; ++i) ok = recv[i] == sum_of(i);
    expect(ok, what + ": Rosched_Reduce_node_aware to rank p - 1, data");
    expect_ran(Decided::kReduce, reduce, what + ": Rosched_Reduce_node_aware");
    ok = Rosched_Allreduce_node_aware(send.data(), recv.data(), count, MPI_INT, MPI_SUM, comm) ==
         MPI_SUCCESS;
    for (int i = 0; i < count && ok; ++i) ok = recv[i] == sum_of(i);
    expect(ok, what + ": Rosched_Allreduce_node_aware, data");
    expect_ran(Decided::kAllreduce, allreduce, what + ": Rosched_Allreduce_node_aware");
    ok = Rosched_Allreduce_node_aware(send.data(), recv.data(), count, MPI_INT, noncommutative,
                                      comm) == MPI_SUCCESS;
    for (int i = 0; i < count && ok; ++i) ok = recv[i] == sum_of(i);
    expect(ok, what + ": Rosched_Allreduce_node_aware, non-commutative, data");
    expect_ran(Decided::kAllreduce, nc_allreduce,
               what + ": Rosched_Allreduce_node_aware, non-commutative");
  }
}

// Rosched_Reduce's trial also times the tree its rule passed over (the k-nomial tree or the
// pipelined reduction) for vectors up to the model's largest eager size; where that won (answer
// 4 of the trial), the query names the other tree and the call runs it. Stored here for 400 ints
// on one fresh communicator (its cost model, measured once, decides which tree is the rule's):
// the trial's answer 1, then 4, each as the size class's and as the (count, size) memo's. With
// the default settings only (ROSCHED_REDUCE and ROSCHED_REDUCE_PORTS each fix the tree).
void test_reduce_other_tree() {
  if (p <= 2 || std::getenv("ROSCHED_REDUCE") != nullptr ||
      std::getenv("ROSCHED_REDUCE_PORTS") != nullptr) {
    return;
  }
  const int count = 400;
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const rosched::mpi::CommInfo ci = rosched::mpi::comm_info(comm);
  int answers[2] = {-1, -1};
  for (int trial_answer : {1, 4}) {
    rosched::mpi::measured_choices(ci, Decided::kReduce).store(count * 4, trial_answer);
    rosched::mpi::decision_memo(ci, Decided::kReduce).store(count, 4, trial_answer);
    const std::string what = "reduce, a trial's answer " + std::to_string(trial_answer) + " stored";
    int& answer = answers[trial_answer == 4];
    answer = ask(kQueried[0], comm, count, MPI_SUM, what);
    reduce_once(comm, count, 1, false, what);
    expect_ran(Decided::kReduce, answer, what);
  }
  MPI_Comm_free(&comm);
  // MPI_SUM commutes: the k-nomial tree (1) and the circulant reduction (4), one each.
  expect((answers[0] == 1 && answers[1] == 4) || (answers[0] == 4 && answers[1] == 1),
         "reduce: the rule's tree and the other (" + std::to_string(answers[0]) + ", " +
             std::to_string(answers[1]) + ")");
}

}  // namespace

// The n-port forms as a trial's stored answers on a fresh communicator (which wins a trial depends
// on the machine): Rosched_Allreduce's 8, the reduce-scatters' 4 and Rosched_Reduce's 6 (its
// trial's 5; not with ROSCHED_REDUCE, which fixes the reduction) for size classes of short blocks
// (blocks of 0, 1 and 2 ints among them) and longer ones; the query names each, the call runs it
// (last_run) and delivers the right data. p > 2, where the trials time them.
void test_nport_stored_answers() {
  if (p <= 2 || std::getenv("ROSCHED_ALLREDUCE") != nullptr ||
      std::getenv("ROSCHED_REDUCE_SCATTER") != nullptr) {
    return;
  }
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const rosched::mpi::CommInfo ci = rosched::mpi::comm_info(comm);
  for (int count : {p - 1, p + 1, 2 * p, 700}) {
    // The keys the entry points keep their answers under: the count and its bytes (for
    // Rosched_Reduce_scatter the whole vector's: blocks count + b % 3).
    int irregular_total = 0;
    for (int b = 0; b < p; ++b) irregular_total += count + b % 3;
    const struct {
      const Queried& q;
      int key, stored, answer;
    } cases[] = {{kQueried[0], count, 5, 6},
                 {kQueried[1], count, 8, 8},
                 {kQueried[2], count, 4, 4},
                 {kQueried[3], irregular_total, 4, 4}};
    for (const auto& c : cases) {
      if (c.q.query == reduce_query && std::getenv("ROSCHED_REDUCE") != nullptr) continue;
      rosched::mpi::measured_choices(ci, c.q.recorded).store(c.key * 4LL, c.stored);
      rosched::mpi::decision_memo(ci, c.q.recorded).store(c.key, 4, c.stored);
      const std::string what = std::string(c.q.name) + ", answer " + std::to_string(c.answer) +
                               " stored, count " + std::to_string(count);
      expect(ask(c.q, comm, count, MPI_SUM, what) == c.answer, what + ": the query names it");
      c.q.call(comm, count, MPI_SUM, what);
      expect_ran(c.q.recorded, c.answer, what);
    }
  }
  MPI_Comm_free(&comm);
}

void test_choice_queries(bool reduce_forced, int scatter_nodes) {
  test_nport_stored_answers();
  MPI_Comm comm;  // fresh: no size class decided yet
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Op noncommutative;
  MPI_Op_create(sum_ints, 0, &noncommutative);
  // Counts of distinct size classes (for the reduce-scatters, per block).
  for (int count : {3, 700, 20000}) {
    for (const Queried& q : kQueried) {
      const std::string what = std::string(q.name) + " choice, count " + std::to_string(count);
      const int before = ask(q, comm, count, MPI_SUM, what + ", before its first call");
      q.call(comm, count, MPI_SUM, what + ", first call");
      const int after = ask(q, comm, count, MPI_SUM, what + ", after it");
      expect_ran(q.recorded, after, what + ", first call (a trial: its winner)");
      // The second call runs the class's answer; a third, where that is the library's, is a
      // repeat of the call the second handed to the library, which goes to it directly.
      for (const char* call : {", second call", ", third call"}) {
        q.call(comm, count, MPI_SUM, what + call);
        expect_ran(q.recorded, after, what + call);
      }
      expect(ask(q, comm, count, MPI_SUM, what + ", later") == after,
             what + ": the class's answer stands");
      const bool reduce = q.query == reduce_query, scatter = q.query == scatter_block_query ||
                                                             q.query == scatter_query;
      // ROSCHED_REDUCE=rosched: rosched's tree, the k-nomial one at p <= 2 and the circulant
      // reduction (MPI_SUM commutes) beyond the model's largest eager size (20,000 ints), at
      // every moment.
      if (reduce && reduce_forced) {
        for (int a : {before, after}) {
          expect(a != 0 && a != 3, what + ": forced to rosched's tree (" + std::to_string(a) + ")");
          if (p <= 2) expect(a == 1, what + ": the k-nomial tree at p <= 2");
          if (p > 2 && count == 20000) {
            expect(a == 4, what + ": the circulant reduction for long vectors");
          }
        }
      }
      // ROSCHED_REDUCE_SCATTER=rosched on nodes (no trial): node-aware where the nodes are
      // equal, else circulant.
      if (scatter && scatter_nodes > 0) {
        const int want = p % scatter_nodes == 0 ? 2 : 1;
        expect(before == want && after == want,
               what + ": forced, on nodes of " + std::to_string(scatter_nodes) + ": " +
                   std::to_string(want) + " (" + std::to_string(before) + ", " +
                   std::to_string(after) + ")");
      }
      if (p == 1 && q.query == allreduce_query) {
        expect(after == 1, what + ": p = 1, the census (a copy)");
      }
      // A non-commutative operation: the library's all-reduce and reduce-scatters (for p > 1),
      // never the node-aware reduction.
      const std::string nc = what + ", non-commutative";
      q.call(comm, count, noncommutative, nc);
      const int answer = ask(q, comm, count, noncommutative, nc);
      expect_ran(q.recorded, answer, nc);
      if (reduce) {
        expect(answer != 3 && answer != 4,
               nc + ": neither the node-aware nor the circulant reduction (" +
                   std::to_string(answer) + ")");
      } else if (p > 1 && q.query == allreduce_query && reduce_forced) {
        // ROSCHED_ALLREDUCE=rosched (with ROSCHED_REDUCE): rosched's all-reduce that keeps
        // rank order.
        expect(answer == 5, nc + ", forced: the two-tree all-reduce (" +
                                std::to_string(answer) + ")");
      } else if (p > 1) {
        expect(answer == 0, nc + ": the library's (" + std::to_string(answer) + ")");
      }
    }
  }
  test_node_aware_queries(comm, reduce_forced, scatter_nodes, noncommutative);
  test_reduce_other_tree();
  // An empty vector: nothing runs, and the record says so (kNothingRan), not the call before.
  int none = 0;
  const std::vector<int> zeros(p, 0);
  const std::string empty = "an empty vector: nothing ran";
  expect(Rosched_Reduce(&none, &none + 1, 0, MPI_INT, MPI_SUM, 0, comm) == MPI_SUCCESS &&
             last_run(Decided::kReduce) == rosched::mpi::kNothingRan,
         "Rosched_Reduce, " + empty);
  expect(Rosched_Allreduce(&none, &none + 1, 0, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS &&
             last_run(Decided::kAllreduce) == rosched::mpi::kNothingRan,
         "Rosched_Allreduce, " + empty);
  expect(Rosched_Reduce_scatter_block(&none, &none + 1, 0, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS &&
             last_run(Decided::kReduceScatter) == rosched::mpi::kNothingRan,
         "Rosched_Reduce_scatter_block, " + empty);
  expect(Rosched_Reduce_scatter(&none, &none + 1, zeros.data(), MPI_INT, MPI_SUM, comm) ==
                 MPI_SUCCESS &&
             last_run(Decided::kReduceScatterV) == rosched::mpi::kNothingRan,
         "Rosched_Reduce_scatter, " + empty);
  MPI_Op_free(&noncommutative);
  MPI_Comm_free(&comm);
  // Bad arguments, under MPI_ERRORS_RETURN.
  MPI_Comm bad = errors_return_comm();
  int answer = 0, cls = 0;
  for (const Queried& q : kQueried) {
    const std::string name = std::string(q.name) + " choice: ";
    MPI_Error_class(q.query(bad, 4, MPI_SUM, nullptr), &cls);
    expect(cls == MPI_ERR_ARG, name + "a NULL answer pointer gives MPI_ERR_ARG");
    MPI_Error_class(q.query(bad, -3, MPI_SUM, &answer), &cls);
    expect(cls == MPI_ERR_COUNT, name + "a negative count gives MPI_ERR_COUNT");
    MPI_Error_class(q.query(bad, 4, MPI_OP_NULL, &answer), &cls);
    expect(cls == MPI_ERR_OP, name + "MPI_OP_NULL gives MPI_ERR_OP");
  }
  for (auto query : {reduce_node_aware_query, allreduce_node_aware_query}) {
    const std::string name = query == reduce_node_aware_query ? "reduce node-aware choice: "
                                                              : "allreduce node-aware choice: ";
    MPI_Error_class(query(bad, 4, MPI_SUM, nullptr), &cls);
    expect(cls == MPI_ERR_ARG, name + "a NULL answer pointer gives MPI_ERR_ARG");
    MPI_Error_class(query(bad, -3, MPI_SUM, &answer), &cls);
    expect(cls == MPI_ERR_COUNT, name + "a negative count gives MPI_ERR_COUNT");
    MPI_Error_class(query(bad, 4, MPI_OP_NULL, &answer), &cls);
    expect(cls == MPI_ERR_OP, name + "MPI_OP_NULL gives MPI_ERR_OP");
  }
  MPI_Error_class(Rosched_Reduce_scatter_choice(bad, nullptr, MPI_INT, MPI_SUM, &answer), &cls);
  expect(cls == MPI_ERR_ARG, "reduce_scatter choice: NULL recvcounts give MPI_ERR_ARG");
  MPI_Comm_free(&bad);
}

}  // namespace rosched_mpi_test
