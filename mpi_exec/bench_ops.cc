// bench_ops.h: bench's operations. Every operation makes its data per call or keeps it
// (bench_buffers.h, --buffers; payload memory: shared malloc under SMPI for large buffers) and
// checks what it can tell wrong: each element of a broadcast or all-gather by its origin, each
// reduced element by a pattern in which a block reduced into another block's place shows.
#include "mpi_exec/bench_ops.h"

#include <mpi.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "mpi_exec/bench_alltoall.h"
#include "mpi_exec/bench_buffers.h"
#include "mpi_exec/compute_charge.h"
#include "mpi_exec/payload.h"
#include "mpi_exec/rosched_mpi.h"

namespace rosched::mpi::bench {
namespace {

int p = 1, rank = 0;  // MPI_COMM_WORLD's, set by make_op

struct Options {
  std::string op, dist;
};

}  // namespace

double rank0_share(const std::string& dist) {
  if (dist == "one") return 0.99;
  if (dist == "half") return 0.5;
  if (dist.rfind("rank0=", 0) != 0) return 0;
  try {
    std::size_t used = 0;
    const double f = std::stod(dist.substr(6), &used);
    return used == dist.size() - 6 && f > 0 && f < 1 ? f : -1;
  } catch (const std::exception&) {
    return -1;
  }
}

namespace {

// Per-rank counts of allgatherv for m MPI_INT in all: Träff 2022, Sec. 3.2 (m_r = (r mod 3) m',
// the last rank takes the rest), uniform, or rank 0 holding a share (rank0_share: the others
// share the rest of the elements evenly, rank 0 the rest). scripts/sim_summary.py (coarse)
// repeats the (r mod 3) rule and the all-gather's max(1, m / p) to mark the sizes they cannot
// cut as named: change them together.
std::vector<int> allgatherv_counts(long m, const std::string& dist) {
  std::vector<int> counts(p, 0);
  if (dist == "uniform") {
    for (int j = 0; j < p; ++j) counts[j] = static_cast<int>(m / p + (j < m % p ? 1 : 0));
    return counts;
  }
  if (const double share = rank0_share(dist); share > 0) {
    const long rest = p > 1 ? static_cast<long>(m * (1 - share)) : 0;  // "one": m / 100 exactly
    counts[0] = static_cast<int>(m - rest);
    for (int j = 1; j < p; ++j) {
      counts[j] = static_cast<int>(rest / (p - 1) + (j - 1 < rest % (p - 1) ? 1 : 0));
    }
    return counts;
  }
  long per = 0;  // m' with sum over r < p-1 of (r mod 3) m' <= m
  long weight = 0;
  for (int j = 0; j < p - 1; ++j) weight += j % 3;
  if (weight > 0) per = m / weight;
  long used = 0;
  for (int j = 0; j < p - 1; ++j) used += counts[j] = static_cast<int>((j % 3) * per);
  counts[p - 1] = static_cast<int>(m - used);
  return counts;
}

// The displacements of blocks of these counts one after the other in rank order.
std::vector<int> packed_displs(const std::vector<int>& counts) {
  std::vector<int> displs(counts.size(), 0);
  for (std::size_t j = 1; j < counts.size(); ++j) displs[j] = displs[j - 1] + counts[j - 1];
  return displs;
}

// Per-rank block sizes of allmerge, m elements per rank on average: uniform (m each), irregular
// (Träff 2022's (r mod 3) counts of the m p elements, as allgatherv) or half (rank 0 holds half
// of them, the others share the rest evenly: the case where merging a large run early costs).
std::vector<int> allmerge_counts(long m, const std::string& dist) {
  return allgatherv_counts(m * p, dist);
}

}  // namespace

const char* const kImplNames[kImplCount] = {
    "native",   "circulant", "twotree",  "hypercube", "auto",     "alg0",    "alg1",     "alg2",
    "nway",     "node",      "binomial", "basic",     "modified", "zerorot", "zerocopy", "padded",
    "twophase", "linear",    "largest",  "kary",      "rsag",     "knomial", "nport"};
long long allmerge_moves[kImplCount] = {};

std::vector<Impl> impls_of(const std::string& op) {
  if (op == "bcast" || op == "bcast_vector") {
    return {kNative, kCirculant, kTwoTree, kHypercube, kKary, kKnomial, kRsag, kNodeAware, kAuto};
  }
  if (op == "allreduce") {
    return {kNative, kCirculant, kRsag, kNport, kTwoTree, kNway, kKnomial, kNodeAware, kAuto};
  }
  if (op == "reduce") {
    return {kNative, kBinomial, kTwoTree, kCirculant, kKary, kRsag, kNport, kNodeAware, kAuto};
  }
  if (op == "alltoall") {
    return {kNative, kBasic, kModified, kZeroRot, kZeroCopy, kPadded, kTwoPhase, kLinear, kAuto};
  }
  if (op == "alltoallv") return {kNative, kPadded, kTwoPhase, kLinear, kAuto};
  if (op == "allmerge") return {kNative, kAlg0, kAlg1, kAlg2, kAuto};
  if (op == "reduce_scatter_block" || op == "reduce_scatter") {
    return {kNative, kCirculant, kNport, kNodeAware, kAuto};
  }
  if (op == "allgather") return {kNative, kCirculant, kNway, kNodeAware, kAuto};
  if (op == "allgatherv") return {kNative, kCirculant, kNway, kNodeAware, kLargest, kAuto};
  return {kNative, kCirculant};
}

namespace {

// The broadcast an implementation names.
int (*bcast_of(Impl impl))(void*, int, MPI_Datatype, int, MPI_Comm) {
  return impl == kCirculant   ? Rosched_Bcast_circulant
         : impl == kTwoTree   ? Rosched_Bcast_two_tree
         : impl == kHypercube ? Rosched_Bcast_hypercube
         : impl == kKary      ? Rosched_Bcast_kary_tree
         : impl == kKnomial   ? Rosched_Bcast_knomial
         : impl == kRsag      ? Rosched_Bcast_scatter_allgather
         : impl == kNodeAware ? Rosched_Bcast_node_aware
         : impl == kAuto      ? Rosched_Bcast
                              : MPI_Bcast;
}

}  // namespace

Op make_op(const std::string& op_name, const std::string& dist_name) {
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const Options o{op_name, dist_name};
  if (o.op == "alltoall" || o.op == "alltoallv") {
    const rosched::mpi::AlltoallOp op =
        rosched::mpi::make_alltoall_op(o.op == "alltoallv", o.dist == "irregular" ? "uniform" : o.dist);
    return [op](Impl impl, long m, bool check) { return op(kImplNames[impl], m, check); };
  }
  if (o.op == "bcast_vector") {
    // m ints (whole vectors of ten) as vectors of five pairs of ints, stride 3: a datatype with
    // gaps, which rosched's broadcasts pack once (message_bytes.h) and the library at each send.
    static MPI_Datatype vector = MPI_DATATYPE_NULL;
    if (vector == MPI_DATATYPE_NULL) {
      MPI_Type_vector(5, 2, 3, MPI_INT, &vector);
      MPI_Type_commit(&vector);
    }
    return [](Impl impl, long m, bool check) {
      const long count = m / 10;
      const auto place = [](long i) { return i / 10 * 14 + i % 10 / 2 * 3 + i % 2; };
      CallBuffer buf(0, count * 14, check && rank != 0);
      if (rank == 0 && (buf.made() || check))
        for (long i = 0; i < count * 10; ++i) buf[place(i)] = static_cast<int>(i * 31 + 7);
      bcast_of(impl)(buf.data(), static_cast<int>(count), vector, 0, MPI_COMM_WORLD);
      if (!check) return true;
      for (long i = 0; i < count * 10; ++i) {
        if (buf[place(i)] != static_cast<int>(i * 31 + 7)) return false;
      }
      return true;
    };
  }
  if (o.op == "bcast") {
    return [](Impl impl, long m, bool check) {
      CallBuffer buf(0, m, check && rank != 0);
      if (rank == 0 && (buf.made() || check))
        for (long i = 0; i < m; ++i) buf[i] = static_cast<int>(i * 31 + 7);
      bcast_of(impl)(buf.data(), static_cast<int>(m), MPI_INT, 0, MPI_COMM_WORLD);
      if (!check) return true;
      for (long i = 0; i < m; ++i)
        if (buf[i] != static_cast<int>(i * 31 + 7)) return false;
      return true;
    };
  }
  if (o.op == "allgather") {
    return [](Impl impl, long m, bool check) {
      const long c = std::max(1L, m / p);
      CallBuffer send(0, c, check, rank + 1), recv(1, c * p, check);
      const auto allgather = impl == kCirculant   ? Rosched_Allgather_circulant
                             : impl == kNway      ? Rosched_Allgather_nway
                             : impl == kNodeAware ? Rosched_Allgather_node_aware
                             : impl == kAuto      ? Rosched_Allgather
                                                  : MPI_Allgather;
      allgather(send.data(), c, MPI_INT, recv.data(), c, MPI_INT, MPI_COMM_WORLD);
      if (!check) return true;
      for (long i = 0; i < c * p; ++i) if (recv[i] != i / c + 1) return false;
      return true;
    };
  }
  if (o.op == "allgatherv") {
    const std::string dist = o.dist;
    return [dist](Impl impl, long m, bool check) {
      const std::vector<int> counts = allgatherv_counts(m, dist);
      const std::vector<int> displs = packed_displs(counts);
      CallBuffer send(0, counts[rank], check, rank + 1), recv(1, std::max(1L, m), check);
      const auto allgatherv = impl == kCirculant   ? Rosched_Allgatherv_circulant
                              : impl == kNway      ? Rosched_Allgatherv_nway
                              : impl == kNodeAware ? Rosched_Allgatherv_node_aware
                              : impl == kLargest   ? Rosched_Allgatherv_largest
                              : impl == kAuto      ? Rosched_Allgatherv
                                                   : MPI_Allgatherv;
      allgatherv(send.data(), counts[rank], MPI_INT, recv.data(), counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD);
      if (!check) return true;
      for (int j = 0; j < p; ++j)
        for (int i = 0; i < counts[j]; ++i) if (recv[displs[j] + i] != j + 1) return false;
      return true;
    };
  }
  if (o.op == "allreduce") {
    return [](Impl impl, long m, bool check) {
      CallBuffer send(0, m, check, rank + 1), recv(1, m, check);
      // Checked: element i of rank r is r + 1 + i mod 13, so that a block reduced into another
      // block's place shows.
      if (check)
        for (long i = 0; i < m; ++i) send[i] = rank + 1 + static_cast<int>(i % 13);
      const auto allreduce = impl == kCirculant   ? Rosched_Allreduce_census
                             : impl == kRsag      ? Rosched_Allreduce_scatter_gather
                             : impl == kTwoTree   ? Rosched_Allreduce_two_tree
                             : impl == kKnomial   ? Rosched_Allreduce_knomial
                             : impl == kNport     ? Rosched_Allreduce_nport
                             : impl == kNway      ? Rosched_Allreduce_nway
                             : impl == kNodeAware ? Rosched_Allreduce_node_aware
                             : impl == kAuto      ? Rosched_Allreduce
                                                  : MPI_Allreduce;
      allreduce(send.data(), recv.data(), m, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      if (!check) return true;
      for (long i = 0; i < m; ++i) {
        if (recv[i] != p * (p + 1) / 2 + p * static_cast<int>(i % 13)) return false;
      }
      return true;
    };
  }
  if (o.op == "reduce_scatter_block") {
    // m: the whole vector; each rank's block max(1, m / p) MPI_INT. Element i of rank r is
    // r + 1 + i mod 13 (so that a block combined into another's place shows).
    return [](Impl impl, long m, bool check) {
      const long c = std::max(1L, m / p);
      CallBuffer send(0, c * p, check, rank + 1), recv(1, c, check);
      if (check) for (long i = 0; i < c * p; ++i) send[i] = rank + 1 + static_cast<int>(i % 13);
      const auto reduce_scatter = impl == kCirculant   ? Rosched_Reduce_scatter_block_circulant
                                  : impl == kNport     ? Rosched_Reduce_scatter_block_nport
                                  : impl == kNodeAware ? Rosched_Reduce_scatter_block_node_aware
                                  : impl == kAuto      ? Rosched_Reduce_scatter_block
                                                       : MPI_Reduce_scatter_block;
      reduce_scatter(send.data(), recv.data(), c, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      if (!check) return true;
      for (long i = 0; i < c; ++i) {
        if (recv[i] != p * (p + 1) / 2 + p * static_cast<int>((rank * c + i) % 13)) return false;
      }
      return true;
    };
  }
  if (o.op == "reduce_scatter") {
    // m: the whole vector, cut as allgatherv's --dist cuts it (default the (r mod 3) counts);
    // element i of rank r is r + 1 + i mod 13.
    const std::string dist = o.dist;
    return [dist](Impl impl, long m, bool check) {
      const std::vector<int> counts = allgatherv_counts(m, dist);
      long first = 0, total = 0;
      for (int j = 0; j < p; ++j) {
        if (j == rank) first = total;
        total += counts[j];
      }
      CallBuffer send(0, std::max(1L, total), check, rank + 1),
          recv(1, std::max(1, counts[rank]), check);
      if (check) for (long i = 0; i < total; ++i) send[i] = rank + 1 + static_cast<int>(i % 13);
      const auto reduce_scatter = impl == kCirculant   ? Rosched_Reduce_scatter_circulant
                                  : impl == kNport     ? Rosched_Reduce_scatter_nport
                                  : impl == kNodeAware ? Rosched_Reduce_scatter_node_aware
                                  : impl == kAuto      ? Rosched_Reduce_scatter
                                                       : MPI_Reduce_scatter;
      reduce_scatter(send.data(), recv.data(), counts.data(), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      if (!check) return true;
      for (long i = 0; i < counts[rank]; ++i) {
        if (recv[i] != p * (p + 1) / 2 + p * static_cast<int>((first + i) % 13)) return false;
      }
      return true;
    };
  }
  if (o.op == "reduce") {
    return [](Impl impl, long m, bool check) {
      CallBuffer send(0, m, check, rank + 1), recv(1, m, check);
      const auto reduce = impl == kTwoTree     ? Rosched_Reduce_two_tree
                          : impl == kCirculant ? Rosched_Reduce_circulant
                          : impl == kRsag      ? Rosched_Reduce_scatter_gather
                          : impl == kNport     ? Rosched_Reduce_nport
                          : impl == kKary      ? Rosched_Reduce_kary_tree
                          : impl == kBinomial  ? Rosched_Reduce_binomial
                          : impl == kNodeAware ? Rosched_Reduce_node_aware
                          : impl == kAuto      ? Rosched_Reduce
                                               : MPI_Reduce;
      reduce(send.data(), recv.data(), m, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
      if (!check || rank != 0) return true;
      for (long i = 0; i < m; ++i)
        if (recv[i] != p * (p + 1) / 2) return false;
      return true;
    };
  }
  if (o.op == "allmerge") {
    // Sorted MPI_INT blocks (Lang 2025's setting), m per rank on average (--dist); native:
    // MPI_Allgatherv and std::sort. Element i of rank j is i p + j: sorted, distinct.
    const std::string dist = o.dist;
    return [dist](Impl impl, long m, bool check) {
      const std::vector<int> counts = allmerge_counts(m, dist);
      const std::vector<int> displs = packed_displs(counts);
      const long total = static_cast<long>(displs[p - 1]) + counts[p - 1];
      std::vector<int> send(counts[rank]), recv(std::max(1L, total));
      for (int i = 0; i < counts[rank]; ++i) send[i] = static_cast<int>(static_cast<long>(i) * p + rank);
      if (impl == kNative) {
        MPI_Allgatherv(send.data(), counts[rank], MPI_INT, recv.data(), counts.data(),
                       displs.data(), MPI_INT, MPI_COMM_WORLD);
        std::vector<int> again;  // simulate.sh --compute kernels: the same sort, charged
        rosched::mpi::charge_rerun([&] { again.assign(recv.begin(), recv.begin() + total); },
                                   [&] { std::sort(again.begin(), again.end()); });
        std::sort(recv.begin(), recv.begin() + total);
      } else {
        const int algorithm = impl == kAlg0   ? ROSCHED_ALLMERGE_ALLGATHER
                              : impl == kAlg1 ? ROSCHED_ALLMERGE_DISSEMINATION
                              : impl == kAlg2 ? ROSCHED_ALLMERGE_CIRCULANT
                                              : ROSCHED_ALLMERGE_AUTO;
        Rosched_Allmerge(send.data(), counts[rank], recv.data(), counts.data(), MPI_INT, nullptr,
                         nullptr, MPI_COMM_WORLD, algorithm);
        allmerge_moves[impl] = Rosched_Allmerge_moves();
      }
      if (!check) return true;
      long long sum = 0, want = 0;  // every value of every rank, once
      for (long i = 0; i < total; ++i) sum += recv[i];
      for (int j = 0; j < p; ++j)
        for (long i = 0; i < counts[j]; ++i) want += static_cast<int>(i * p + j);
      return std::is_sorted(recv.begin(), recv.begin() + total) && sum == want;
    };
  }
  throw std::invalid_argument("unknown --op " + o.op +
                              " (bcast, allgather, allgatherv, reduce, allreduce, "
                              "reduce_scatter_block, reduce_scatter, allmerge, alltoall, "
                              "alltoallv)");
}

std::vector<Impl> parse_impls(const std::string& list, const std::vector<Impl>& available,
                              const std::string& op) {
  std::vector<Impl> out;
  std::stringstream in(list == "both" ? std::string("native,circulant") : list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item == "all") {
      for (Impl impl : available)
        if (std::find(out.begin(), out.end(), impl) == out.end()) out.push_back(impl);
      continue;
    }
    const bool remove = !item.empty() && item[0] == '-';
    const std::string name = remove ? item.substr(1) : item;
    bool found = false;
    for (Impl impl : available) {
      if (name != kImplNames[impl]) continue;
      found = true;
      const auto at = std::find(out.begin(), out.end(), impl);
      if (remove && at != out.end()) out.erase(at);
      if (!remove && at == out.end()) out.push_back(impl);
    }
    if (!found) throw std::invalid_argument("--op " + op + " has no implementation '" + name + "'");
  }
  if (out.empty()) throw std::invalid_argument("--impl leaves no implementation");
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace rosched::mpi::bench
