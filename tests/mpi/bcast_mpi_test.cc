// The broadcasts of mpi_exec/ against their definitions (tests/mpi/collectives_mpi_test.cc runs
// them): every root, sizes 0, 1, q - 1, q, primes and 1 MiB, a derived datatype with gaps, bad
// arguments and debug-mode mismatches; Rosched_Bcast's timed choice and its short way for
// repeats, the node-aware broadcast's one-block tree and its node layout.
#include <mpi.h>

#include <algorithm>
#include <string>
#include <vector>

#include "mpi_exec/bcast_kary_tree.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/last_run.h"
#include "mpi_exec/rosched_mpi.h"
#include "tests/mpi/mpi_test_util.h"

namespace rosched_mpi_test {
void test_bcast_ints(BcastFn bcast, const std::string& name) {
  const int q = ceil_log2(p);
  for (int count : {0, 1, q - 1, q, 2, 7, 13, 101, 1009, 262144}) {
    if (count < 0) continue;
    for (int root = 0; root < p; ++root) {
      std::vector<int> buf(count + 2, -1);  // one guard element on each side
      if (rank == root)
        for (int i = 0; i < count; ++i) buf[i + 1] = pattern(root, i);
      const int rc = bcast(buf.data() + 1, count, MPI_INT, root, MPI_COMM_WORLD);
      bool ok = rc == MPI_SUCCESS && buf[0] == -1 && buf[count + 1] == -1;
      for (int i = 0; i < count && ok; ++i) ok = buf[i + 1] == pattern(root, i);
      expect(ok,
             name + " MPI_INT count=" + std::to_string(count) + " root=" + std::to_string(root));
    }
  }
}

// A vector type with gaps: 3 blocks of 2 ints, stride 3; the gaps must stay untouched.
void test_bcast_derived(BcastFn bcast, const std::string& name) {
  MPI_Datatype vec;
  MPI_Type_vector(3, 2, 3, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  MPI_Aint lb, extent;
  MPI_Type_get_extent(vec, &lb, &extent);
  const int per = static_cast<int>(extent / sizeof(int));  // 8 ints per element
  for (int count : {0, 1, 5, 999}) {
    for (int root = 0; root < p; root += (p > 3 ? 2 : 1)) {
      std::vector<int> buf(count * per + 1, -1);
      if (rank == root) {
        for (int e = 0; e < count; ++e)
          for (int b = 0; b < 3; ++b)
            for (int j = 0; j < 2; ++j) buf[e * per + 3 * b + j] = pattern(root, e * 6 + b * 2 + j);
      }
      const int rc = bcast(buf.data(), count, vec, root, MPI_COMM_WORLD);
      bool ok = rc == MPI_SUCCESS;
      for (int e = 0; e < count && ok; ++e) {
        for (int b = 0; b < 3; ++b) {
          for (int j = 0; j < 2; ++j)
            ok = ok && buf[e * per + 3 * b + j] == pattern(root, e * 6 + b * 2 + j);
          if (b < 2) ok = ok && (rank == root || buf[e * per + 3 * b + 2] == -1);  // gap
        }
      }
      expect(ok, name + " vector type count=" + std::to_string(count) +
                     " root=" + std::to_string(root));
    }
  }
  MPI_Type_free(&vec);
}

// Bad arguments come back as MPI error classes on a communicator with MPI_ERRORS_RETURN; in
// debug mode a mismatched root or message size is an error on every rank, not a hang.
void test_bcast_errors(BcastFn bcast, const std::string& name) {
  MPI_Comm comm = errors_return_comm();
  int buf[4] = {0, 0, 0, 0};
  int cls = 0;
  MPI_Error_class(bcast(buf, -1, MPI_INT, 0, comm), &cls);
  expect(cls == MPI_ERR_COUNT, name + " negative count gives MPI_ERR_COUNT");
  for (int root : {-1, p}) {
    MPI_Error_class(bcast(buf, 1, MPI_INT, root, comm), &cls);
    expect(cls == MPI_ERR_ROOT, name + " root " + std::to_string(root) + " gives MPI_ERR_ROOT");
  }
  MPI_Error_class(bcast(buf, 1, MPI_DATATYPE_NULL, 0, comm), &cls);
  expect(cls == MPI_ERR_TYPE, name + " MPI_DATATYPE_NULL gives MPI_ERR_TYPE");
  if (p > 1) {
    Rosched_Set_debug(1);
    MPI_Error_class(bcast(buf, 4, MPI_INT, rank == p - 1 ? 1 : 0, comm), &cls);
    expect(cls == MPI_ERR_ROOT, name + " debug: mismatched root gives MPI_ERR_ROOT on every rank");
    MPI_Error_class(bcast(buf, rank == 0 ? 3 : 4, MPI_INT, 0, comm), &cls);
    expect(cls == MPI_ERR_TRUNCATE,
           name + " debug: mismatched count gives MPI_ERR_TRUNCATE on every rank");
    Rosched_Set_debug(0);
  }
  MPI_Comm_free(&comm);
}

// Rosched_Bcast's timed choice: where the model predicts the circulant broadcast, the first call
// of a size class times MPI_Bcast against rosched's broadcasts (at p > 2 the circulant,
// hypercube and two-tree ones, and the k-ary tree where the model's crowding is 2 or more) on
// the caller's buffer. The data must arrive
// through the timed call too, every rank must keep the same answer (else at the next call the
// ranks would run different algorithms and hang), a size of the same class shares the answer,
// and a broadcast predicted native is never timed into circulant; the answer after a call names
// what it ran (last_run.h). A fresh communicator, so that no earlier call has decided its
// classes.
void test_bcast_measured_choice() {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const int first = 1 << 18, same_class = first + 4096;  // 1 MiB and 1 MiB + 16 KiB of ints
  int answer_first = -1, predicted_first = -1;           // predicted 1 for a new class: it is timed
  for (int count : {first, same_class, first >> 2}) {
    int predicted = -1, after = -1;
    Rosched_Bcast_choice(comm, count, MPI_INT, &predicted);
    const int root = p - 1;
    std::vector<int> buf(count, -1);
    if (rank == root)
      for (int i = 0; i < count; ++i) buf[i] = pattern(root, i);
    bool ok = Rosched_Bcast(buf.data(), count, MPI_INT, root, comm) == MPI_SUCCESS;
    for (int i = 0; i < count && ok; ++i) ok = buf[i] == pattern(root, i);
    const std::string what = "bcast timed choice, count " + std::to_string(count);
    expect(ok, what + ": data");
    const int ran = rosched::mpi::last_run(rosched::mpi::Decided::kBcast);
    Rosched_Bcast_choice(comm, count, MPI_INT, &after);
    // A timed call ran the winner it stored, a later one the class's answer.
    expect(ran == after, what + ": the answer names what the call ran (" + std::to_string(ran) +
                             " against " + std::to_string(after) + ")");
    int low = 0, high = 0;
    MPI_Allreduce(&after, &low, 1, MPI_INT, MPI_MIN, comm);
    MPI_Allreduce(&after, &high, 1, MPI_INT, MPI_MAX, comm);
    expect(low == high && after >= 0 && after <= 6, what + ": the same answer on every rank");
    expect(predicted != 0 || after == 0, what + ": predicted native stays native");
    if (count == first) answer_first = after, predicted_first = predicted;
    if (count == same_class && predicted_first == 1) {
      expect(predicted == 0 || predicted == answer_first,
             what + ": the class's answer before the call");
      expect(after == 0 || after == answer_first, what + ": the class's answer");
    }
  }
  MPI_Comm_free(&comm);
}

// Rosched_Bcast hands a repeat of this thread's last call that went to MPI_Bcast (same
// communicator, count and predefined datatype) straight to MPI_Bcast. The repeat must deliver
// from every root, still reject a root out of range, stop at debug mode (a mismatched count is
// an error on every rank: no rank may take the short way while the others compare), and never
// use a freed communicator's duplicate when a new communicator gets the old handle
// (sub-communicators of changing sizes, each made, used twice and freed).
void test_bcast_repeat() {
  const auto fill = [](int* buf, int root, int salt) {
    for (int i = 0; i < 4; ++i) buf[i] = rank == root ? pattern(root + salt, i) : -1;
  };
  const auto arrived = [](const int* buf, int root, int salt) {
    bool ok = true;
    for (int i = 0; i < 4; ++i) ok = ok && buf[i] == pattern(root + salt, i);
    return ok;
  };
  MPI_Comm comm = errors_return_comm();
  int buf[4];
  for (int call = 0; call < 3 * p; ++call) {
    const int root = call % p;
    fill(buf, root, call);
    const bool ok = Rosched_Bcast(buf, 4, MPI_INT, root, comm) == MPI_SUCCESS;
    expect(ok && arrived(buf, root, call),
           "bcast repeat: call " + std::to_string(call) + ", root " + std::to_string(root));
  }
  int cls = 0;
  for (int root : {p, -1}) {
    MPI_Error_class(Rosched_Bcast(buf, 4, MPI_INT, root, comm), &cls);
    expect(cls == MPI_ERR_ROOT,
           "bcast repeat: root " + std::to_string(root) + " gives MPI_ERR_ROOT");
  }
  if (p > 1) {
    Rosched_Bcast(buf, 4, MPI_INT, 0, comm);  // the repeat again, then debug mode
    Rosched_Set_debug(1);
    MPI_Error_class(Rosched_Bcast(buf, rank == 0 ? 3 : 4, MPI_INT, 0, comm), &cls);
    expect(cls == MPI_ERR_TRUNCATE,
           "bcast repeat: debug mode sees a mismatched count on every rank");
    Rosched_Set_debug(0);
  }
  MPI_Comm_free(&comm);
  for (int round = 0; round < 12; ++round) {
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank % (1 + round % 3), rank, &sub);
    int size = 0;
    MPI_Comm_size(sub, &size);
    int sub_rank = 0;
    MPI_Comm_rank(sub, &sub_rank);
    for (int call = 0; call < 2; ++call) {
      const int root = size - 1, salt = 100 * round + call;
      for (int i = 0; i < 4; ++i) buf[i] = sub_rank == root ? pattern(root + salt, i) : -1;
      const bool ok = Rosched_Bcast(buf, 4, MPI_INT, root, sub) == MPI_SUCCESS;
      expect(ok && arrived(buf, root, salt), "bcast repeat on a new sub-communicator, round " +
                                                 std::to_string(round) + ", call " +
                                                 std::to_string(call));
    }
    MPI_Comm_free(&sub);
  }
}

// The degree of the node-aware broadcast's one-block tree against enumeration of its rule, on
// linear models: kary_depth(p, d) levels of d messages at once (their bytes shared at fanout 2,
// not at fanout 1) against what it would replace (here ceil(log2 p) rounds of one message).
void test_one_block_tree_degree() {
  namespace rm = rosched::mpi;
  rm::CostModel linear = rm::CostModel::linear(1e-6, 1e-10);  // alpha 1 us, 10 GB/s
  for (double fanout : {2.0, 1.0}) {
    linear.fanout = fanout;
    for (int procs : {3, 32, 36, 1152}) {
      for (double bytes : {4.0, 1024.0, 16384.0, 262144.0}) {
        int best = 1;
        int rounds = 0;
        for (long long reach = 1; reach < procs; reach *= 2) ++rounds;
        double best_cost = rounds * (1e-6 + 1e-10 * bytes);
        for (int d = 2; d <= std::min(procs - 1, 64); ++d) {
          int depth = 0;
          for (long long level = 1, have = 1; have < procs; have += level *= d) ++depth;
          const double fan = fanout > 1.5 ? d * bytes : bytes;
          const double cost = depth * (1e-6 + 1e-10 * fan);
          if (cost < best_cost) best = d, best_cost = cost;
        }
        const double circulant = rounds * (1e-6 + 1e-10 * bytes);
        const rm::OneBlockTree tree = rm::one_block_tree_for(linear, procs, bytes, circulant);
        const int got = tree.degree;
        expect(got == 1 ? tree.seconds == circulant : tree.seconds < circulant,
               "one-block tree: the predicted time of what runs");
        expect(got == best, "one-block tree degree, fanout " + std::to_string(fanout) +
                                ", p=" + std::to_string(procs) + ", " + std::to_string(bytes) +
                                " B: " + std::to_string(got) + ", want " + std::to_string(best));
      }
    }
  }
  // 4 B within a node whose messages have paths of their own: one level of p - 1 sends.
  linear.fanout = 1;
  expect(rm::one_block_tree_for(linear, 32, 4, 5e-6).degree == 31,
         "one-block tree: 32 ranks, one level");
  // 1 MiB where messages share the path: the circulant broadcast (one block) over any tree.
  linear.fanout = 2;
  expect(rm::one_block_tree_for(linear, 36, 1048576, 6 * (1e-6 + 1e-10 * 1048576)).degree == 1,
         "one-block tree: 1 MiB, none");
  // Above the model's largest measured size (1 MiB): none, whatever the estimate.
  linear.fanout = 1;
  expect(rm::one_block_tree_for(linear, 32, 2097152, 1.0).degree == 1,
         "one-block tree: not beyond the model's sizes");
  // Nothing faster than what it would replace: none.
  expect(rm::one_block_tree_for(linear, 32, 4, 0.5e-6).degree == 1, "one-block tree: not faster");
}

// The node layout behind Rosched_Bcast_node_aware with ROSCHED_NODE_SIZE = k, seen through
// what it must do: on sub-communicators of every size (ranks 0..s-1 of MPI_COMM_WORLD, so the
// last node is short), every root, the data arrives; and a sub-communicator freed and made
// again (the layout and its two communicators go with it) still works.
void test_bcast_node_layout(int k) {
  for (int s = 1; s <= p; ++s) {
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank < s ? 0 : MPI_UNDEFINED, rank, &sub);
    if (sub == MPI_COMM_NULL) continue;
    for (int again = 0; again < 2; ++again) {
      for (int root = 0; root < s; ++root) {
        std::vector<int> buf(1000, -1);
        if (rank == root)
          for (int i = 0; i < 1000; ++i) buf[i] = pattern(root, i);
        bool ok = Rosched_Bcast_node_aware(buf.data(), 1000, MPI_INT, root, sub) == MPI_SUCCESS;
        for (int i = 0; i < 1000 && ok; ++i) ok = buf[i] == pattern(root, i);
        expect(ok, "bcast node-aware, nodes of " + std::to_string(k) + ", communicator of " +
                       std::to_string(s) + " ranks, root=" + std::to_string(root));
      }
    }
    MPI_Comm_free(&sub);
  }
}

}  // namespace rosched_mpi_test
