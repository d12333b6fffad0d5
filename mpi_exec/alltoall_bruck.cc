#include "mpi_exec/alltoall_bruck.h"

#include <climits>
#include <cstring>
#include <vector>

#include "mpi_exec/datatype.h"
#include "mpi_exec/tags.h"

namespace rosched::mpi {
namespace {

int as_count(std::int64_t bytes, const char* what) {
  if (bytes > INT_MAX) {
    throw Error(MPI_ERR_COUNT, std::string(what) + " of " + std::to_string(bytes) +
                                   " bytes exceeds INT_MAX");
  }
  return static_cast<int>(bytes);
}

// The blocks of a zero-copy step as one datatype over absolute addresses (MPI_BOTTOM).
OwnedType regions_type(const std::vector<MPI_Aint>& where, const std::vector<int>& lengths) {
  return hindexed(static_cast<int>(lengths.size()), lengths.data(), where.data(), MPI_BYTE);
}

MPI_Aint address_of(const void* p) {
  MPI_Aint a;
  check(PMPI_Get_address(p, &a), "MPI_Get_address");
  return a;
}

void zero_copy_step(BruckEngine& e, std::int64_t t, int to, int from, MPI_Comm c) {
  const BruckPlan& plan = e.plan();
  const BruckSchedule& s = plan.schedule();
  const BruckStep step = s.step(t);
  std::vector<MPI_Aint> send_at, recv_at;
  std::vector<int> send_len, recv_len;
  s.for_each_moved(step, [&](std::int64_t i) {
    const BruckEngine::Region r = e.region(plan.read(i, step));
    const BruckEngine::Region w = e.region(plan.write(i, step));
    send_at.push_back(address_of(r.data));
    send_len.push_back(as_count(r.bytes, "a block"));
    recv_at.push_back(address_of(w.data));
    recv_len.push_back(as_count(e.max_block(), "a block"));
  });
  const OwnedType send = regions_type(send_at, send_len), recv = regions_type(recv_at, recv_len);
  check(PMPI_Sendrecv(MPI_BOTTOM, 1, send.get(), to, tag::kAlltoallData, MPI_BOTTOM, 1, recv.get(),
                     from, tag::kAlltoallData, c, MPI_STATUS_IGNORE),
        "MPI_Sendrecv");
  s.for_each_moved(step, [&](std::int64_t i) { e.written(plan.write(i, step), e.max_block()); });
}

}  // namespace

std::optional<AlltoallAlgorithm> forced_algorithm(const char* name, bool nonuniform,
                                                  const char* source) {
  if (!name || !*name || std::strcmp(name, "auto") == 0) return std::nullopt;
  if (std::strcmp(name, "linear") == 0) return AlltoallAlgorithm{};
  BruckVariant v;
  try {
    v = bruck_variant_from_name(name);
  } catch (const std::invalid_argument& e) {
    throw Error(MPI_ERR_ARG, std::string(source) + ": " + e.what() + ", linear or auto");
  }
  if (v == BruckVariant::kZeroCopyPrinted) {
    throw Error(MPI_ERR_ARG, std::string(source) +
                                 ": zerocopy-printed is the rejected printed parity (wrong data)");
  }
  if (nonuniform && !bruck_nonuniform(v)) {
    throw Error(MPI_ERR_ARG, std::string(source) + ": variant " + name +
                                 " needs uniform blocks; Rosched_Alltoallv takes padded, "
                                 "twophase, linear or auto");
  }
  return AlltoallAlgorithm{v};
}

AlltoallAlgorithm choose_uniform(const CostModel& m, std::int64_t p, double n) {
  const BruckSchedule s(p);
  double bruck = 0;
  for (std::int64_t t = 0; t < s.steps(); ++t) bruck += m.time(n * s.moved_count(s.step(t)));
  const double linear = (p - 1) * m.time(n);
  return bruck <= linear ? AlltoallAlgorithm{BruckVariant::kZeroRotation} : AlltoallAlgorithm{};
}

AlltoallAlgorithm choose_nonuniform(const CostModel& m, std::int64_t p, double largest,
                                    double heaviest) {
  const BruckSchedule s(p);
  const double average = heaviest / (p - 1);
  double padded = 0, two_phase = 0;
  for (std::int64_t t = 0; t < s.steps(); ++t) {
    const double blocks = static_cast<double>(s.moved_count(s.step(t)));
    padded += m.time(largest * blocks);
    two_phase += m.time(8 * blocks) + m.time(average * blocks);
  }
  const double linear = (p - 1) * m.time(average);
  if (linear < padded && linear < two_phase) return AlltoallAlgorithm{};
  return AlltoallAlgorithm{padded <= two_phase ? BruckVariant::kPadded : BruckVariant::kTwoPhase};
}

bool bruck_can_pay(const CostModel& m, std::int64_t p) {
  if (p <= 1) return false;
  const BruckSchedule s(p);
  double padded = 0;
  for (std::int64_t t = 0; t < s.steps(); ++t) {
    padded += m.time(static_cast<double>(s.moved_count(s.step(t))));
  }
  return padded < (p - 1) * m.time(1);
}

void run_bruck(BruckEngine& e, const CommInfo& comm) {
  const BruckPlan& plan = e.plan();
  const BruckSchedule& s = plan.schedule();
  e.start();
  std::vector<char> out, in;
  std::vector<std::int64_t> out_sizes, in_sizes;
  for (std::int64_t t = 0; t < s.steps(); ++t) {
    const BruckStep step = s.step(t);
    const int to = static_cast<int>(s.send_to(comm.rank, step, plan.direction()));
    const int from = static_cast<int>(s.recv_from(comm.rank, step, plan.direction()));
    if (!plan.packed()) {
      zero_copy_step(e, t, to, from, comm.c);
      continue;
    }
    if (e.sends_sizes()) {
      out_sizes = e.sizes(t);
      in_sizes.resize(out_sizes.size());  // both sides move moved_count(step) blocks
      const int n = as_count(static_cast<std::int64_t>(out_sizes.size()), "a size message");
      check(PMPI_Sendrecv(out_sizes.data(), n, MPI_INT64_T, to, tag::kAlltoallSizes,
                         in_sizes.data(), n, MPI_INT64_T, from, tag::kAlltoallSizes, comm.c,
                         MPI_STATUS_IGNORE),
            "MPI_Sendrecv (sizes)");
    } else {
      in_sizes = e.fixed_sizes(t);
    }
    e.pack(t, out);
    std::int64_t in_bytes = 0;
    for (const std::int64_t z : in_sizes) in_bytes += z;
    in.resize(static_cast<std::size_t>(in_bytes));
    check(PMPI_Sendrecv(out.data(), as_count(static_cast<std::int64_t>(out.size()), "a step"),
                       MPI_BYTE, to, tag::kAlltoallData, in.data(), as_count(in_bytes, "a step"),
                       MPI_BYTE, from, tag::kAlltoallData, comm.c, MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
    e.unpack(t, in_sizes, in.data(), in_bytes);
  }
  e.finish();
  if (e.error()) throw Error(MPI_ERR_TRUNCATE, e.error()->describe());
}

void run_linear(const BruckBlocks& b, const CommInfo& comm) {
  const int p = comm.p, rank = comm.rank;
  for (int k = 0; k < p; ++k) {
    const int to = (rank + k) % p, from = (rank - k + p) % p;
    if (k == 0) {
      if (b.send_size[rank] != b.recv_size[rank]) {
        throw Error(MPI_ERR_TRUNCATE, "the own block has " + std::to_string(b.send_size[rank]) +
                                          " bytes, the receive count asks for " +
                                          std::to_string(b.recv_size[rank]));
      }
      if (b.send_size[rank] > 0) {
        std::memmove(b.recv_base + b.recv_offset[rank], b.send_base + b.send_offset[rank],
                     static_cast<std::size_t>(b.send_size[rank]));
      }
      continue;
    }
    check(PMPI_Sendrecv(b.send_base + b.send_offset[to], as_count(b.send_size[to], "a block"),
                       MPI_BYTE, to, tag::kAlltoallData, b.recv_base + b.recv_offset[from],
                       as_count(b.recv_size[from], "a block"), MPI_BYTE, from, tag::kAlltoallData,
                       comm.c, MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
  }
}

}  // namespace rosched::mpi
