// The reductions of the differential test: every Rosched_ entry point of the all-reduce (and
// the split-phase n-way all-reduce, completed by Rosched_Wait or by Rosched_Test), reduction,
// reduce-scatter-block and reduce-scatter, on the types and operations of draw_reduction,
// random counts, roots, MPI_IN_PLACE, a null recvbuf off the root, and (all-reduces)
// sendbuf == recvbuf, which must be MPI_ERR_BUFFER as in Open MPI. Reference: MPI_Allreduce,
// MPI_Reduce, MPI_Reduce_scatter_block and MPI_Reduce_scatter, or manual_reduce where Open MPI
// 4.1.4 is wrong. A non-commutative operation must be MPI_ERR_OP for the algorithms that need
// a commutative one, and MPI's result for the others.
#include <vector>

#include "mpi_exec/rosched_mpi.h"
#include "tests/mpi/differential/cases.h"

namespace rosched::difftest {
namespace {

using AllreduceFn = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);
using ReduceFn = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
using ReduceScatterBlockFn = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);
using ReduceScatterFn = int (*)(const void*, void*, const int[], MPI_Datatype, MPI_Op, MPI_Comm);

// The entry without a call is Rosched_Iallreduce_nway, completed by Wait or Test.
const Algorithm<AllreduceFn> kAllreduces[] = {
    {"Rosched_Allreduce", Rosched_Allreduce},
    {"Rosched_Allreduce_census", Rosched_Allreduce_census, true},
    {"Rosched_Allreduce_scatter_gather", Rosched_Allreduce_scatter_gather, true},
    {"Rosched_Allreduce_nway", Rosched_Allreduce_nway, true},
    {"Rosched_Allreduce_node_aware", Rosched_Allreduce_node_aware},
    {"Rosched_Allreduce_two_tree", Rosched_Allreduce_two_tree},
    {"Rosched_Allreduce_knomial", Rosched_Allreduce_knomial},
    {"Rosched_Allreduce_nport", Rosched_Allreduce_nport, true},
    {"Rosched_Iallreduce_nway", nullptr, true},
};
const Algorithm<ReduceFn> kReduces[] = {
    {"Rosched_Reduce", Rosched_Reduce},
    {"Rosched_Reduce_two_tree", Rosched_Reduce_two_tree},
    {"Rosched_Reduce_circulant", Rosched_Reduce_circulant, true},
    {"Rosched_Reduce_scatter_gather", Rosched_Reduce_scatter_gather, true},
    {"Rosched_Reduce_nport", Rosched_Reduce_nport, true},
    {"Rosched_Reduce_kary_tree", Rosched_Reduce_kary_tree, true},
    {"Rosched_Reduce_binomial", Rosched_Reduce_binomial},
    {"Rosched_Reduce_node_aware", Rosched_Reduce_node_aware},
};
const Algorithm<ReduceScatterBlockFn> kReduceScatterBlocks[] = {
    {"Rosched_Reduce_scatter_block", Rosched_Reduce_scatter_block},
    {"Rosched_Reduce_scatter_block_circulant", Rosched_Reduce_scatter_block_circulant, true},
    {"Rosched_Reduce_scatter_block_nport", Rosched_Reduce_scatter_block_nport, true},
    {"Rosched_Reduce_scatter_block_node_aware", Rosched_Reduce_scatter_block_node_aware, true},
};
const Algorithm<ReduceScatterFn> kReduceScatters[] = {
    {"Rosched_Reduce_scatter", Rosched_Reduce_scatter},
    {"Rosched_Reduce_scatter_circulant", Rosched_Reduce_scatter_circulant, true},
    {"Rosched_Reduce_scatter_nport", Rosched_Reduce_scatter_nport, true},
    {"Rosched_Reduce_scatter_node_aware", Rosched_Reduce_scatter_node_aware, true},
};

int iallreduce_nway(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                    MPI_Comm comm, bool by_wait) {
  Rosched_Request request = ROSCHED_REQUEST_NULL;
  int rc = Rosched_Iallreduce_nway(sendbuf, recvbuf, count, type, op, comm, &request);
  if (rc != MPI_SUCCESS) return rc;
  if (by_wait) return Rosched_Wait(&request);
  for (int done = 0; !done && rc == MPI_SUCCESS;) rc = Rosched_Test(&request, &done);
  return rc;
}

// A non-commutative operation must be MPI_ERR_OP where the algorithm needs a commutative one.
void expect_commutative_only(Outcome& o, bool commutative_only, const ReductionPlan& plan) {
  if (commutative_only && !is_commutative(plan.op)) {
    o.expect_rosched_class = true;
    o.expected_class = MPI_ERR_OP;
  }
}

// The reference for a reduction of n elements of `input` whose result, from packed element
// `from` on, is `count` elements written to `want` (at ranks that hold a result): the library's
// collective (mpi_call) or manual_reduce. Sets o.reference_class.
template <class MpiCall>
void reference(Outcome& o, const Case& c, const ReductionPlan& plan, Buffer& input, long n,
               Buffer& want, long from, long count, bool has_result, MpiCall mpi_call) {
  if (!needs_manual_reference(plan)) {
    o.reference_class = error_class(mpi_call());
    return;
  }
  const TypeInfo& t = type_info(plan.type);
  const std::vector<unsigned char> result = manual_reduce(c.comm, input, t, n, plan.op);
  if (has_result) unpack(result.data() + from * t.data_bytes(), want, t, 0, count);
  o.reference_class = MPI_SUCCESS;
}

// A reduce-scatter of n = sum(counts) elements: this rank's block, counts[rank] elements from
// element `from` of the result, in recvbuf (MPI_IN_PLACE: at the start of the input there, the
// rest of it unspecified after the call).
template <class RoschedCall, class MpiCall>
Outcome reduce_scatter(Case& c, const ReductionPlan& plan, const std::vector<int>& counts,
                       bool in_place, bool commutative_only, RoschedCall rosched_call,
                       MpiCall mpi_call) {
  Outcome o;
  const TypeInfo& t = type_info(plan.type);
  long n = 0, from = 0;  // all elements; this rank's block's first
  for (int j = 0; j < c.p; ++j) {
    if (j < c.rank) from += counts[j];
    n += counts[j];
  }
  const int mine = counts[c.rank];
  Buffer send = make_buffer(t, n, 2), got = make_buffer(t, in_place ? n : mine, 3);
  mark_data(got, t, 0, mine);
  fill_operands(*c.local, in_place ? got : send, t, 0, n, plan.op);
  Buffer want = got, send_before = send;
  const void* sendbuf = in_place ? MPI_IN_PLACE : send.data();
  before_call(c);
  o.rosched_class = error_class(rosched_call(sendbuf, got.data()));
  reference(o, c, plan, in_place ? want : send, n, want, from, mine, true,
            [&] { return mpi_call(sendbuf, want.data()); });
  expect_commutative_only(o, commutative_only, plan);
  if (in_place) ignore_from(got, want, mine > 0 ? (mine - 1) * t.extent + t.span_end() : 0);
  compare_results(o, c, in_place ? "recvbuf(own block)" : "recvbuf", got, want, send, send_before);
  return o;
}

}  // namespace

Outcome run_allreduce(Case& c) {
  Rng& shared = *c.shared;
  Outcome o;
  const ReductionPlan plan = draw_reduction(shared, c.options->reductions);
  const int count = draw_count(c);
  const bool in_place = shared.chance(30);
  const auto& allreduce = draw_algorithm(shared, kAllreduces);
  const bool by_wait = allreduce.call == nullptr && shared.chance(50);
  // sendbuf == recvbuf: erroneous in MPI, and Open MPI's MPI_Allreduce says MPI_ERR_BUFFER.
  const bool aliased = !in_place && shared.chance(10);
  const TypeInfo& t = type_info(plan.type);
  const MPI_Op op = mpi_op(plan.op);
  appendf(c.description, "%s%s %s count=%d type=%s op=%s", allreduce.name,
          allreduce.call ? ""
          : by_wait      ? "+Wait"
                         : "+Test",
          in_place  ? "IN_PLACE"
          : aliased ? "ALIASED(sendbuf==recvbuf)"
                    : "",
          count, t.name, op_name(plan.op));
  Buffer send = make_buffer(t, count, 2), got = make_buffer(t, count, 3);
  mark_data(got, t, 0, count);
  fill_operands(*c.local, in_place || aliased ? got : send, t, 0, count, plan.op);
  Buffer want = got, send_before = send;
  const void* sendbuf = in_place ? MPI_IN_PLACE : aliased ? got.data() : send.data();
  before_call(c);
  o.rosched_class = error_class(
      allreduce.call ? allreduce.call(sendbuf, got.data(), count, t.handle, op, c.comm)
                     : iallreduce_nway(sendbuf, got.data(), count, t.handle, op, c.comm, by_wait));
  if (aliased) {
    o.reference_class =
        error_class(PMPI_Allreduce(want.data(), want.data(), count, t.handle, op, c.comm));
  } else {
    reference(o, c, plan, in_place ? want : send, count, want, 0, count, true,
              [&] { return PMPI_Allreduce(sendbuf, want.data(), count, t.handle, op, c.comm); });
  }
  expect_commutative_only(o, allreduce.commutative_only, plan);
  if (aliased && count > 0) {
    o.expect_rosched_class = true;
    o.expected_class = MPI_ERR_BUFFER;
  }
  compare_results(o, c, "recvbuf", got, want, send, send_before);
  return o;
}

Outcome run_reduce(Case& c) {
  Rng& shared = *c.shared;
  Outcome o;
  const ReductionPlan plan = draw_reduction(shared, c.options->reductions);
  const int count = draw_count(c);
  const int root = shared.uniform(0, c.p - 1);
  const bool in_place_at_root = shared.chance(30);
  const bool null_recvbuf = shared.chance(30);  // off the root, where it is not significant
  const auto& reduce = draw_algorithm(shared, kReduces);
  const TypeInfo& t = type_info(plan.type);
  const MPI_Op op = mpi_op(plan.op);
  appendf(c.description, "%s root=%d %s %s count=%d type=%s op=%s", reduce.name, root,
          in_place_at_root ? "IN_PLACE@root" : "", null_recvbuf ? "recvbuf=NULL@nonroot" : "",
          count, t.name, op_name(plan.op));
  const bool in_place = in_place_at_root && c.rank == root;
  Buffer send = make_buffer(t, count, 2), got = make_buffer(t, count, 3);
  if (c.rank == root) mark_data(got, t, 0, count);
  fill_operands(*c.local, in_place ? got : send, t, 0, count, plan.op);
  Buffer want = got, send_before = send;
  const void* sendbuf = in_place ? MPI_IN_PLACE : send.data();
  const bool null_here = null_recvbuf && c.rank != root;
  before_call(c);
  o.rosched_class = error_class(
      reduce.call(sendbuf, null_here ? nullptr : got.data(), count, t.handle, op, root, c.comm));
  reference(o, c, plan, in_place ? want : send, count, want, 0, count, c.rank == root, [&] {
    return PMPI_Reduce(sendbuf, null_here ? nullptr : want.data(), count, t.handle, op, root,
                       c.comm);
  });
  expect_commutative_only(o, reduce.commutative_only, plan);
  compare_results(o, c, c.rank == root ? "recvbuf(root)" : "recvbuf(non-root, not significant)",
                  got, want, send, send_before);
  return o;
}

Outcome run_reduce_scatter_block(Case& c) {
  Rng& shared = *c.shared;
  const ReductionPlan plan = draw_reduction(shared, c.options->reductions);
  const int count = draw_count(c, 100000 / c.p);
  const bool in_place = shared.chance(30);
  const auto& rsb = draw_algorithm(shared, kReduceScatterBlocks);
  const TypeInfo& t = type_info(plan.type);
  const MPI_Op op = mpi_op(plan.op);
  appendf(c.description, "%s %s recvcount=%d type=%s op=%s", rsb.name, in_place ? "IN_PLACE" : "",
          count, t.name, op_name(plan.op));
  return reduce_scatter(
      c, plan, std::vector<int>(c.p, count), in_place, rsb.commutative_only,
      [&](const void* sendbuf, void* recvbuf) {
        return rsb.call(sendbuf, recvbuf, count, t.handle, op, c.comm);
      },
      [&](const void* sendbuf, void* recvbuf) {
        return PMPI_Reduce_scatter_block(sendbuf, recvbuf, count, t.handle, op, c.comm);
      });
}

Outcome run_reduce_scatter(Case& c) {
  Rng& shared = *c.shared;
  const ReductionPlan plan = draw_reduction(shared, c.options->reductions);
  const std::vector<int> counts = draw_counts(c, 100000);
  const bool in_place = shared.chance(30);
  const auto& rs = draw_algorithm(shared, kReduceScatters);
  const TypeInfo& t = type_info(plan.type);
  const MPI_Op op = mpi_op(plan.op);
  appendf(c.description, "%s %s type=%s op=%s recvcounts=[%s]", rs.name, in_place ? "IN_PLACE" : "",
          t.name, op_name(plan.op), join(counts).c_str());
  return reduce_scatter(
      c, plan, counts, in_place, rs.commutative_only,
      [&](const void* sendbuf, void* recvbuf) {
        return rs.call(sendbuf, recvbuf, counts.data(), t.handle, op, c.comm);
      },
      [&](const void* sendbuf, void* recvbuf) {
        return PMPI_Reduce_scatter(sendbuf, recvbuf, counts.data(), t.handle, op, c.comm);
      });
}

}  // namespace rosched::difftest
