// Rounds streamed on several ports at once (mpi_exec/round_stream.h, stream_ports_round): every
// int of every port's message arrives where its receive's pieces say and nowhere else, whatever
// the part size, the window, eager or synchronous sends, the number of ports and empty messages;
// the arrival callback reports each port's elements once, in order; the same with a plan not
// streamed (each message whole). Then the n-port all-gather and reduce-scatter
// (mpi_exec/allgather_nway.h) with a cost model under which their rounds go in parts of at most
// 4 KiB: equal blocks (eager parts), blocks of (r mod 3) sizes with empty ones (synchronous
// parts), against the result written out by hand.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "mpi_exec/allgather_nway.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/round_stream.h"
#include "tests/mpi/mpi_test_util.h"

namespace rosched_mpi_test {
namespace {

namespace rm = rosched::mpi;

// Ints rank s sends on port j in case `variant`: 0 for some, else 1..300.
int length(int s, int j, int variant) {
  return (s * 7 + j * 13 + variant * 5) % 9 == 0 ? 0 : 1 + (s * 31 + j * 17 + variant * 11) % 300;
}
int content(int s, int j, int i) { return s * 1000003 + j * 10007 + i; }
constexpr int kGap = 3;  // ints between a message's two pieces
constexpr int kUntouched = -7;

// One round on m ports: port j to rank + j + 1, from rank - j - 1 (mod p); each message in two
// pieces (its first third, then the rest after a gap of kGap ints) of a region of its own.
void ports_case(int m, const rm::StreamPlan& plan, int variant, const std::string& what) {
  const rm::TypeInfo type = rm::type_info(MPI_INT);
  std::vector<int> region(m + 1, 0), from(m), to(m);
  for (int j = 0; j < m; ++j) {
    to[j] = (rank + j + 1) % p;
    from[j] = ((rank - j - 1) % p + p) % p;
    region[j + 1] =
        region[j] + std::max(length(rank, j, variant), length(from[j], j, variant)) + kGap;
  }
  std::vector<int> out(region[m], kUntouched), in(region[m], kUntouched);
  std::vector<rm::RoundMessage> sends(m), recvs(m);
  std::vector<rm::StreamPort> ports(m);
  const auto pieces = [&](rm::RoundMessage& msg, int j, int len) {
    const int head = len / 3;
    msg.add(static_cast<MPI_Aint>(region[j]) * sizeof(int), head);
    msg.add(static_cast<MPI_Aint>(region[j] + head + kGap) * sizeof(int), len - head);
  };
  const auto where = [&](int j, int i, int len) {  // the int of piece order i in region j
    const int head = len / 3;
    return region[j] + (i < head ? i : i + kGap);
  };
  for (int j = 0; j < m; ++j) {
    const int len = length(rank, j, variant);
    for (int i = 0; i < len; ++i) out[where(j, i, len)] = content(rank, j, i);
    pieces(sends[j], j, len);
    pieces(recvs[j], j, length(from[j], j, variant));
    ports[j] = rm::StreamPort{&sends[j], reinterpret_cast<char*>(out.data()),
                              &recvs[j], reinterpret_cast<char*>(in.data()),
                              to[j],     from[j]};
  }
  std::vector<std::int64_t> reported(m, 0);  // elements reported so far, per port
  bool in_order = true;
  rm::stream_ports_round(ports.data(), m, MPI_INT, type, plan, 4242, MPI_COMM_WORLD,
                         [&](int j, std::int64_t lo, std::int64_t hi) {
                           in_order = in_order && lo == reported[j] && hi > lo;
                           reported[j] = hi;
                         });
  bool right = true;
  for (int j = 0; j < m; ++j) {
    const int len = length(from[j], j, variant);
    std::vector<int> expected(region[j + 1] - region[j], kUntouched);
    for (int i = 0; i < len; ++i) expected[where(j, i, len) - region[j]] = content(from[j], j, i);
    right = right && std::equal(expected.begin(), expected.end(), in.begin() + region[j]);
    in_order = in_order && reported[j] == len;
  }
  expect(right, what + ": every int where the receive's pieces say, nothing else written");
  expect(in_order, what + ": each port's elements reported once, in order");
}

void test_stream_ports() {
  if (p < 2) return;
  for (int m = 1; m <= std::min(p - 1, 3); ++m) {
    for (int variant = 0; variant < 2; ++variant) {  // a plan not streamed: messages whole
      ports_case(m, rm::StreamPlan{}, variant,
                 "stream_ports_round whole m=" + std::to_string(m) +
                     " variant=" + std::to_string(variant));
    }
    for (const double part : {4.0, 12.0, 1000.0}) {
      for (const int in_flight : {1, 3, 8}) {
        for (const bool synchronous : {false, true}) {
          rm::StreamPlan plan;
          plan.part_bytes = part, plan.in_flight = in_flight, plan.synchronous = synchronous;
          for (int variant = 0; variant < 2; ++variant) {
            ports_case(m, plan, variant,
                       "stream_ports_round m=" + std::to_string(m) +
                           " part=" + std::to_string(static_cast<int>(part)) + " in_flight=" +
                           std::to_string(in_flight) + (synchronous ? " sync" : " eager") +
                           " variant=" + std::to_string(variant));
          }
        }
      }
    }
  }
}

// A model under which a round of more than 4 KiB goes in parts of at most 4 KiB, on one port
// (stream_plan) or several (fan_stream_plan): latency 1 us, 1 GB/s, a further message of up to
// 4 KiB among several nearly free, of 8 KiB and more 1 us.
rm::CostModel streaming_model() {
  rm::CostModel model = rm::CostModel::linear(1e-6, 1e-9);
  model.burst.fill(1e-9);
  model.stream.fill(1e-6);
  model.stream[0] = 1e-8;
  return model;
}

// Ints of rank r's block: equal (3,000) or (r mod 3) * 1,500.
int block_ints(int r, bool equal) { return equal ? 3000 : (r % 3) * 1500; }

void test_streamed_nport(const rm::CostModel& model) {
  if (p < 2) return;
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  const rm::CommInfo ci = rm::comm_info(dup);
  const rm::TypeInfo type = rm::type_info(MPI_INT);
  expect(rm::stream_plan(model, 3000.0 * sizeof(int), false).streamed() &&
             rm::fan_stream_plan(model, 3000.0 * sizeof(int), false).streamed() &&
             rm::fan_stream_plan(model, 1500.0 * sizeof(int), true).streamed(),
         "the test's model streams messages of 6,000 and 12,000 B");
  for (const bool equal : {true, false}) {
    std::vector<int> counts(p);
    for (int r = 0; r < p; ++r) counts[r] = block_ints(r, equal);
    const std::vector<std::int64_t> starts = rm::block_starts(counts.data(), p);
    const rm::BlockCut cut{starts[p], p, starts.data()};
    for (int n = 1; n <= std::min(p - 1, 4); ++n) {
      const std::string what = std::string(equal ? "equal" : "(r mod 3)") +
                               " blocks, streamed, n = " + std::to_string(n);
      // The all-gather: block r holds r's ints.
      std::vector<int> all(starts[p] + 1, kUntouched);
      for (std::int64_t i = starts[rank]; i < starts[rank + 1]; ++i) all[i] = rank * 100000 + i;
      rm::nway_allgather_on(ci, reinterpret_cast<char*>(all.data()), cut, MPI_INT, type, n, &model);
      bool right = all[starts[p]] == kUntouched;
      for (int r = 0; r < p; ++r) {
        for (std::int64_t i = starts[r]; i < starts[r + 1]; ++i) {
          right = right && all[i] == r * 100000 + i;
        }
      }
      expect(right, "n-port all-gather, " + what);
      // The reduce-scatter: element i of rank r's vector is r * 7 + i; block rank summed.
      std::vector<int> acc(starts[p] + 1, kUntouched);
      for (std::int64_t i = 0; i < starts[p]; ++i) acc[i] = rank * 7 + static_cast<int>(i);
      rm::nway_reduce_scatter_on(ci, reinterpret_cast<char*>(acc.data()), cut, MPI_INT, type,
                                 MPI_SUM, n, &model);
      right = acc[starts[p]] == kUntouched;
      for (std::int64_t i = starts[rank]; i < starts[rank + 1]; ++i) {
        right = right && acc[i] == 7 * p * (p - 1) / 2 + p * static_cast<int>(i);
      }
      expect(right, "n-port reduce-scatter, " + what);
    }
  }
  MPI_Comm_free(&dup);
}

}  // namespace

void test_round_streams() {
  test_stream_ports();
  test_streamed_nport(streaming_model());
}

}  // namespace rosched_mpi_test
