// Byte-exact runs of the Bruck engines of every rank (sim/bruck_run.h).
#include <algorithm>
#include <cstring>
#include <random>

#include "sim/bruck_run.h"

namespace rosched::sim {
namespace {

constexpr unsigned char kGuard = 0xA5;

// The k-th byte of the block from s to d.
unsigned char pattern(std::int64_t s, std::int64_t d, std::int64_t k) {
  std::uint64_t h = static_cast<std::uint64_t>(s) * 0x9E3779B97F4A7C15ULL ^
                    static_cast<std::uint64_t>(d) * 0xC2B2AE3D27D4EB4FULL;
  h ^= h >> 29;
  return static_cast<unsigned char>((h >> (8 * (k % 8))) + static_cast<std::uint64_t>(k / 8));
}

Counterexample bytes_failure(const BruckPlan& plan, const char* kind, std::int64_t rank,
                             std::int64_t step, std::int64_t expected, std::int64_t actual,
                             const std::string& what) {
  return bruck_counterexample("bruck-bytes", plan, kind, rank, step, expected, actual,
                              "variant=" + bruck_variant_name(plan.variant()) + " radix=" +
                                  std::to_string(plan.schedule().radix()) + " " + what);
}

// One rank's buffers: blocks in a scrambled order with gaps, guards around.
struct RankBuffers {
  std::vector<char> send, send_copy, recv;
  BruckBlocks blocks;
};

RankBuffers make_buffers(std::int64_t p, std::int64_t rank, const std::vector<std::int64_t>& sizes,
                         const std::vector<std::int64_t>& recv_sizes) {
  RankBuffers b;
  b.blocks.send_offset.resize(p);
  b.blocks.send_size.resize(p);
  b.blocks.recv_offset.resize(p);
  b.blocks.recv_size.resize(p);
  std::int64_t at = 1;
  for (std::int64_t d = p - 1; d >= 0; --d) {  // send blocks in reverse order, one byte apart
    b.blocks.send_offset[d] = at;
    b.blocks.send_size[d] = sizes[rank * p + d];
    at += sizes[rank * p + d] + 1;
  }
  b.send.assign(at, static_cast<char>(kGuard));
  for (std::int64_t d = 0; d < p; ++d)
    for (std::int64_t k = 0; k < b.blocks.send_size[d]; ++k)
      b.send[b.blocks.send_offset[d] + k] = static_cast<char>(pattern(rank, d, k));
  b.send_copy = b.send;
  at = 1;
  for (std::int64_t s = 0; s < p; ++s) {  // receive blocks in order, one guard byte apart
    b.blocks.recv_offset[s] = at;
    b.blocks.recv_size[s] = recv_sizes[s * p + rank];
    at += recv_sizes[s * p + rank] + 1;
  }
  b.recv.assign(at, static_cast<char>(kGuard));
  b.blocks.send_base = b.send.data();
  b.blocks.recv_base = b.recv.data();
  return b;
}

// The bytes moved: two-phase sends each block once per hop with its own size (in all, the sum
// of C[s][d] times the non-zero digits of (s - d) mod P), and one size per block and hop;
// every other variant sends N bytes per block and hop: N * blocks_per_rank() per rank.
std::optional<Counterexample> check_volume(const BruckPlan& plan,
                                           const std::vector<std::int64_t>& sizes, std::int64_t n,
                                           const std::vector<std::int64_t>& per_rank,
                                           const BruckBytesResult& result) {
  const BruckSchedule& s = plan.schedule();
  const std::int64_t p = s.p(), blocks = s.blocks_per_rank();
  if (plan.variant() != BruckVariant::kTwoPhase) {
    for (std::int64_t r = 0; r < p; ++r) {
      if (per_rank[r] != n * blocks) {
        return bytes_failure(plan, "data-volume", r, s.steps(), n * blocks, per_rank[r],
                             "bytes sent by the rank");
      }
    }
    return std::nullopt;
  }
  std::int64_t want = 0;
  for (std::int64_t src = 0; src < p; ++src)
    for (std::int64_t d = 0; d < p; ++d) want += sizes[src * p + d] * s.nonzero_digits(s.mod(src - d));
  if (result.data_bytes != want) {
    return bytes_failure(plan, "data-volume", -1, s.steps(), want, result.data_bytes,
                         "data bytes of all ranks");
  }
  if (result.size_entries != p * blocks) {
    return bytes_failure(plan, "size-volume", -1, s.steps(), p * blocks, result.size_entries,
                         "sizes sent by all ranks");
  }
  return std::nullopt;
}

}  // namespace

const std::vector<BruckSizes>& bruck_size_kinds() {
  static const std::vector<BruckSizes> all = {BruckSizes::kRandom, BruckSizes::kZeros,
                                              BruckSizes::kOneHuge, BruckSizes::kEmptyRowColumn,
                                              BruckSizes::kUniform};
  return all;
}

std::string bruck_sizes_name(BruckSizes kind) {
  switch (kind) {
    case BruckSizes::kRandom: return "random";
    case BruckSizes::kZeros: return "zeros";
    case BruckSizes::kOneHuge: return "one-huge";
    case BruckSizes::kEmptyRowColumn: return "empty-row-column";
    case BruckSizes::kUniform: return "uniform";
  }
  return "?";
}

std::vector<std::int64_t> bruck_size_matrix(std::int64_t p, BruckSizes kind, std::int64_t max,
                                            std::int64_t huge, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto below = [&](std::int64_t n) {  // uniform in [0, n]
    return static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n + 1));
  };
  std::vector<std::int64_t> c(static_cast<std::size_t>(p * p), 0);
  if (kind == BruckSizes::kZeros) return c;
  for (auto& x : c) x = kind == BruckSizes::kUniform ? max : below(max);
  if (kind == BruckSizes::kOneHuge) c[below(p * p - 1)] = huge;
  if (kind == BruckSizes::kEmptyRowColumn) {
    const std::int64_t row = below(p - 1), column = below(p - 1);
    for (std::int64_t j = 0; j < p; ++j) c[row * p + j] = c[j * p + column] = 0;
  }
  return c;
}

BruckBytesResult run_bruck_bytes(const BruckPlan& plan, const std::vector<std::int64_t>& sizes,
                                 const std::vector<std::int64_t>& recv_sizes_in) {
  BruckBytesResult result;
  auto& ce = result.counterexample;
  const BruckSchedule& s = plan.schedule();
  const std::int64_t p = s.p();
  const std::vector<std::int64_t>& recv_sizes = recv_sizes_in.empty() ? sizes : recv_sizes_in;
  const std::int64_t n = sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end());
  std::vector<RankBuffers> buffers;
  std::vector<BruckEngine> engines;
  buffers.reserve(p);
  engines.reserve(p);
  for (std::int64_t r = 0; r < p; ++r) {
    buffers.push_back(make_buffers(p, r, sizes, recv_sizes));
    engines.emplace_back(plan, r, buffers.back().blocks, n);
    engines.back().start();
  }
  std::vector<std::int64_t> per_rank(p, 0);
  std::vector<std::vector<char>> msg(p);
  std::vector<std::vector<std::int64_t>> msg_sizes(p);
  for (std::int64_t t = 0; t < s.steps(); ++t) {
    const BruckStep step = s.step(t);
    for (std::int64_t r = 0; r < p; ++r) {
      engines[r].pack(t, msg[r]);
      msg_sizes[r] = engines[r].sizes(t);
      per_rank[r] += static_cast<std::int64_t>(msg[r].size());
      if (engines[r].sends_sizes()) result.size_entries += msg_sizes[r].size();
    }
    for (std::int64_t q = 0; q < p; ++q) {
      const std::int64_t from = s.recv_from(q, step, plan.direction());
      const std::vector<std::int64_t> in =
          engines[q].sends_sizes() ? msg_sizes[from] : engines[q].fixed_sizes(t);
      engines[q].unpack(t, in, msg[from].data(), static_cast<std::int64_t>(msg[from].size()));
    }
  }
  for (std::int64_t r = 0; r < p; ++r) {
    engines[r].finish();
    if (const auto& e = engines[r].error()) {
      ce = bytes_failure(plan, "size-mismatch", r, e->step, e->expected, e->actual,
                         "source=" + std::to_string(e->source));
      break;
    }
  }
  for (std::int64_t r = 0; r < p && !ce; ++r) {
    const RankBuffers& b = buffers[r];
    if (b.send != b.send_copy) {
      ce = bytes_failure(plan, "send-buffer-changed", r, s.steps(), 0, 1, "");
      break;
    }
    std::vector<char> want(b.recv.size(), static_cast<char>(kGuard));
    for (std::int64_t src = 0; src < p; ++src)
      for (std::int64_t k = 0; k < b.blocks.recv_size[src]; ++k)
        want[b.blocks.recv_offset[src] + k] = static_cast<char>(pattern(src, r, k));
    if (want != b.recv) {
      const auto at = std::mismatch(want.begin(), want.end(), b.recv.begin()).first - want.begin();
      std::int64_t src = 0;  // the block holding the first wrong byte
      while (src + 1 < p && b.blocks.recv_offset[src + 1] <= at) ++src;
      ce = bytes_failure(plan, "wrong-byte", r, s.steps(), static_cast<unsigned char>(want[at]),
                         static_cast<unsigned char>(b.recv[at]),
                         "byte=" + std::to_string(at) + " source=" + std::to_string(src));
    }
  }
  result.data_bytes = 0;
  for (const std::int64_t x : per_rank) result.data_bytes += x;
  result.max_rank_bytes = *std::max_element(per_rank.begin(), per_rank.end());
  result.min_rank_bytes = *std::min_element(per_rank.begin(), per_rank.end());
  if (!ce) ce = check_volume(plan, sizes, n, per_rank, result);
  return result;
}

}  // namespace rosched::sim
