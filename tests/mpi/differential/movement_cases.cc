// The broadcasts, all-gathers and all-gathervs of the differential test: every Rosched_ entry
// point of each, random counts (zero to about 100,000 units), roots, MPI_IN_PLACE (with a
// null send type, which MPI ignores), displacements in a random order with gaps, and the same
// type on every rank or each rank its own of one family. Reference: MPI_Bcast, MPI_Allgather
// and MPI_Allgatherv, on packed bytes where the ranks' types differ (Open MPI 4.1.4's
// MPI_Allgatherv can hang when ranks of different datatypes choose different algorithms).
#include <vector>

#include "mpi_exec/rosched_mpi.h"
#include "tests/mpi/differential/cases.h"

namespace rosched::difftest {
namespace {

using BcastFn = int (*)(void*, int, MPI_Datatype, int, MPI_Comm);
using AllgatherFn = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm);
using AllgathervFn = int (*)(const void*, int, MPI_Datatype, void*, const int[], const int[],
                             MPI_Datatype, MPI_Comm);

const Algorithm<BcastFn> kBroadcasts[] = {
    {"Rosched_Bcast", Rosched_Bcast},
    {"Rosched_Bcast_circulant", Rosched_Bcast_circulant},
    {"Rosched_Bcast_node_aware", Rosched_Bcast_node_aware},
    {"Rosched_Bcast_two_tree", Rosched_Bcast_two_tree},
    {"Rosched_Bcast_scatter_allgather", Rosched_Bcast_scatter_allgather},
    {"Rosched_Bcast_kary_tree", Rosched_Bcast_kary_tree},
    {"Rosched_Bcast_knomial", Rosched_Bcast_knomial},
    {"Rosched_Bcast_hypercube", Rosched_Bcast_hypercube},
};
const Algorithm<AllgatherFn> kAllgathers[] = {
    {"Rosched_Allgather", Rosched_Allgather},
    {"Rosched_Allgather_circulant", Rosched_Allgather_circulant},
    {"Rosched_Allgather_nway", Rosched_Allgather_nway},
    {"Rosched_Allgather_node_aware", Rosched_Allgather_node_aware},
};
const Algorithm<AllgathervFn> kAllgathervs[] = {
    {"Rosched_Allgatherv", Rosched_Allgatherv},
    {"Rosched_Allgatherv_circulant", Rosched_Allgatherv_circulant},
    {"Rosched_Allgatherv_node_aware", Rosched_Allgatherv_node_aware},
    {"Rosched_Allgatherv_largest", Rosched_Allgatherv_largest},
    {"Rosched_Allgatherv_nway", Rosched_Allgatherv_nway},
};

}  // namespace

Outcome run_bcast(Case& c) {
  Rng& shared = *c.shared;
  Outcome o;
  const TypePlan plan = draw_type_plan(shared);
  const int units = draw_count(c);
  const int root = shared.uniform(0, c.p - 1);
  const auto& bcast = draw_algorithm(shared, kBroadcasts);
  const TypeInfo& t = type_info(rank_type(plan, *c.local));
  const int count = elements_for(plan, t, units);
  appendf(c.description, "%s root=%d %s", bcast.name, root,
          plan.mixed ? "mixed-types" : "same-type");
  if (plan.mixed) {
    appendf(c.description, " total_items=%d", units * plan.fields_per_unit);
  } else {
    appendf(c.description, " count=%d type=%s", count, t.name);
  }
  Buffer got = make_buffer(t, count, 1);
  if (c.rank == root) {
    fill_random(*c.local, got, t, 0, count);
  } else {
    mark_data(got, t, 0, count);
  }
  Buffer want = got;
  before_call(c);
  o.rosched_class = error_class(bcast.call(got.data(), count, t.handle, root, c.comm));
  if (plan.mixed) {
    std::vector<unsigned char> bytes = c.rank == root
                                           ? pack(want, t, 0, count)
                                           : std::vector<unsigned char>(count * t.data_bytes());
    o.reference_class = error_class(
        PMPI_Bcast(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, root, c.comm));
    unpack(bytes.data(), want, t, 0, count);
    appendf(c.description, " [rank%d:%s x%d]", c.rank, t.name, count);
  } else {
    o.reference_class = error_class(PMPI_Bcast(want.data(), count, t.handle, root, c.comm));
  }
  compare_into(o, c, "buffer", got, want);
  return o;
}

Outcome run_allgather(Case& c) {
  Rng& shared = *c.shared;
  Outcome o;
  const TypePlan plan = draw_type_plan(shared);
  const int units = draw_count(c, 100000 / c.p);
  const bool in_place = shared.chance(30);
  const auto& allgather = draw_algorithm(shared, kAllgathers);
  const TypeInfo& st = type_info(rank_type(plan, *c.local));
  const TypeInfo& rt = type_info(rank_type(plan, *c.local));
  const int scount = elements_for(plan, st, units), rcount = elements_for(plan, rt, units);
  appendf(c.description, "%s %s %s", allgather.name, in_place_text(in_place),
          mixed_text(plan.mixed));
  describe_types(c, plan, units, st, scount, rt, rcount);
  Buffer send = make_buffer(st, scount, 2);
  Buffer got = make_buffer(rt, static_cast<long>(rcount) * c.p, 3);
  mark_data(got, rt, 0, static_cast<long>(rcount) * c.p);
  if (in_place) {
    fill_random(*c.local, got, rt, static_cast<long>(rcount) * c.rank, rcount);
  } else {
    fill_random(*c.local, send, st, 0, scount);
  }
  Buffer want = got, send_before = send;
  // With MPI_IN_PLACE, sendcount and sendtype are ignored: half the time 0 and a null type.
  const bool ignored_send_args = in_place && shared.chance(50);
  const void* sendbuf = in_place ? MPI_IN_PLACE : send.data();
  const int sendcount = ignored_send_args ? 0 : scount;
  const MPI_Datatype sendtype = ignored_send_args ? MPI_DATATYPE_NULL : st.handle;
  if (ignored_send_args) c.description += " (sendcount=0,sendtype=NULL)";
  before_call(c);
  o.rosched_class = error_class(
      allgather.call(sendbuf, sendcount, sendtype, got.data(), rcount, rt.handle, c.comm));
  if (plan.mixed) {
    const std::vector<unsigned char> mine =
        in_place ? pack(want, rt, static_cast<long>(rcount) * c.rank, rcount)
                 : pack(send, st, 0, scount);
    std::vector<unsigned char> all;
    o.reference_class = error_class(allgather_bytes(mine, all, c.comm));
    for (int j = 0; j < c.p; ++j) {
      unpack(all.data() + j * mine.size(), want, rt, static_cast<long>(rcount) * j, rcount);
    }
  } else {
    o.reference_class = error_class(
        PMPI_Allgather(sendbuf, sendcount, sendtype, want.data(), rcount, rt.handle, c.comm));
  }
  compare_results(o, c, "recvbuf", got, want, send, send_before);
  return o;
}

Outcome run_allgatherv(Case& c) {
  Rng& shared = *c.shared;
  Outcome o;
  const TypePlan plan = draw_type_plan(shared);
  const std::vector<int> units = draw_counts(c, 100000);
  const bool in_place = shared.chance(30);
  const bool in_order = shared.chance(30);
  const auto& allgatherv = draw_algorithm(shared, kAllgathervs);
  const TypeInfo& st = type_info(rank_type(plan, *c.local));
  const TypeInfo& rt = type_info(rank_type(plan, *c.local));
  std::vector<int> rcounts(c.p);
  for (int j = 0; j < c.p; ++j) rcounts[j] = elements_for(plan, rt, units[j]);
  const int scount = elements_for(plan, st, units[c.rank]);
  long total = 0;  // each rank its own layout
  const std::vector<int> displs = draw_displacements(*c.local, rcounts, in_order, &total);
  appendf(c.description, "%s %s %s displs=%s units=[%s]", allgatherv.name, in_place_text(in_place),
          mixed_text(plan.mixed), in_order ? "running-sum" : "permuted+gaps", join(units).c_str());
  if (plan.mixed) appendf(c.description, " x%d items", plan.fields_per_unit);
  appendf(c.description, " [rank%d: send %s x%d recv %s displs=(%s)]", c.rank, st.name, scount,
          rt.name, join(displs).c_str());
  Buffer send = make_buffer(st, scount, 2), got = make_buffer(rt, total, 3);
  for (int j = 0; j < c.p; ++j) mark_data(got, rt, displs[j], rcounts[j]);
  if (in_place) {
    fill_random(*c.local, got, rt, displs[c.rank], rcounts[c.rank]);
  } else {
    fill_random(*c.local, send, st, 0, scount);
  }
  Buffer want = got, send_before = send;
  const void* sendbuf = in_place ? MPI_IN_PLACE : send.data();
  before_call(c);
  o.rosched_class = error_class(allgatherv.call(sendbuf, scount, st.handle, got.data(),
                                                rcounts.data(), displs.data(), rt.handle, c.comm));
  if (plan.mixed) {
    std::vector<unsigned char> mine =
        in_place ? pack(want, rt, displs[c.rank], rcounts[c.rank]) : pack(send, st, 0, scount);
    std::vector<int> byte_counts(c.p);
    for (int j = 0; j < c.p; ++j) byte_counts[j] = static_cast<int>(rcounts[j] * rt.data_bytes());
    long total_bytes = 0;
    const std::vector<int> byte_displs = displacements_in_order(byte_counts, &total_bytes);
    std::vector<unsigned char> all(total_bytes + 1);
    o.reference_class = error_class(PMPI_Allgatherv(mine.data(), static_cast<int>(mine.size()),
                                                    MPI_BYTE, all.data(), byte_counts.data(),
                                                    byte_displs.data(), MPI_BYTE, c.comm));
    for (int j = 0; j < c.p; ++j) {
      unpack(all.data() + byte_displs[j], want, rt, displs[j], rcounts[j]);
    }
  } else {
    o.reference_class = error_class(PMPI_Allgatherv(
        sendbuf, scount, st.handle, want.data(), rcounts.data(), displs.data(), rt.handle, c.comm));
  }
  compare_results(o, c, "recvbuf", got, want, send, send_before);
  return o;
}

}  // namespace rosched::difftest
