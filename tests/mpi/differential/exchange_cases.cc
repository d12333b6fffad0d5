// The all-to-alls and the all-merge of the differential test. Rosched_Alltoall and
// Rosched_Alltoallv (the cost rule and every variant by name) against MPI_Alltoall and
// MPI_Alltoallv: random counts, count matrices with zeros and one huge block, MPI_IN_PLACE
// (symmetric matrices), displacements in a random order with gaps, mixed types on packed bytes.
// Rosched_Allmerge, which MPI lacks, against MPI_Allgatherv of the sorted blocks and a stable
// sort by key (equal keys in rank order): keys with many duplicates, -0.0 beside 0.0, every
// algorithm, and a derived type with a user's merge function that carries a payload.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "mpi_exec/rosched_mpi.h"
#include "tests/mpi/differential/cases.h"

namespace rosched::difftest {
namespace {

// "" is the cost rule (Rosched_Alltoall, Rosched_Alltoallv), the others go to the _variant call.
const char* const kAlltoallVariants[] = {"",       "basic",    "modified", "zerorot", "zerocopy",
                                         "padded", "twophase", "linear",   "auto"};
const char* const kAlltoallvVariants[] = {"", "padded", "twophase", "linear", "auto"};

// The merge function for kIntVector: the key in the first int, a payload in the second, 16
// bytes apart; stable (a's elements first on equal keys). Writes only those two ints.
void merge_key_payload(const void* a, int na, const void* b, int nb, void* out, MPI_Datatype,
                       void*) {
  const char* x = static_cast<const char*>(a);
  const char* y = static_cast<const char*>(b);
  char* z = static_cast<char*>(out);
  auto key = [](const char* e) {
    int v;
    std::memcpy(&v, e, 4);
    return v;
  };
  auto put = [&z](const char* e) {
    std::memcpy(z, e, 4);
    std::memcpy(z + 12, e + 12, 4);
    z += 16;
  };
  int i = 0, j = 0;
  while (i < na && j < nb) put(key(y + 16 * j) < key(x + 16 * i) ? y + 16 * j++ : x + 16 * i++);
  while (i < na) put(x + 16 * i++);
  while (j < nb) put(y + 16 * j++);
}

// The sort key of an all-merge element.
double merge_key(int type, const unsigned char* e) {
  if (type == kInt || type == kIntVector) {
    int v;
    std::memcpy(&v, e, 4);
    return v;
  }
  if (type == kLong) {
    long v;
    std::memcpy(&v, e, 8);
    return static_cast<double>(v);
  }
  double v;
  std::memcpy(&v, e, 8);
  return v;
}

}  // namespace

Outcome run_alltoall(Case& c) {
  Rng& shared = *c.shared;
  Outcome o;
  const TypePlan plan = draw_type_plan(shared);
  const int units = draw_count(c, 20000 / c.p);
  const bool in_place = shared.chance(30);
  const char* variant = kAlltoallVariants[shared.uniform(0, 8)];
  const TypeInfo& st = type_info(rank_type(plan, *c.local));
  const TypeInfo& rt = type_info(rank_type(plan, *c.local));
  const int scount = elements_for(plan, st, units), rcount = elements_for(plan, rt, units);
  appendf(c.description, "%s(%s) %s %s", *variant ? "Rosched_Alltoall_variant" : "Rosched_Alltoall",
          variant, in_place_text(in_place), mixed_text(plan.mixed));
  describe_types(c, plan, units, st, scount, rt, rcount);
  const long send_elements = static_cast<long>(scount) * c.p;
  const long recv_elements = static_cast<long>(rcount) * c.p;
  Buffer send = make_buffer(st, send_elements, 2), got = make_buffer(rt, recv_elements, 3);
  mark_data(got, rt, 0, recv_elements);
  if (in_place) {
    fill_random(*c.local, got, rt, 0, recv_elements);
  } else {
    fill_random(*c.local, send, st, 0, send_elements);
  }
  Buffer want = got, send_before = send;
  const void* sendbuf = in_place ? MPI_IN_PLACE : send.data();
  before_call(c);
  o.rosched_class =
      error_class(*variant ? Rosched_Alltoall_variant(variant, sendbuf, scount, st.handle,
                                                      got.data(), rcount, rt.handle, c.comm)
                           : Rosched_Alltoall(sendbuf, scount, st.handle, got.data(), rcount,
                                              rt.handle, c.comm));
  if (plan.mixed) {
    std::vector<unsigned char> out =
        in_place ? pack(want, rt, 0, recv_elements) : pack(send, st, 0, send_elements);
    std::vector<unsigned char> in(out.size() + 1);
    const int block = static_cast<int>(out.size() / c.p);
    o.reference_class =
        error_class(PMPI_Alltoall(out.data(), block, MPI_BYTE, in.data(), block, MPI_BYTE, c.comm));
    unpack(in.data(), want, rt, 0, recv_elements);
  } else {
    o.reference_class = error_class(
        PMPI_Alltoall(sendbuf, scount, st.handle, want.data(), rcount, rt.handle, c.comm));
  }
  compare_results(o, c, "recvbuf", got, want, send, send_before);
  return o;
}

Outcome run_alltoallv(Case& c) {
  Rng& shared = *c.shared;
  Outcome o;
  const TypePlan plan = draw_type_plan(shared);
  const bool in_place = shared.chance(25);
  const char* variant = kAlltoallvVariants[shared.uniform(0, 4)];
  // units[i][j]: from rank i to rank j.
  std::vector<std::vector<int>> units(c.p, std::vector<int>(c.p));
  const int shape = shared.uniform(0, 3);
  for (std::vector<int>& row : units) {
    for (int& n : row) {
      n = shape == 0   ? (shared.chance(50) ? 0 : shared.uniform(1, 5))
          : shape == 1 ? draw_count(c, 20000 / c.p)
          : shape == 2 ? shared.uniform(0, 100)
                       : 0;
    }
  }
  if (shared.chance(20)) {
    const int large = shared.uniform(20000, 60000);
    const int from = shared.uniform(0, c.p - 1);
    units[from][shared.uniform(0, c.p - 1)] = large;
  }
  if (in_place) {  // MPI_IN_PLACE: what goes to j comes back from j
    for (int i = 0; i < c.p; ++i) {
      for (int j = 0; j < i; ++j) units[i][j] = units[j][i];
    }
  }
  int send_type = rank_type(plan, *c.local);
  const int recv_type = rank_type(plan, *c.local);
  if (in_place) send_type = recv_type;
  const TypeInfo &st = type_info(send_type), &rt = type_info(recv_type);
  std::vector<int> scounts(c.p), rcounts(c.p);
  for (int j = 0; j < c.p; ++j) {
    scounts[j] = elements_for(plan, st, units[c.rank][j]);
    rcounts[j] = elements_for(plan, rt, units[j][c.rank]);
  }
  long send_total = 0, recv_total = 0;
  const bool sends_in_order = shared.chance(20);
  const std::vector<int> sdispls =
      draw_displacements(*c.local, scounts, sends_in_order, &send_total);
  const bool receives_in_order = shared.chance(20);
  const std::vector<int> rdispls =
      draw_displacements(*c.local, rcounts, receives_in_order, &recv_total);
  appendf(c.description, "%s(%s) %s %s units-matrix(row=sender)=",
          *variant ? "Rosched_Alltoallv_variant" : "Rosched_Alltoallv", variant,
          in_place_text(in_place), mixed_text(plan.mixed));
  for (const std::vector<int>& row : units) appendf(c.description, "[%s]", join(row).c_str());
  if (plan.mixed) appendf(c.description, " x%d items", plan.fields_per_unit);
  appendf(c.description, " [rank%d: send %s recv %s sdispls=(%s) rdispls=(%s)]", c.rank, st.name,
          rt.name, join(sdispls).c_str(), join(rdispls).c_str());
  Buffer send = make_buffer(st, send_total, 2), got = make_buffer(rt, recv_total, 3);
  for (int j = 0; j < c.p; ++j) mark_data(got, rt, rdispls[j], rcounts[j]);
  for (int j = 0; j < c.p; ++j) {
    if (in_place) {
      fill_random(*c.local, got, rt, rdispls[j], rcounts[j]);
    } else {
      fill_random(*c.local, send, st, sdispls[j], scounts[j]);
    }
  }
  Buffer want = got, send_before = send;
  const void* sendbuf = in_place ? MPI_IN_PLACE : send.data();
  before_call(c);
  o.rosched_class = error_class(
      *variant
          ? Rosched_Alltoallv_variant(variant, sendbuf, scounts.data(), sdispls.data(), st.handle,
                                      got.data(), rcounts.data(), rdispls.data(), rt.handle, c.comm)
          : Rosched_Alltoallv(sendbuf, scounts.data(), sdispls.data(), st.handle, got.data(),
                              rcounts.data(), rdispls.data(), rt.handle, c.comm));
  if (plan.mixed) {
    std::vector<unsigned char> out;
    std::vector<int> send_bytes(c.p), recv_bytes(c.p);
    for (int j = 0; j < c.p; ++j) {
      const std::vector<unsigned char> part = in_place ? pack(want, rt, rdispls[j], rcounts[j])
                                                       : pack(send, st, sdispls[j], scounts[j]);
      send_bytes[j] = static_cast<int>(part.size());
      out.insert(out.end(), part.begin(), part.end());
      recv_bytes[j] = static_cast<int>(rcounts[j] * rt.data_bytes());
    }
    long out_total = 0, in_total = 0;
    const std::vector<int> send_at = displacements_in_order(send_bytes, &out_total);
    const std::vector<int> recv_at = displacements_in_order(recv_bytes, &in_total);
    std::vector<unsigned char> in(in_total + 1);
    out.resize(out.size() + 1);
    o.reference_class =
        error_class(PMPI_Alltoallv(out.data(), send_bytes.data(), send_at.data(), MPI_BYTE,
                                   in.data(), recv_bytes.data(), recv_at.data(), MPI_BYTE, c.comm));
    for (int j = 0; j < c.p; ++j) unpack(in.data() + recv_at[j], want, rt, rdispls[j], rcounts[j]);
  } else {
    o.reference_class =
        error_class(PMPI_Alltoallv(sendbuf, scounts.data(), sdispls.data(), st.handle, want.data(),
                                   rcounts.data(), rdispls.data(), rt.handle, c.comm));
  }
  compare_results(o, c, "recvbuf", got, want, send, send_before);
  return o;
}

Outcome run_allmerge(Case& c) {
  Rng& shared = *c.shared;
  Outcome o;
  const int type = shared.pick(std::vector<int>{kInt, kDouble, kLong, kIntVector});
  const TypeInfo& t = type_info(type);
  const std::vector<int> counts = draw_counts(c, 50000);
  const int algorithm = shared.uniform(-1, 2);  // ROSCHED_ALLMERGE_AUTO (-1) .. CIRCULANT (2)
  const bool in_place = shared.chance(30);
  appendf(c.description, "Rosched_Allmerge alg=%d %s type=%s%s recvcounts=[%s]", algorithm,
          in_place_text(in_place), t.name, type == kIntVector ? "(custom stable merge on key)" : "",
          join(counts).c_str());
  long n = 0;
  const std::vector<int> displs = displacements_in_order(counts, &n);
  const int mine = counts[c.rank];
  Buffer send = make_buffer(t, mine, 2), got = make_buffer(t, n, 3);
  mark_data(got, t, 0, n);
  // A sorted block with many duplicate keys (and -0.0 beside 0.0 for doubles).
  Buffer& input = in_place ? got : send;
  const long key_range = shared.uniform(1, 50);
  std::vector<long> keys(mine);
  for (long& k : keys) k = c.local->uniform(0, static_cast<int>(key_range)) - key_range / 2;
  std::sort(keys.begin(), keys.end());
  for (int e = 0; e < mine; ++e) {
    unsigned char* d = input.data() + e * t.extent;
    if (type == kInt || type == kIntVector) {
      const int key = static_cast<int>(keys[e]), payload = c.rank * 1000000 + e;
      std::memcpy(d, &key, 4);
      if (type == kIntVector) std::memcpy(d + 12, &payload, 4);
    } else if (type == kLong) {
      const long key = keys[e] * 1000000007L;
      std::memcpy(d, &key, 8);
    } else {
      const double key = keys[e] == 0 && c.local->chance(50) ? -0.0 : keys[e] * 0.5;
      std::memcpy(d, &key, 8);
    }
  }
  Buffer want = got, send_before = send;
  // The reference: every block gathered in rank order, then a stable sort by key.
  Buffer gathered = make_buffer(t, n, 3);
  o.reference_class = error_class(PMPI_Allgatherv(input.data(), mine, t.handle, gathered.data(),
                                                  counts.data(), displs.data(), t.handle, c.comm));
  std::vector<long> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](long x, long y) {
    return merge_key(type, gathered.data() + x * t.extent) <
           merge_key(type, gathered.data() + y * t.extent);
  });
  for (long e = 0; e < n; ++e) {
    for (int k = 0; k < t.field_count(); ++k) {
      std::memcpy(field_at(want, t, e, k), field_at(gathered, t, order[e], k), t.fields[k].size);
    }
  }
  before_call(c);
  o.rosched_class = error_class(Rosched_Allmerge(
      in_place ? MPI_IN_PLACE : send.data(), mine, got.data(), counts.data(), t.handle,
      type == kIntVector ? merge_key_payload : nullptr, nullptr, c.comm, algorithm));
  compare_results(o, c, "recvbuf", got, want, send, send_before);
  return o;
}

}  // namespace rosched::difftest
