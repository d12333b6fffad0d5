// Errors of the collectives reach the caller as the native collectives' do (issue 14, items
// 1-4): bad operation/datatype pairs and uncommitted datatypes come back as MPI_ERR_OP and
// MPI_ERR_TYPE through the user's communicator's error handler, also one set after the
// communicator's first use; MPI_COMM_NULL goes to MPI_COMM_WORLD's handler; in debug mode an
// argument that is invalid on one rank only is an error on every rank (no hang), recvcounts are
// compared exactly; messages name the argument and its value.
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "mpi_exec/mpi_call.h"
#include "mpi_exec/rosched_mpi.h"
#include "tests/mpi/mpi_test_util.h"

namespace rosched_mpi_test {
namespace {

// What the recording error handler saw.
int handler_calls = 0, handler_class = MPI_SUCCESS;

void record_error(MPI_Comm*, int* code, ...) {
  ++handler_calls;
  MPI_Error_class(*code, &handler_class);
}

void expect_message(const std::string& text, const std::string& want, const std::string& what) {
  expect(text.find(want) != std::string::npos,
         what + ": message contains \"" + want + "\" (got \"" + text + "\")");
}

void sum_pairs(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int i = 0; i < 2 * *len; ++i) static_cast<int*>(inout)[i] += static_cast<int*>(in)[i];
}

// Item 1: MPI_SUM on MPI_C_BOOL, as the native collectives report it.
void test_bad_op_type_pair(MPI_Comm comm) {
  bool in[2] = {true, false}, out[2] = {false, false};
  const int native = error_class(MPI_Allreduce(in, out, 2, MPI_C_BOOL, MPI_SUM, comm));
  expect(native == MPI_ERR_OP, "native MPI_Allreduce: MPI_SUM on MPI_C_BOOL is MPI_ERR_OP");
  expect(error_class(Rosched_Allreduce(in, out, 2, MPI_C_BOOL, MPI_SUM, comm)) == native,
         "allreduce: MPI_SUM on MPI_C_BOOL gives MPI_ERR_OP");
  expect(error_class(Rosched_Reduce_two_tree(in, out, 2, MPI_C_BOOL, MPI_SUM, 0, comm)) == native,
         "reduce two-tree: MPI_SUM on MPI_C_BOOL gives MPI_ERR_OP");
  expect(error_class(Rosched_Allreduce_two_tree(in, out, 2, MPI_C_BOOL, MPI_SUM, comm)) == native,
         "allreduce two-tree: MPI_SUM on MPI_C_BOOL gives MPI_ERR_OP");
  expect(error_class(Rosched_Allreduce_nway(in, out, 2, MPI_C_BOOL, MPI_SUM, comm)) == native,
         "allreduce n-way: MPI_SUM on MPI_C_BOOL gives MPI_ERR_OP");
  std::string text;
  capture_stderr([&] { return Rosched_Allreduce(in, out, 2, MPI_C_BOOL, MPI_SUM, comm); }, text);
  expect_message(text, "op MPI_SUM is not defined on datatype MPI_C_BOOL", "allreduce bool sum");
}

// Item 1: an uncommitted datatype, as the native collectives report it.
void test_uncommitted_type(MPI_Comm comm) {
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);  // not committed
  MPI_Op op;
  MPI_Op_create(sum_pairs, 1, &op);
  std::vector<int> send(2, rank), recv(2 * p, 0), counts(p, 1), displs(p);
  for (int j = 0; j < p; ++j) displs[j] = j;
  const int native = error_class(MPI_Bcast(recv.data(), 1, pair, 0, comm));
  expect(native == MPI_ERR_TYPE, "native MPI_Bcast: an uncommitted datatype is MPI_ERR_TYPE");
  expect(error_class(Rosched_Allreduce(send.data(), recv.data(), 1, pair, op, comm)) == native,
         "allreduce: uncommitted datatype gives MPI_ERR_TYPE");
  expect(error_class(Rosched_Allreduce_nway(send.data(), recv.data(), 1, pair, op, comm)) == native,
         "allreduce n-way: uncommitted datatype gives MPI_ERR_TYPE");
  expect(error_class(Rosched_Allgather(send.data(), 1, pair, recv.data(), 1, pair, comm)) == native,
         "allgather: uncommitted datatype gives MPI_ERR_TYPE");
  expect(error_class(Rosched_Allgatherv(send.data(), 1, pair, recv.data(), counts.data(),
                                        displs.data(), pair, comm)) == native,
         "allgatherv: uncommitted datatype gives MPI_ERR_TYPE");
  const std::pair<BcastFn, const char*> broadcasts[] = {
      {Rosched_Bcast, "bcast"},
      {Rosched_Bcast_two_tree, "bcast two-tree"},
      {Rosched_Bcast_hypercube, "bcast hypercube"},
      {Rosched_Bcast_kary_tree, "bcast k-ary tree"},
      {Rosched_Bcast_knomial, "bcast k-nomial tree"},
      {Rosched_Bcast_scatter_allgather, "bcast scatter + all-gather"}};
  for (const auto& [bcast, name] : broadcasts) {
    expect(error_class(bcast(recv.data(), 1, pair, 0, comm)) == native,
           std::string(name) + ": uncommitted datatype gives MPI_ERR_TYPE");
  }
  MPI_Op_free(&op);
  MPI_Type_free(&pair);
}

// Item 1: a handler set after the communicator's first use is the one called.
void test_handler_set_after_first_use() {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);  // MPI_ERRORS_ARE_FATAL, inherited
  int value = rank == 0 ? 42 : 0;
  expect(Rosched_Bcast(&value, 1, MPI_INT, 0, comm) == MPI_SUCCESS && value == 42,
         "bcast on a fresh communicator");
  MPI_Errhandler recorder;
  MPI_Comm_create_errhandler(record_error, &recorder);
  MPI_Comm_set_errhandler(comm, recorder);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);  // not committed
  int buf[2] = {0, 0};
  handler_calls = 0;
  const int rc = Rosched_Bcast(buf, 1, pair, 0, comm);
  expect(error_class(rc) == MPI_ERR_TYPE && handler_calls == 1 && handler_class == MPI_ERR_TYPE,
         "bcast: the handler set after first use is called once with MPI_ERR_TYPE (calls " +
             std::to_string(handler_calls) + ")");
  MPI_Type_free(&pair);
  MPI_Errhandler_free(&recorder);
  MPI_Comm_free(&comm);
}

// Item 4: MPI_COMM_NULL goes to MPI_COMM_WORLD's handler, like Open MPI's own collectives.
void test_comm_null() {
  MPI_Errhandler recorder;
  MPI_Comm_create_errhandler(record_error, &recorder);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, recorder);
  int buf[2] = {0, 0};
  handler_calls = 0;
  MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_NULL);
  expect(handler_calls == 1 && handler_class == MPI_ERR_COMM,
         "native MPI_Bcast: MPI_COMM_NULL goes to MPI_COMM_WORLD's handler");
  handler_calls = 0;
  const int rc = Rosched_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_NULL);
  expect(error_class(rc) == MPI_ERR_COMM && handler_calls == 1 && handler_class == MPI_ERR_COMM,
         "bcast: MPI_COMM_NULL goes to MPI_COMM_WORLD's handler with MPI_ERR_COMM");
  handler_calls = 0;
  const int rc2 = Rosched_Allgather(buf, 1, MPI_INT, buf, 1, MPI_INT, MPI_COMM_NULL);
  expect(error_class(rc2) == MPI_ERR_COMM && handler_calls == 1 && handler_class == MPI_ERR_COMM,
         "allgather: MPI_COMM_NULL goes to MPI_COMM_WORLD's handler with MPI_ERR_COMM");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Errhandler_free(&recorder);
}

// Item 4: messages name the argument and its value.
void test_messages(MPI_Comm comm) {
  std::vector<int> buf(4 * p + 4, 0), counts(p, 1), displs(p, 0);
  counts[p - 1] = -1;
  std::string text;
  int cls = capture_stderr([&] {
    return Rosched_Allgatherv(MPI_IN_PLACE, 0, MPI_INT, buf.data(), counts.data(), displs.data(),
                              MPI_INT, comm);
  }, text);
  expect(cls == MPI_ERR_COUNT, "allgatherv: a negative recvcounts entry gives MPI_ERR_COUNT");
  expect_message(text, "recvcounts[" + std::to_string(p - 1) + "] = -1 is negative", "allgatherv");
  cls = capture_stderr(
      [&] { return Rosched_Allgather(buf.data(), -1, MPI_INT, buf.data() + 2, 1, MPI_INT, comm); },
      text);
  expect(cls == MPI_ERR_COUNT, "allgather: sendcount -1 gives MPI_ERR_COUNT");
  expect_message(text, "sendcount = -1 is negative", "allgather sendcount");
  cls = capture_stderr(
      [&] { return Rosched_Allgather(MPI_IN_PLACE, 0, MPI_INT, buf.data(), -2, MPI_INT, comm); },
      text);
  expect(cls == MPI_ERR_COUNT, "allgather: recvcount -2 gives MPI_ERR_COUNT");
  expect_message(text, "recvcount = -2 is negative", "allgather recvcount");
  cls = capture_stderr(
      [&] { return Rosched_Allgather(buf.data(), 2, MPI_INT, buf.data() + 2, 1, MPI_INT, comm); },
      text);
  expect(cls == MPI_ERR_TRUNCATE, "allgather: sendcount 2 for recvcount 1 gives MPI_ERR_TRUNCATE");
  expect_message(text, "= 8 bytes differs from recvcount * size of recvtype = 4 bytes",
                 "allgather sizes");
  cls = capture_stderr([&] { return Rosched_Bcast(buf.data(), 1, MPI_INT, p + 5, comm); }, text);
  expect(cls == MPI_ERR_ROOT, "bcast: root p + 5 gives MPI_ERR_ROOT");
  expect_message(text, "root = " + std::to_string(p + 5) + " is outside [0, " +
                           std::to_string(p) + ")", "bcast root");
}

// Item 2: in debug mode an argument invalid on rank 1 only is an error on every rank, and that
// rank reports its own error. Item 3: recvcounts are compared entry by entry (this pair has the
// same value under the former polynomial hash).
void test_debug_invalid_on_one_rank(MPI_Comm comm) {
  Rosched_Set_debug(1);
  const bool odd = rank == 1;
  std::vector<int> buf(8 * p + 8, 0);
  const std::pair<BcastFn, std::string> broadcasts[] = {
      {Rosched_Bcast, "bcast"},
      {Rosched_Bcast_two_tree, "bcast two-tree"},
      {Rosched_Bcast_hypercube, "bcast hypercube"},
      {Rosched_Bcast_kary_tree, "bcast k-ary tree"},
      {Rosched_Bcast_knomial, "bcast k-nomial tree"},
      {Rosched_Bcast_scatter_allgather, "bcast scatter + all-gather"}};
  for (const auto& [bcast, name] : broadcasts) {
    int cls = error_class(bcast(buf.data(), 1, MPI_INT, odd ? 99 : 0, comm));
    expect(cls == MPI_ERR_ROOT, "debug " + name + ": root 99 on rank 1 only: MPI_ERR_ROOT here");
    cls = error_class(bcast(buf.data(), odd ? -1 : 1, MPI_INT, 0, comm));
    expect(odd ? cls == MPI_ERR_COUNT : cls == MPI_ERR_TRUNCATE,
           "debug " + name + ": count -1 on rank 1 only: an error on every rank");
  }
  std::vector<int> counts(p, 1), displs(p);
  for (int j = 0; j < p; ++j) displs[j] = j;
  if (odd) counts[0] = -1;
  int cls = error_class(Rosched_Allgatherv(MPI_IN_PLACE, 0, MPI_INT, buf.data(), counts.data(),
                                           displs.data(), MPI_INT, comm));
  expect(cls == MPI_ERR_COUNT, "debug allgatherv: recvcounts[0] = -1 on rank 1 only");
  cls = error_class(Rosched_Allgather(buf.data(), odd ? 2 : 1, MPI_INT, buf.data() + 4 * p, 1,
                                      MPI_INT, comm));
  expect(cls == MPI_ERR_TRUNCATE, "debug allgather: sendcount 2 on rank 1 only: MPI_ERR_TRUNCATE");
  cls = error_class(Rosched_Allreduce(buf.data(), buf.data() + 4, odd ? -1 : 1, MPI_INT, MPI_SUM,
                                      comm));
  expect(cls == MPI_ERR_COUNT, "debug allreduce: count -1 on rank 1 only: MPI_ERR_COUNT");
  cls = error_class(Rosched_Allreduce_nway(buf.data(), buf.data() + 4, odd ? -1 : 1, MPI_INT,
                                           MPI_SUM, comm));
  expect(cls == MPI_ERR_COUNT, "debug allreduce n-way: count -1 on rank 1 only: MPI_ERR_COUNT");
  cls = error_class(Rosched_Reduce_two_tree(buf.data(), buf.data() + 4, 1, MPI_INT, MPI_SUM,
                                            odd ? 99 : 0, comm));
  expect(cls == MPI_ERR_ROOT, "debug reduce two-tree: root 99 on rank 1 only: MPI_ERR_ROOT");
  // {1, 0, 0, ...} on rank 0 and {0, 1000003, 0, ...} elsewhere.
  std::vector<int> colliding(p, 0), big(1000003 + 2, 0), zero(p, 0);
  if (rank == 0) colliding[0] = 1;
  else colliding[1] = 1000003;
  std::string text;
  cls = capture_stderr([&] {
    return Rosched_Allgatherv(MPI_IN_PLACE, 0, MPI_INT, big.data(), colliding.data(), zero.data(),
                              MPI_INT, comm);
  }, text);
  expect(cls == MPI_ERR_COUNT, "debug allgatherv: {1, 0} against {0, 1000003}: MPI_ERR_COUNT");
  expect_message(text,
                 std::string("recvcounts[0] * size of recvtype differs between ranks (this "
                             "rank: ") +
                     (rank == 0 ? "4" : "0") + ", range over the ranks: 0..4)",
                 "debug allgatherv mismatch");
  Rosched_Set_debug(0);
}

// sendbuf == recvbuf (not MPI_IN_PLACE), which MPI forbids: every all-reduce returns
// MPI_ERR_BUFFER on every rank and leaves the buffer as it was (the census used to deliver a wrong
// sum without an error), count 0 is no error; a reduction's root returns MPI_ERR_ARG (Open
// MPI's classes), which debug mode makes an error on every rank (elsewhere the other ranks would
// wait for the root); MPI_IN_PLACE off the root is MPI_ERR_ARG as well.
void test_aliased_buffers(MPI_Comm comm) {
  const std::pair<AllreduceFn, std::string> allreduces[] = {
      {Rosched_Allreduce, "allreduce"},
      {Rosched_Allreduce_census, "allreduce census"},
      {Rosched_Allreduce_scatter_gather, "allreduce scatter-gather"},
      {Rosched_Allreduce_nway, "allreduce n-way"},
      {Rosched_Allreduce_two_tree, "allreduce two-tree"},
      {Rosched_Allreduce_knomial, "allreduce k-nomial"},
      {Rosched_Allreduce_nport, "allreduce n-port"},
      {Rosched_Allreduce_node_aware, "allreduce node-aware"}};
  for (const auto& [allreduce, name] : allreduces) {
    std::vector<int> b(4, rank + 1);
    std::string text;
    const int cls =
        capture_stderr([&] { return allreduce(b.data(), b.data(), 4, MPI_INT, MPI_SUM, comm); },
                       text);
    expect(cls == MPI_ERR_BUFFER && b == std::vector<int>(4, rank + 1),
           name + ": sendbuf == recvbuf gives MPI_ERR_BUFFER, buffer untouched");
    expect_message(text, "sendbuf and recvbuf are the same buffer; use MPI_IN_PLACE", name);
    expect(allreduce(b.data(), b.data(), 0, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS,
           name + ": count 0 with sendbuf == recvbuf is no error");
  }
  const std::pair<ReduceFn, std::string> reduces[] = {
      {Rosched_Reduce, "reduce"},
      {Rosched_Reduce_two_tree, "reduce two-tree"},
      {Rosched_Reduce_binomial, "reduce binomial"},
      {Rosched_Reduce_circulant, "reduce circulant"},
      {Rosched_Reduce_node_aware, "reduce node-aware"},
      {Rosched_Reduce_scatter_gather, "reduce scatter-gather"},
      {Rosched_Reduce_nport, "reduce n-port scatter-gather"},
      {Rosched_Reduce_kary_tree, "reduce k-ary tree"}};
  Rosched_Set_debug(1);
  for (const auto& [reduce, name] : reduces) {
    for (const int root : {0, p - 1}) {
      std::vector<int> b(4, rank + 1), other(4, -1);
      const int cls = error_class(reduce(b.data(), rank == root ? b.data() : other.data(), 4,
                                         MPI_INT, MPI_SUM, root, comm));
      expect(cls == MPI_ERR_ARG && b == std::vector<int>(4, rank + 1),
             "debug " + name + ", root " + std::to_string(root) +
                 ": sendbuf == recvbuf at the root gives MPI_ERR_ARG on every rank");
      if (p > 1) {
        const int in_place = error_class(reduce(rank == root ? b.data() : MPI_IN_PLACE,
                                                other.data(), 4, MPI_INT, MPI_SUM, root, comm));
        expect(in_place == MPI_ERR_ARG, "debug " + name + ", root " + std::to_string(root) +
                                            ": MPI_IN_PLACE off the root gives MPI_ERR_ARG");
      }
    }
  }
  Rosched_Set_debug(0);
}

// A failed MPI collective that a collective calls on the user's communicator (the library's
// own where it is chosen, the agreements: mpi_call.h) meets the user's handler once, from MPI:
// the report after it does not call it again. A failure on the private duplicate (errors
// returned) meets it once too, from the report.
void test_failure_handled_once() {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Errhandler recorder;
  MPI_Comm_create_errhandler(record_error, &recorder);
  MPI_Comm_set_errhandler(comm, recorder);
  for (const bool on_user : {true, false}) {
    const std::string where = on_user ? "on the user's communicator" : "on the duplicate";
    handler_calls = 0;
    std::string text;
    const int cls = capture_stderr([&] {
      return rosched::mpi::run_collective("test", comm, [&](const rosched::mpi::CommInfo& ci) {
        int x = 0;  // root p: out of range on every rank
        if (on_user) {
          rosched::mpi::check_on(ci.user, PMPI_Bcast(&x, 1, MPI_INT, ci.p, ci.user), "MPI_Bcast");
        } else {
          rosched::mpi::check(PMPI_Bcast(&x, 1, MPI_INT, ci.p, ci.c), "MPI_Bcast");
        }
      });
    }, text);
    expect(cls == MPI_ERR_ROOT && handler_calls == 1 && handler_class == MPI_ERR_ROOT,
           "a failed MPI_Bcast " + where + ": MPI_ERR_ROOT, the handler called once (calls " +
               std::to_string(handler_calls) + ")");
    expect_message(text, "rosched test", "failure " + where);
  }
  MPI_Errhandler_free(&recorder);
  MPI_Comm_free(&comm);
}

}  // namespace

void test_error_handling() {
  MPI_Comm comm = errors_return_comm();
  test_bad_op_type_pair(comm);
  test_uncommitted_type(comm);
  test_messages(comm);
  if (p > 1) test_debug_invalid_on_one_rank(comm);
  test_aliased_buffers(comm);
  MPI_Comm_free(&comm);
  test_handler_set_after_first_use();
  test_comm_null();
  test_failure_handled_once();
}

}  // namespace rosched_mpi_test
