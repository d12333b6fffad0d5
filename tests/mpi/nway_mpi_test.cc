// Rosched_Allreduce_nway and its split-phase form (mpi_exec/allreduce_nway.cc) against
// MPI_Allreduce, exactly (integer types): every n = 1..8 and rule, random cases seeded by p
// (counts with zeros, MPI_IN_PLACE, int and long long, MPI_SUM / MPI_MAX / a user-defined
// commutative operation), a vector datatype with gaps, Iallreduce progressed by Rosched_Test
// and two calls in flight on one communicator, completed out of order; errors: a
// non-commutative operation (MPI_ERR_OP), bad n and rules (MPI_ERR_ARG), NULL requests. The
// n-port all-gather's cost rule (mpi_exec/allgather_nway.h) against enumeration, and its block
// sizes (gather_blocks) against a sum and a maximum.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "mpi_exec/allgather_nway.h"
#include "mpi_exec/allreduce_lanes.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/nway_allreduce.h"
#include "mpi_exec/reduce_node_aware.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/round_stream.h"
#include "mpi_exec/settings.h"
#include "tests/mpi/mpi_test_util.h"

namespace rosched_mpi_test {
namespace {

const char* const kRules[] = {"circulant", "digits", "paper"};

void xor_ints(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[i] ^= static_cast<int*>(in)[i];
}

// Sums the first int of each element of a vector type of 2 ints at stride 3 (gap of one int
// between them): elements are 6 ints apart after resizing, ints 0 and 3 hold the data.
void sum_spaced(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int e = 0; e < *len; ++e) {
    for (int k : {0, 3}) static_cast<int*>(inout)[6 * e + k] += static_cast<int*>(in)[6 * e + k];
  }
}

template <typename T>
bool one_case(int count, bool in_place, MPI_Datatype type, MPI_Op op, MPI_Op native_op,
              unsigned seed, bool split) {
  std::mt19937 gen(seed + static_cast<unsigned>(rank) * 7919u);
  std::vector<T> send(count), mine(count + 1, T(-7)), native(count);
  for (T& v : send) v = static_cast<T>(gen() % 100000) - 50000;
  if (in_place) std::copy(send.begin(), send.end(), mine.begin());
  int rc = MPI_SUCCESS;
  const void* from = in_place ? MPI_IN_PLACE : static_cast<const void*>(send.data());
  if (split) {
    Rosched_Request req = ROSCHED_REQUEST_NULL;
    rc = Rosched_Iallreduce_nway(from, mine.data(), count, type, op, MPI_COMM_WORLD, &req);
    int flag = 0, tests = 0;
    while (rc == MPI_SUCCESS && !flag) rc = Rosched_Test(&req, &flag), ++tests;
    if (req != ROSCHED_REQUEST_NULL) return false;
  } else {
    rc = Rosched_Allreduce_nway(from, mine.data(), count, type, op, MPI_COMM_WORLD);
  }
  MPI_Allreduce(send.data(), native.data(), count, type, native_op, MPI_COMM_WORLD);
  bool ok = rc == MPI_SUCCESS && mine[count] == T(-7);
  for (int i = 0; i < count && ok; ++i) ok = mine[i] == native[i];
  return ok;
}

void test_every_n_and_rule() {
  for (const char* rule : kRules) {
    for (int n = 1; n <= 8; ++n) {
      Rosched_Set_nway(n, rule);
      for (int count : {1, 5}) {
        const std::string what = std::string("nway ") + rule + " n=" + std::to_string(n) +
                                 " count=" + std::to_string(count);
        expect(one_case<int>(count, false, MPI_INT, MPI_SUM, MPI_SUM, 11u * n + count, false),
               what + " MPI_SUM");
        expect(one_case<int>(count, true, MPI_INT, MPI_MAX, MPI_MAX, 13u * n, true),
               what + " MPI_MAX in place, split phase");
      }
    }
  }
  Rosched_Set_nway(0, nullptr);
}

// Random cases, the same on every rank for a given p.
void test_random_cases() {
  std::mt19937 gen(static_cast<unsigned>(p) * 1000003u);
  MPI_Op xor_op;
  MPI_Op_create(xor_ints, 1, &xor_op);
  for (int c = 0; c < 24; ++c) {
    const int n = static_cast<int>(gen() % 9);  // 0: the cost rule
    const char* rule = kRules[gen() % 3];
    const int count = gen() % 4 == 0 ? 0 : static_cast<int>(gen() % 700);
    const bool in_place = gen() % 2, split = gen() % 2;
    const int kind = static_cast<int>(gen() % 3);
    Rosched_Set_nway(n, rule);
    const std::string what = "nway random case " + std::to_string(c) + ": n=" + std::to_string(n) +
                             " rule=" + rule + " count=" + std::to_string(count) +
                             (in_place ? " in place" : "") + (split ? " split" : "") +
                             " kind=" + std::to_string(kind);
    bool ok = false;
    if (kind == 0) ok = one_case<long long>(count, in_place, MPI_LONG_LONG, MPI_SUM, MPI_SUM, c, split);
    if (kind == 1) ok = one_case<int>(count, in_place, MPI_INT, MPI_MIN, MPI_MIN, c, split);
    if (kind == 2) ok = one_case<int>(count, in_place, MPI_INT, xor_op, MPI_BXOR, c, split);
    expect(ok, what);
  }
  Rosched_Set_nway(0, nullptr);
  MPI_Op_free(&xor_op);
}

void test_derived_datatype() {
  MPI_Datatype spaced, resized;
  MPI_Type_vector(2, 1, 3, MPI_INT, &spaced);
  MPI_Type_create_resized(spaced, 0, 6 * sizeof(int), &resized);
  MPI_Type_commit(&resized);
  MPI_Op op;
  MPI_Op_create(sum_spaced, 1, &op);
  for (const char* rule : kRules) {
    Rosched_Set_nway(2, rule);
    const int count = 9;
    std::vector<int> send(6 * count, -1), mine(6 * count, -2), expected(6 * count, -2);
    for (int e = 0; e < count; ++e) {
      send[6 * e] = rank * 100 + e;
      send[6 * e + 3] = rank - e;
      expected[6 * e] = 100 * p * (p - 1) / 2 + p * e;
      expected[6 * e + 3] = p * (p - 1) / 2 - p * e;
    }
    const int rc = Rosched_Allreduce_nway(send.data(), mine.data(), count, resized, op, MPI_COMM_WORLD);
    expect(rc == MPI_SUCCESS && mine == expected,
           std::string("nway vector datatype with gaps (gaps untouched), rule ") + rule);
  }
  Rosched_Set_nway(0, nullptr);
  MPI_Op_free(&op);
  MPI_Type_free(&resized);
  MPI_Type_free(&spaced);
}

void test_split_phase() {
  // Two calls in flight on one communicator, completed in the opposite order.
  std::vector<int> a(40), b(3), ra(40), rb(3), na(40), nb(3);
  for (int i = 0; i < 40; ++i) a[i] = rank * 3 + i;
  for (int i = 0; i < 3; ++i) b[i] = rank + 100 * i;
  Rosched_Set_nway(3, "digits");
  Rosched_Request first = ROSCHED_REQUEST_NULL, second = ROSCHED_REQUEST_NULL;
  int rc = Rosched_Iallreduce_nway(a.data(), ra.data(), 40, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &first);
  rc |= Rosched_Iallreduce_nway(b.data(), rb.data(), 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &second);
  rc |= Rosched_Wait(&second);
  int flag = 0;
  rc |= Rosched_Test(&first, &flag);
  if (!flag) rc |= Rosched_Wait(&first);
  MPI_Allreduce(a.data(), na.data(), 40, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(b.data(), nb.data(), 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  expect(rc == MPI_SUCCESS && ra == na && rb == nb && first == ROSCHED_REQUEST_NULL &&
             second == ROSCHED_REQUEST_NULL,
         "nway two split-phase calls in flight, completed out of order");
  flag = 0;
  expect(Rosched_Test(&first, &flag) == MPI_SUCCESS && flag == 1, "nway Test on a null request");
  expect(Rosched_Wait(&first) == MPI_SUCCESS, "nway Wait on a null request");
  // Count 0 completes at once.
  Rosched_Request zero = ROSCHED_REQUEST_NULL;
  rc = Rosched_Iallreduce_nway(a.data(), ra.data(), 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &zero);
  flag = 0;
  rc |= Rosched_Test(&zero, &flag);
  expect(rc == MPI_SUCCESS && flag == 1 && zero == ROSCHED_REQUEST_NULL, "nway split count 0");
  Rosched_Set_nway(0, nullptr);
}

// The k-nomial reduction's rule for its ports (knomial_ports_for) on the backbone-like model of
// test_settings_and_rule: against enumeration of its formula, the same as the n-way rule where
// the model sees no crowding, and more ports than the n-way rule where it does, as the tree's
// levels put one vector per rank on what the ranks share, not n.
void test_knomial_rule(rosched::mpi::CostModel model) {
  using rosched::mpi::knomial_ports_for;
  using rosched::mpi::nway_ports_for;
  const int ranks = 1152;
  for (double bytes : {2048.0, 4096.0, 8192.0, 16384.0}) {
    const std::string at = std::to_string(static_cast<int>(bytes)) + " B";
    model.crowding = 1;
    expect(knomial_ports_for(model, ranks, bytes) == nway_ports_for(model, ranks, bytes),
           "k-nomial rule without crowding is the n-way rule, " + at);
    model.crowding = 6;
    int best = 1;
    double best_cost = 1e300;
    for (int n = 1; n <= 64; ++n) {
      int levels = 0;
      for (long long reach = 1; reach < ranks; reach *= n + 1) ++levels;
      const double one = model.time(bytes);
      const double bytes_of_n = std::max(model.time(n * bytes) - one,
                                         (n - 1) * (model.further(bytes) - model.per_message));
      const double cost = levels * (one + bytes_of_n / 6);  // fanout 2
      if (cost < best_cost) best = n, best_cost = cost;
    }
    expect(knomial_ports_for(model, ranks, bytes) == best,
           "k-nomial rule, crowding 6, " + at + ": n=" + std::to_string(best) + ", got " +
               std::to_string(knomial_ports_for(model, ranks, bytes)));
  }
  // 4 KiB: five ports (a 6-nomial tree, 4 levels: 6^4 >= 1,152) where the n-way rule keeps one
  // (11 rounds).
  expect(nway_ports_for(model, ranks, 4096) == 1 && knomial_ports_for(model, ranks, 4096) == 5,
         "k-nomial rule, crowding 6, 4 KiB: 5 ports, got " +
             std::to_string(knomial_ports_for(model, ranks, 4096)));
  expect(knomial_ports_for(model, 2, 4) == 1 && knomial_ports_for(model, 1, 4) == 1,
         "k-nomial rule: one port for p <= 2");
}

// A measured model: the times at kModelSizes and the further figures (measured, as the
// ROSCHED_VERBOSE lines of a run show them).
rosched::mpi::CostModel measured_model(
    const std::array<double, rosched::mpi::CostModel::kPoints>& seconds, double per_message,
    double crowding, double fanout) {
  rosched::mpi::CostModel model;
  model.bytes = rosched::mpi::kModelSizes;
  model.seconds = seconds;
  model.per_message = per_message;
  model.crowding = crowding;
  model.fanout = fanout;
  model.measured = true;
  return model;
}

// The cost rule on a linear model (alpha = 1 us, beta = 0.1 ns/B) against enumeration; the n a
// call on MPI_COMM_WORLD uses (ROSCHED_NWAY_N in the many-blocks pass), the same on every rank.
// The n-port all-gather's rule against its formula enumerated here, with skips built by repeated
// division (s_k = p, s_i = ceil(s_(i+1) / (n + 1))): over the rounds, the longer of
// time(m) + s max(time(c m) - time(m), (c - 1) (further(m) - per_message)) + (c - 1) per_message
// (s = fanout - 1, or 1 for the mean messages above 60 KiB on a model of crowding above 1.5)
// (on a measured model with burst figures and m at most 60 KiB: time(m) + (c - 1) further(m))
// for the round's c messages of
// m = (s_(i+1) - s_i) / c mean blocks, and, where the largest block is above the mean, the same
// for messages of m + largest - mean bytes (at most the whole result) with s divided by
// crowding^((1 + share) / 2), share = (largest - mean) / (p mean), or not divided where the
// ranks share nodes.
double allgather_formula(const rosched::mpi::CostModel& model, int ranks, int n, double mean,
                         double largest, bool on_nodes) {
  std::vector<long long> skips = {ranks};
  while (skips.back() > 1) skips.push_back((skips.back() + n) / (n + 1));
  const double eager = rosched::mpi::kModelSizes[rosched::mpi::kEagerPoint];
  // Below the eager limit on a measured model with burst figures, each further message at its
  // own size's figure on the sender's link (no fanout share); else the dearer reading, shared:
  // fanout - 1, but all of it for every rank's messages above the eager limit where the model is
  // crowded (above 1.5).
  const bool own_size = model.measured && model.burst[0] > 0;
  const auto fan = [&](long long c, double m, double spread, bool every_rank) {
    const double one = model.time(m);
    const double many = (c - 1) * (model.further(m) - model.per_message);
    if (own_size && m <= eager) return one + many / spread + (c - 1) * model.per_message;
    const bool full = every_rank && model.crowding > 1.5 && m > eager;
    const double shared = full ? 1.0 : std::clamp(model.fanout - 1, 0.0, 1.0);
    const double bytes_of_c = std::max(model.time(c * m) - one, many);
    return one + shared * bytes_of_c / spread + (c - 1) * model.per_message;
  };
  double total = 0;
  for (std::size_t i = skips.size() - 1; i > 0; --i) {
    const long long held = skips[i], next = skips[i - 1];
    long long c = 0;
    while ((c + 1) * held < next) ++c;
    const double m = static_cast<double>(next - held) / c * mean;
    double round = fan(c, m, 1, true);
    if (largest > mean) {
      const double heavy = std::min(m + largest - mean, mean * ranks);
      const double share = (largest - mean) / (mean * ranks);
      const double spread = on_nodes ? 1 : std::pow(model.crowding, (1 + share) / 2);
      round = std::max(round, fan(c, heavy, spread, false));
    }
    total += round;
  }
  return total;
}

void test_allgather_rule(const rosched::mpi::CostModel& shared) {
  using rosched::mpi::GatherBlocks;
  using rosched::mpi::nway_allgather_ports_for;
  rosched::mpi::CostModel overheads = rosched::mpi::CostModel::linear(2e-6, 1e-10);
  overheads.per_message = 0.3e-6;
  // The model measured at 1,152 ranks on SimGrid's `flat` (ROSCHED_VERBOSE=1 of a reduce run,
  // results/log_reduce_flat_p1152_tree_rule_verbose.txt): a network that every rank's traffic
  // crowds.
  const rosched::mpi::CostModel crowded =
      measured_model({4.05e-6, 6.34e-6, 8.52e-6, 2.09e-5, 3.51e-5, 5.99e-5, 1.07e-4, 6.97e-4},
                     1.45e-8, 5.96, 1.79);
  // The model measured at 288 ranks on `flat288` (flat's backbone per host), with its figures
  // for further messages of 512 B-128 KiB (ROSCHED_VERBOSE=1).
  rosched::mpi::CostModel bursts = measured_model(
      {4.04e-6, 4.9e-6, 5.78e-6, 1.45e-5, 3.03e-5, 5.44e-5, 8.67e-5, 6.73e-4}, 7.71e-9, 5.76, 1.79);
  bursts.burst = {9.45e-7, 1.84e-6, 2.05e-6};
  bursts.stream = {2.87e-6, 4.45e-6, 1.4e-5, 2.85e-5, 5.33e-5, 8.44e-5};
  const rosched::mpi::CostModel* models[] = {&shared, &overheads, &crowded, &bursts};
  for (const rosched::mpi::CostModel* model : models) {
    for (int ranks : {3, 36, 1152}) {
      for (double block : {1.0, 4.0, 256.0, 4096.0, 65536.0}) {
        // Equal blocks, and one block 200 times the mean (as the (r mod 3) counts' last); ranks
        // on nodes of their own or sharing them.
        for (double largest : {block, 200 * block}) {
          for (bool on_nodes : {false, true}) {
            int best = 1;
            double best_cost = 1e300;
            for (int n = 1; n <= std::min(ranks - 1, 64); ++n) {
              const double cost = allgather_formula(*model, ranks, n, block, largest, on_nodes);
              if (cost < best_cost * (1 - 1e-12)) best = n, best_cost = cost;
            }
            const GatherBlocks blocks{block, largest};
            const int got = nway_allgather_ports_for(*model, ranks, blocks, on_nodes);
            const double time =
                rosched::mpi::nway_allgather_time(*model, ranks, got, blocks, on_nodes);
            expect(got == best && std::abs(time - best_cost) <= 1e-9 * best_cost,
                   "all-gather port rule, p = " + std::to_string(ranks) + ", blocks of " +
                       std::to_string(static_cast<int>(block)) + " B, largest " +
                       std::to_string(static_cast<int>(largest)) + " B" +
                       (on_nodes ? ", shared nodes" : "") + ": n = " + std::to_string(best) +
                       ", got " + std::to_string(got));
          }
        }
      }
    }
  }
  // 36 ranks, 4 B blocks, 2 us a message and 0.3 us per further one: many ports, two rounds at
  // most (Algorithm 7: 6).
  const int n36 = nway_allgather_ports_for(overheads, 36, {4, 4});
  expect(n36 >= 5, "all-gather port rule, 36 ranks, 4 B: n = " + std::to_string(n36));
  expect(nway_allgather_ports_for(overheads, 2, {4, 4}) == 1,
         "all-gather port rule: one for p = 2");
  // 1,152 ranks on that model, blocks of 14 B: two rounds (33 ports or more) for equal blocks;
  // where one block is 2.5 KiB (Träff 2022's (r mod 3) counts of 16 KiB) a rank that holds it
  // sends it on each of its ports, so fewer ports (SimGrid there: Algorithm 7 (1 port) 55.7 us,
  // 2 ports 39.8, 5 32.5, 7 30.4, 10 36.7, 20 43.1, and the rule's before it saw the largest
  // block, about 33, 55.3); where the last rank holds all 4 KiB (those counts of 4 KiB), about
  // as few (2 ports 31.8 us, 5 23.7, 10 24.1; this model takes 11).
  const int even = nway_allgather_ports_for(crowded, 1152, {14, 14});
  const int heavy = nway_allgather_ports_for(crowded, 1152, {14, 2584});
  const int one = nway_allgather_ports_for(crowded, 1152, {4096.0 / 1152, 4096});
  expect(even >= 33 && heavy >= 3 && heavy <= 10 && one >= 3 && one <= 12,
         "all-gather port rule, 1,152 ranks, blocks of 14 B: n = " + std::to_string(even) +
             ", one of 2,584 B: n = " + std::to_string(heavy) +
             ", one of all 4 KiB: n = " + std::to_string(one));
  // Each message moves at its own size's rate. On that model at 288 ranks, a result of 16 KiB
  // (blocks of 57 B): SimGrid took 48.1 us on 1 port, 36.0 on 3, 33.1 on 5, 28.8 on 7, 39.5 on
  // 11, 36.1 on 16 and 37.2 on 31 (the rule's n when the 512 B burst figure was measured low,
  // 0.33 us); 4 KiB (blocks of 14 B): 39.7 / 25.5 / 21.9 / 18.0 / 18.3 / 11.0 us on 1 / 3 / 5 /
  // 7 / 11 / 16 ports. SimGrid moves a message of 257-1,425 B at 0.34 of a link's bandwidth, one
  // of 15.4-64 KiB at 0.70: without the burst figures the rule prices n small messages as one
  // large one and takes 16 ports or more at 16 KiB.
  const int mid = nway_allgather_ports_for(bursts, 288, {16384.0 / 288, 16384.0 / 288});
  const int small = nway_allgather_ports_for(bursts, 288, {4096.0 / 288, 4096.0 / 288});
  rosched::mpi::CostModel no_bursts = bursts;
  no_bursts.burst = {};
  no_bursts.stream = {};
  const int mid_before = nway_allgather_ports_for(no_bursts, 288, {16384.0 / 288, 16384.0 / 288});
  expect(mid >= 5 && mid <= 7 && small == 16 && mid_before >= 16,
         "all-gather port rule, 288 ranks, 16 KiB: n = " + std::to_string(mid) + " (" +
             std::to_string(mid_before) +
             " without burst figures), 4 KiB: n = " + std::to_string(small));
  // The model measured at 1,152 ranks on `flat` with the burst figures (ROSCHED_VERBOSE=1,
  // results/log_allgather_flat_p1152_nport_bursts16k_verbose.txt). 16 KiB (blocks of 14 B):
  // SimGrid took 30.7 us on 5 ports, 35.6 on 10, and 55.3 where the rule took about 33; 4 KiB
  // (blocks of 4 B): 23.7 us on 5 ports, 20.3 on 10, 13.4 on 35 (two rounds). The rule: 5 ports
  // at 16 KiB, two rounds (33 ports or more) at 4 KiB.
  rosched::mpi::CostModel flat = measured_model(
      {4.07e-6, 4.76e-6, 5.66e-6, 1.36e-5, 3e-5, 5.42e-5, 8.38e-5, 6.73e-4}, 6.58e-9, 5.76, 1.79);
  flat.burst = {9.45e-7, 1.84e-6, 2.05e-6};
  flat.stream = {2.88e-6, 4.37e-6, 1.45e-5, 2.97e-5, 5.33e-5, 8.5e-5};
  const int flat_mid = nway_allgather_ports_for(flat, 1152, {16384.0 / 1152, 16384.0 / 1152});
  const int flat_small = nway_allgather_ports_for(flat, 1152, {4, 4});
  expect(flat_mid == 5 && flat_small >= 33,
         "all-gather port rule, 1,152 ranks on flat's model, 16 KiB: n = " +
             std::to_string(flat_mid) + ", 4 KiB: n = " + std::to_string(flat_small));
  // The model measured on 36 nodes of 32 ranks in SimGrid (`paper`, crowding 21.4: 32 ranks share
  // a node's link), all 4 KiB on the last rank: its block's holders after a round are the ranks
  // next to it, on its node, so their copies share that node's link (33 ports took 232 us there,
  // 3.3 times the library's 70). Without the nodes the model's crowding would take the most
  // ports; with them, few.
  const rosched::mpi::CostModel nodes = measured_model(
      {4.05e-6, 8.74e-6, 1.19e-5, 3.42e-5, 6.47e-5, 1.18e-4, 2.01e-4, 1.5e-3}, 2.45e-8, 21.4, 1.66);
  const GatherBlocks all_on_one{4096.0 / 1152, 4096};
  const int apart = nway_allgather_ports_for(nodes, 1152, all_on_one, false);
  const int together = nway_allgather_ports_for(nodes, 1152, all_on_one, true);
  expect(apart >= 20 && together <= 3,
         "all-gather port rule, 36 x 32 ranks, all 4 KiB on one: n = " + std::to_string(apart) +
             " on nodes of their own, " + std::to_string(together) + " on shared nodes");
}

// The rule priced on streamed rounds (NportRounds::kStreamed), as the entry points run them.
void test_streamed_allgather_rule(const rosched::mpi::CostModel& shared) {
  using rosched::mpi::GatherBlocks;
  using rosched::mpi::NportRounds;
  using rosched::mpi::nway_allgather_time;
  // Results too short to stream (half of them at most 4 KiB, ROSCHED_STREAM_PART unset:
  // rounds_could_stream) are priced whole, on every model and n.
  const rosched::mpi::CostModel linear = rosched::mpi::CostModel::linear(2e-6, 1e-10);
  for (const rosched::mpi::CostModel* model : {&shared, &linear}) {
    for (int ranks : {3, 36, 1152}) {
      for (double result : {4.0, 1024.0, 8192.0}) {
        const GatherBlocks blocks{result / ranks, result / 3};
        for (int n : {1, 2, 5, ranks - 1}) {
          if (n > 64 || rosched::mpi::rounds_could_stream(ranks, result)) continue;
          const double whole = nway_allgather_time(*model, ranks, n, blocks, false);
          const double streamed =
              nway_allgather_time(*model, ranks, n, blocks, false, NportRounds::kStreamed);
          expect(streamed == whole, "streamed all-gather rule, p = " + std::to_string(ranks) +
                                        ", " + std::to_string(result) +
                                        " B, n = " + std::to_string(n) + ": priced whole");
        }
      }
    }
  }
  // The rest is about the parts the model cuts: not where ROSCHED_STREAM_PART fixes them (the
  // many-blocks pass, 24 B).
  if (rosched::mpi::settings().stream_part > 0) return;
  // The model measured on SimGrid's `paper` platform, 36 x 1 (ROSCHED_VERBOSE=1,
  // results/log_allgather_paper_p36_nport_streams_auto_verbose.txt).
  rosched::mpi::CostModel paper = measured_model(
      {3.99e-06, 3.99e-06, 4.7e-06, 7.97e-06, 8.96e-06, 1.07e-05, 2.92e-05, 7.01e-05}, 1.29e-09, 1,
      1.66);
  paper.stream = {2.23e-07, 3.17e-07, 9.87e-07, 1.97e-06, 3.7e-06, 5.86e-06};
  paper.burst = {6.57e-08, 1.28e-07, 1.43e-07};
  // One round of 35 messages (n = 35), written out: each message cut as fan_stream_plan cuts it,
  // every part one of the rank's messages in fan_time.
  for (double result : {262144.0, 1048576.0, 4194304.0}) {
    const double message = result / 36;
    const rosched::mpi::StreamPlan plan = rosched::mpi::fan_stream_plan(paper, message, false);
    const double parts = plan.streamed() ? std::ceil(message / plan.part_bytes) : 1;
    const double expected =
        rosched::mpi::fan_time(paper, static_cast<int>(35 * parts), message / parts);
    const double got =
        nway_allgather_time(paper, 36, 35, {message, message}, false, NportRounds::kStreamed);
    expect(std::abs(got - expected) <= 1e-12 * expected,
           "streamed all-gather rule, 36 x 1, " + std::to_string(result) + " B on 35 ports: " +
               std::to_string(got) + " s, written out " + std::to_string(expected) + " s");
  }
  // SimGrid, 36 x 1, the all-gather of 1 MiB with its rounds streamed: 52.6 us on 5, 11 or 17
  // ports, 48.3 on 35 (results/sim_allgather_paper_p36_nport_n*_sync.tsv). Priced whole the rule
  // takes 11; priced as it runs, 35.
  const GatherBlocks mib{1048576.0 / 36, 1048576.0 / 36};
  const int whole = rosched::mpi::nway_allgather_ports_for(paper, 36, mib);
  const int streamed =
      rosched::mpi::nway_allgather_ports_for(paper, 36, mib, false, NportRounds::kStreamed);
  expect(whole == 11 && streamed == 35,
         "streamed all-gather rule, 36 x 1, 1 MiB: n = " + std::to_string(streamed) + " (" +
             std::to_string(whole) + " priced whole)");
  expect(
      rosched::mpi::nway_allgather_trial_ports(paper, 36, mib, false, NportRounds::kWhole) == 11 &&
          rosched::mpi::nway_allgather_trial_ports(paper, 36, mib, false, NportRounds::kStreamed) ==
              35,
      "n-port trial, 36 x 1, 1 MiB: 11 ports whole, 35 streamed");
  // The answers are kept per thread by what they were asked on: another figure of the model,
  // another answer; the first model again, its answer again.
  rosched::mpi::CostModel dear = paper;
  dear.per_message = 1e-4;  // 0.1 ms a further message: no n-port form pays
  const int dear_n =
      rosched::mpi::nway_allgather_trial_ports(dear, 36, mib, false, NportRounds::kStreamed);
  const int again =
      rosched::mpi::nway_allgather_trial_ports(paper, 36, mib, false, NportRounds::kStreamed);
  expect(dear_n == 0 && again == 35, "n-port trial: the kept answers follow the model: " +
                                         std::to_string(dear_n) + ", " + std::to_string(again));
  // (r mod 3) counts of 4 MiB (the last of every three ranks holds two blocks' worth): streamed
  // prices put 2 ports within 10% of one; the gate, which weighs them against one port's whole
  // rounds, keeps the form a candidate (SimGrid: 219.3 us on 3 ports, Algorithm 9 246.5), on
  // the streamed rounds' n.
  const double per = std::floor(4194304.0 / 4 / 34);
  const GatherBlocks rmod3{4194304.0 / 36, 8 * per};
  const int n_streamed =
      rosched::mpi::nway_allgather_ports_for(paper, 36, rmod3, false, NportRounds::kStreamed);
  const double near =
      nway_allgather_time(paper, 36, n_streamed, rmod3, false, NportRounds::kStreamed) /
      nway_allgather_time(paper, 36, 1, rmod3, false, NportRounds::kStreamed);
  const int trial =
      rosched::mpi::nway_allgather_trial_ports(paper, 36, rmod3, false, NportRounds::kStreamed);
  expect(n_streamed >= 2 && n_streamed <= 3 && near > 0.9 && trial == n_streamed,
         "n-port trial, 36 x 1, (r mod 3) of 4 MiB: streamed n = " + std::to_string(n_streamed) +
             " at " + std::to_string(near) + " of one port, trial n = " + std::to_string(trial));
  // A crowded network: the model measured at 288 ranks on SimGrid's `flat288` (ROSCHED_VERBOSE=1,
  // results/log_allgather_flat288_p288_nway_streamed_verbose.txt), the all-gather of 1 MiB.
  // Every rank's messages of 128 KiB on 7 ports at once cost their crowded time in full
  // (fan_share): SimGrid took 730.03 us with whole rounds, where the fanout's share (0.79) said
  // 626. Whole rounds on the rule's ports come within 10% of one port's (SimGrid: 802.42 us on
  // one), streamed ones of one port's streamed (613.86 on 15 ports, 670.14 on one), yet the
  // streamed n-port form is the fastest there: the gate keeps it, on the streamed rounds' n.
  rosched::mpi::CostModel crowded =
      measured_model({4.05e-6, 6.34e-6, 8.53e-6, 2.09e-5, 3.51e-5, 5.99e-5, 1.07e-4, 6.97e-4},
                     1.42e-8, 5.96, 1.79);
  crowded.stream = {3.36e-6, 4.61e-6, 1.42e-5, 2.84e-5, 5.33e-5, 8.43e-5};
  crowded.burst = {9.45e-7, 1.84e-6, 2.05e-6};
  const GatherBlocks flat_mib{1048576.0 / 288, 1048576.0 / 288};
  const double seven = nway_allgather_time(crowded, 288, 7, flat_mib);
  const int n_whole = rosched::mpi::nway_allgather_ports_for(crowded, 288, flat_mib);
  const int n_crowded =
      rosched::mpi::nway_allgather_ports_for(crowded, 288, flat_mib, false, NportRounds::kStreamed);
  const double whole_near = nway_allgather_time(crowded, 288, n_whole, flat_mib) /
                            nway_allgather_time(crowded, 288, 1, flat_mib);
  const double streamed_near =
      nway_allgather_time(crowded, 288, n_crowded, flat_mib, false, NportRounds::kStreamed) /
      nway_allgather_time(crowded, 288, 1, flat_mib, false, NportRounds::kStreamed);
  const int crowded_trial = rosched::mpi::nway_allgather_trial_ports(crowded, 288, flat_mib, false,
                                                                     NportRounds::kStreamed);
  expect(std::abs(seven - 730.03e-6) <= 0.03 * 730.03e-6 && whole_near > 0.9 &&
             streamed_near > 0.9 && n_crowded > 1 && crowded_trial == n_crowded &&
             rosched::mpi::nway_allgather_trial_ports(crowded, 288, flat_mib, false,
                                                      NportRounds::kWhole) == 0,
         "n-port trial, flat288, 1 MiB: 7 ports whole " + std::to_string(seven * 1e6) +
             " us, whole / one port " + std::to_string(whole_near) + ", streamed n = " +
             std::to_string(n_crowded) + " at " + std::to_string(streamed_near) +
             " of one port's streamed, trial n = " + std::to_string(crowded_trial));
  // Where whole prices find no 10% (bandwidth alone counts), no trial either way.
  const GatherBlocks thirds{1048576.0 / 3, 1048576.0 / 3};
  const rosched::mpi::CostModel bandwidth = rosched::mpi::CostModel::linear(1e-9, 1e-9);
  expect(rosched::mpi::nway_allgather_trial_ports(bandwidth, 3, thirds, false,
                                                  NportRounds::kStreamed) == 0,
         "n-port trial: none where bandwidth alone counts");
}

// The lane's all-reduce of the node-aware all-reduce's short and mid-sized form
// (lane_allreduce_form): on a linear model (alpha 2 us, beta 0.1 ns/B, no further costs) against
// its definition with both estimates written out (the n-port form: twice allgather_formula,
// taken for short vectors where at most 0.95 of the n-way all-reduce's: ceil(log_(n+1) N) rounds
// of alpha + n beta m), and on the lane's model as measured in SimGrid among the 36 nodes' ranks
// 0 of the paper's 36 x 32 cluster: the n-port form from 4 KiB (there 10.8 us against the n-way
// lane's 12.0), not at 1 KiB, where the estimates differ by 1% (11.8 against 10.2).
void test_lane_form() {
  using rosched::mpi::lane_allreduce_form;
  using rosched::mpi::LaneAllreduce;
  const rosched::mpi::CostModel linear = rosched::mpi::CostModel::linear(2e-6, 1e-10);
  for (int lanes : {3, 8, 36}) {
    for (double bytes : {64.0, 1024.0, 16384.0, 65536.0, 262144.0, 1048576.0}) {
      for (int n_port : {0, 2, 5}) {
        for (int n_way : {1, 2, 7}) {
          const std::string at = std::to_string(lanes) + " lanes, " +
                                 std::to_string(static_cast<int>(bytes)) + " B, n-port " +
                                 std::to_string(n_port) + ", n-way " + std::to_string(n_way);
          expect(lane_allreduce_form(linear, lanes, bytes, true, n_port, n_way) ==
                     (n_port > 0 ? LaneAllreduce::kNport : LaneAllreduce::kScatterGather),
                 "lane form, mid-sized, " + at);
          LaneAllreduce want = LaneAllreduce::kNway;
          if (n_port > 0) {
            const double mean = bytes / lanes;
            const double nport = 2 * allgather_formula(linear, lanes, n_port, mean, mean, false);
            int rounds = 0;
            for (long long reach = 1; reach < lanes; reach *= n_way + 1) ++rounds;
            const double nway = rounds * (2e-6 + n_way * 1e-10 * bytes);
            if (nport <= 0.95 * nway) want = LaneAllreduce::kNport;
          }
          expect(lane_allreduce_form(linear, lanes, bytes, false, n_port, n_way) == want,
                 "lane form, short, " + at);
        }
      }
    }
  }
  // The lane's model (ROSCHED_VERBOSE=1, results/log_allreduce_paper_p1152_lane_nport_verbose.txt):
  // from 4 KiB the n-port form's 2 rounds on 35 ports beat the n-way all-reduce's, whose every
  // round sends the whole vector on each port.
  rosched::mpi::CostModel lane = measured_model(
      {3.99e-6, 3.99e-6, 4.7e-6, 7.97e-6, 8.96e-6, 1.07e-5, 2.92e-5, 7.01e-5}, 1.3e-9, 1, 1.66);
  lane.burst = {6.56e-8, 1.28e-7, 1.42e-7};
  lane.stream = {2.23e-7, 3.17e-7, 9.87e-7, 1.97e-6, 3.7e-6, 5.85e-6};
  for (double bytes : {4096.0, 16384.0, 32768.0}) {
    const int n_port = rosched::mpi::nway_allgather_ports_for(lane, 36, {bytes / 36, bytes / 36});
    const int n_way = rosched::mpi::nway_ports_for(lane, 36, bytes);
    expect(n_port > 1 &&
               lane_allreduce_form(lane, 36, bytes, false, n_port, n_way) == LaneAllreduce::kNport,
           "lane form on the 36 x 32 lane's model, " + std::to_string(static_cast<int>(bytes)) +
               " B: n-port on " + std::to_string(n_port) + " ports, n-way on " +
               std::to_string(n_way));
  }
  const int n_port = rosched::mpi::nway_allgather_ports_for(lane, 36, {1024.0 / 36, 1024.0 / 36});
  const int n_way = rosched::mpi::nway_ports_for(lane, 36, 1024);
  expect(lane_allreduce_form(lane, 36, 1024, false, n_port, n_way) == LaneAllreduce::kNway,
         "lane form on the 36 x 32 lane's model, 1 KiB: the n-way all-reduce");
}

// The lane of the node-aware reduction's short form (lane_reduce_takes_nport): on a linear
// model (alpha 2 us, beta 0.1 ns/B) and on the lane's model measured among the 36 nodes' ranks 0
// of the paper's 36 x 32 cluster, against its definition written out: the n-port reduce-scatter
// (allgather_formula of the blocks) and the gather (fan_time of lanes - 1 blocks) at most 0.95 of
// the k-nomial tree's estimate (knomial_time) or of the circulant reduction's,
// (blocks + ceil(log2 lanes) - 1) time(bytes / blocks); never over the two trees. On the measured
// model, the n-port form from 4 KiB on the rule's ports, against the tree reduce_tree_for takes
// there (the k-nomial tree up to 60 KiB: estimates 8.99 / 11.95 us against 9.76 / 23.84 at 4 /
// 16 KiB, where on 36 x 1 Rosched_Reduce's trial measured 8.53 against 9.66 and 11.83 against
// 23.37; beyond, the circulant reduction), the tree at 1 KiB (estimates 8.25 against 8.34,
// measured 8.23 against 8.17).
void test_lane_reduce_form() {
  using rosched::mpi::lane_reduce_takes_nport;
  using rosched::mpi::ReduceTree;
  const rosched::mpi::CostModel linear = rosched::mpi::CostModel::linear(2e-6, 1e-10);
  rosched::mpi::CostModel lane = measured_model(
      {3.99e-6, 3.99e-6, 4.7e-6, 7.97e-6, 8.96e-6, 1.07e-5, 2.92e-5, 7.01e-5}, 1.3e-9, 1, 1.66);
  lane.burst = {6.56e-8, 1.28e-7, 1.42e-7};
  lane.stream = {2.23e-7, 3.17e-7, 9.87e-7, 1.97e-6, 3.7e-6, 5.85e-6};
  const rosched::mpi::CostModel* const models[] = {&linear, &lane};
  const ReduceTree trees[] = {{ReduceTree::kKnomial, 1},
                              {ReduceTree::kKnomial, 3},
                              {ReduceTree::kCirculant, 0},
                              {ReduceTree::kTwoTree, 0}};
  for (const rosched::mpi::CostModel* model : models) {
    for (int lanes : {3, 8, 36}) {
      int log2 = 0;
      while ((1 << log2) < lanes) ++log2;
      for (double bytes : {1024.0, 4096.0, 16384.0, 65536.0, 1048576.0}) {
        for (int n_port : {2, 5, 35}) {
          if (n_port >= lanes) continue;
          const double mean = bytes / lanes;
          const double nport = allgather_formula(*model, lanes, n_port, mean, mean, false) +
                               rosched::mpi::fan_time(*model, lanes - 1, mean);
          const std::string at = std::to_string(lanes) + " lanes, " +
                                 std::to_string(static_cast<int>(bytes)) + " B, n-port " +
                                 std::to_string(n_port);
          expect(std::abs(rosched::mpi::nport_reduce_time(*model, lanes, n_port, bytes) - nport) <=
                     1e-9 * nport,
                 "n-port reduction's estimate, " + at);
          for (const ReduceTree& tree : trees) {
            for (std::int64_t blocks : {1, 4}) {
              double tree_time = -1;  // the two trees: never
              if (tree.kind == ReduceTree::kKnomial) {
                tree_time = rosched::mpi::knomial_time(*model, lanes, tree.ports, bytes);
              } else if (tree.kind == ReduceTree::kCirculant) {
                tree_time = static_cast<double>(blocks + log2 - 1) * model->time(bytes / blocks);
              }
              const bool want = tree_time >= 0 && nport <= 0.95 * tree_time;
              expect(lane_reduce_takes_nport(*model, lanes, bytes, n_port, tree, blocks) == want,
                     "lane reduction form, " + at + ", tree " + std::to_string(tree.kind) +
                         " ports " + std::to_string(tree.ports) + " blocks " +
                         std::to_string(blocks));
            }
          }
        }
      }
    }
  }
  for (double bytes :
       {1024.0, 4096.0, 16384.0, 65536.0, 262144.0, 1048576.0, 4194304.0, 16777216.0}) {
    const int n_port = rosched::mpi::nway_allgather_ports_for(lane, 36, {bytes / 36, bytes / 36});
    const bool short_vector = bytes <= rosched::mpi::kModelSizes[rosched::mpi::kEagerPoint];
    const ReduceTree tree{short_vector ? ReduceTree::kKnomial : ReduceTree::kCirculant,
                          short_vector ? rosched::mpi::knomial_ports_for(lane, 36, bytes) : 0};
    const std::int64_t blocks =
        short_vector ? 0
                     : rosched::mpi::pipeline_blocks(lane, bytes, 5,  // ceil(log2 36) - 1
                                                     static_cast<std::int64_t>(bytes / 4));
    const bool takes = lane_reduce_takes_nport(lane, 36, bytes, n_port, tree, blocks);
    expect(n_port > 1 && takes == (bytes > 1024),
           "lane reduction form on the 36 x 32 lane's model, " +
               std::to_string(static_cast<int>(bytes)) + " B: n-port on " + std::to_string(n_port) +
               " ports " + (takes ? "taken" : "not taken") + " over tree " +
               std::to_string(tree.kind) + " (ports " + std::to_string(tree.ports) + ", blocks " +
               std::to_string(blocks) + ")");
  }
}

// gather_blocks (allgather_nway.h) against the blocks' counts summed and compared one by one:
// random counts with zeros (a BlockCut of their prefix sums) and even cuts of n elements.
void test_gather_blocks() {
  std::mt19937 gen(17);
  for (int blocks : {1, 2, 7, 36}) {
    for (int size : {1, 4, 12}) {
      std::vector<int> counts(static_cast<std::size_t>(blocks));
      for (int& c : counts) c = gen() % 3 == 0 ? 0 : static_cast<int>(gen() % 1000);
      const std::vector<std::int64_t> starts = rosched::mpi::block_starts(counts.data(), blocks);
      long long sum = 0;
      int largest = 0;
      for (int c : counts) sum += c, largest = std::max(largest, c);
      const rosched::mpi::GatherBlocks got = rosched::mpi::gather_blocks(
          rosched::mpi::BlockCut{starts.back(), blocks, starts.data()}, size);
      const std::string at = std::to_string(blocks) + " blocks of " + std::to_string(size) + " B";
      expect(got.mean == static_cast<double>(sum) * size / blocks &&
                 got.largest == static_cast<double>(largest) * size,
             "gather_blocks, counts, " + at);
      for (std::int64_t n : {0LL, 5LL, 36LL, 1001LL}) {
        const rosched::mpi::GatherBlocks even =
            rosched::mpi::gather_blocks(rosched::mpi::BlockCut{n, blocks}, size);
        const std::int64_t most = n / blocks + (n % blocks != 0 ? 1 : 0);
        expect(even.mean == static_cast<double>(n) * size / blocks &&
                   even.largest == static_cast<double>(most) * size,
               "gather_blocks, " + std::to_string(n) + " elements evenly, " + at);
      }
    }
  }
}

// The n a call that runs the n-port all-gather takes (nway_allgather_ports_to_run) on the world
// communicator's own model: the trial's n where the form is a candidate, else the rule's n on
// the same pricing, at least 2 (2 for p <= 2); the same when asked again (then from the kept
// answers), and on every rank.
void test_ports_to_run(bool forced) {
  using rosched::mpi::NportRounds;
  const rosched::mpi::CommInfo ci = rosched::mpi::comm_info(MPI_COMM_WORLD);
  for (double result : {64.0, 65536.0, 4194304.0}) {
    const rosched::mpi::GatherBlocks blocks{result / p, result / p};
    for (NportRounds rounds : {NportRounds::kWhole, NportRounds::kStreamed}) {
      const std::string at = std::to_string(static_cast<long long>(result)) + " B, " +
                             (rounds == NportRounds::kStreamed ? "streamed" : "whole");
      const int first = rosched::mpi::nway_allgather_ports_to_run(ci, blocks, rounds);
      const int again = rosched::mpi::nway_allgather_ports_to_run(ci, blocks, rounds);
      int range[2] = {-first, first}, all[2] = {0, 0};
      MPI_Allreduce(range, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      expect(first == again && -all[0] == all[1],
             "n-port ports to run, " + at + ": the same again and on every rank");
      if (forced) continue;
      int want = 2;
      if (p > 2) {
        const rosched::mpi::CostModel& model = rosched::mpi::cost_model(ci);
        const int trial = rosched::mpi::nway_allgather_trial_ports(model, p, blocks, false, rounds);
        want = trial > 0 ? trial
                         : std::max(2, rosched::mpi::nway_allgather_ports_for(model, p, blocks,
                                                                              false, rounds));
      }
      expect(first == want, "n-port ports to run, " + at + ": n = " + std::to_string(first) +
                                ", the rule " + std::to_string(want));
    }
  }
}

void test_settings_and_rule() {
  const rosched::mpi::CostModel linear = rosched::mpi::CostModel::linear(1e-6, 1e-10);
  for (double bytes : {4.0, 1024.0, 65536.0, 1048576.0}) {
    int best = 1;
    double best_cost = 1e300;
    for (int n = 1; n <= std::max(1, std::min(p - 1, 64)); ++n) {
      int k = 0;
      for (long long reach = 1; reach < p; reach *= n + 1) ++k;
      const double cost = k * (1e-6 + n * 1e-10 * bytes);
      if (cost < best_cost) best = n, best_cost = cost;
    }
    expect(rosched::mpi::nway_ports_for(linear, p, bytes) == best,
           "nway cost rule, linear model, " + std::to_string(bytes) + " B: n=" + std::to_string(best));
  }
  expect(rosched::mpi::nway_ports_for(linear, p, 4) == std::max(1, std::min(p - 1, 64)),
         "nway cost rule: 4 B in one round");
  // A measured model that is flat up to 4 KiB and steep above (a backbone that every rank's
  // traffic shares): n vectors of 2 KiB from every rank cost what one message of n x 2 KiB does,
  // so at p = 1,152 the rule takes n = 2 (7 rounds of 4 KiB: 14.7 us), not the n = 33 (2 rounds,
  // 67.5 KiB each: 120 us) that extrapolating from one 2 KiB message along its flat segment picks.
  // No per-message cost, crowding 1 and fanout 2: the linear model's figures.
  const rosched::mpi::CostModel shared =
      measured_model({2e-6, 2.1e-6, 6.09e-6, 14.06e-6, 30e-6, 55e-6, 110e-6, 900e-6}, 0, 1, 2);
  expect(rosched::mpi::nway_ports_for(shared, 1152, 2048) == 2,
         "nway cost rule reads the model at n m bytes: n=" +
             std::to_string(rosched::mpi::nway_ports_for(shared, 1152, 2048)));
  // The same model where each of a rank's messages has a path of its own (fanout 1: SimGrid's
  // loopback within a node): n vectors cost one's time, so the fewest rounds with the fewest
  // ports, 2 rounds of n = 33 (34^2 >= 1,152 > 33^2).
  rosched::mpi::CostModel own_paths = shared;
  own_paths.fanout = 1;
  expect(rosched::mpi::nway_ports_for(own_paths, 1152, 2048) == 33,
         "nway cost rule, messages on paths of their own: n=" +
             std::to_string(rosched::mpi::nway_ports_for(own_paths, 1152, 2048)));
  // Half shared: n m bytes at half their time still cost more than 5 rounds more of 2 KiB.
  own_paths.fanout = 1.5;
  expect(rosched::mpi::nway_ports_for(own_paths, 1152, 2048) == 2,
         "nway cost rule, half-shared paths: n=" +
             std::to_string(rosched::mpi::nway_ports_for(own_paths, 1152, 2048)));
  // Overheads per message make many ports dear: alpha = 4 us, 0.5 us per further message, p = 64,
  // 4 B: n = 63 (one round, 35 us) without them the best, with them n = 7 (2 rounds of 7 us).
  rosched::mpi::CostModel overheads = rosched::mpi::CostModel::linear(4e-6, 1e-12);
  expect(rosched::mpi::nway_ports_for(overheads, 64, 4) == 63, "nway cost rule without overheads");
  overheads.per_message = 0.5e-6;
  expect(rosched::mpi::nway_ports_for(overheads, 64, 4) == 7,
         "nway cost rule counts per-message overheads: n=" +
             std::to_string(rosched::mpi::nway_ports_for(overheads, 64, 4)));
  test_knomial_rule(shared);
  test_allgather_rule(shared);
  test_streamed_allgather_rule(shared);
  test_lane_form();
  test_lane_reduce_form();
  test_gather_blocks();
  const char* env = std::getenv("ROSCHED_NWAY_N");
  int ports = 0;
  const int rc = Rosched_Nway_ports(MPI_COMM_WORLD, 4, &ports);
  int range[2] = {-ports, ports}, all[2] = {0, 0};
  MPI_Allreduce(range, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  expect(rc == MPI_SUCCESS && -all[0] == all[1], "nway ports the same on every rank");
  if (env) {
    expect(ports == std::atoi(env), "ROSCHED_NWAY_N is used: got n=" + std::to_string(ports));
  } else {
    expect(ports >= 1 && ports <= std::max(1, std::min(p - 1, 64)),
           "nway ports from the measured model in range: n=" + std::to_string(ports));
  }
  test_ports_to_run(env != nullptr);
  std::vector<int> x(5, rank), r(5), nat(5);
  MPI_Allreduce(x.data(), nat.data(), 5, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  expect(Rosched_Allreduce_nway(x.data(), r.data(), 5, MPI_INT, MPI_SUM, MPI_COMM_WORLD) ==
                 MPI_SUCCESS && r == nat,
         "nway with the default n and rule");
}

void test_nway_errors() {
  MPI_Comm comm = errors_return_comm();
  int buf[4] = {1, 2, 3, 4};
  int cls = 0;
  MPI_Op op;
  MPI_Op_create(xor_ints, 0, &op);  // declared non-commutative
  MPI_Error_class(Rosched_Allreduce_nway(buf, buf + 2, 2, MPI_INT, op, comm), &cls);
  expect(cls == MPI_ERR_OP, "nway non-commutative op gives MPI_ERR_OP");
  Rosched_Request req = ROSCHED_REQUEST_NULL;
  MPI_Error_class(Rosched_Iallreduce_nway(buf, buf + 2, 2, MPI_INT, op, comm, &req), &cls);
  expect(cls == MPI_ERR_OP && req == ROSCHED_REQUEST_NULL, "nway split non-commutative op gives MPI_ERR_OP");
  MPI_Op_free(&op);
  MPI_Error_class(Rosched_Allreduce_nway(buf, buf + 2, -1, MPI_INT, MPI_SUM, comm), &cls);
  expect(cls == MPI_ERR_COUNT, "nway negative count gives MPI_ERR_COUNT");
  MPI_Error_class(Rosched_Allreduce_nway(buf, buf + 2, 2, MPI_DATATYPE_NULL, MPI_SUM, comm), &cls);
  expect(cls == MPI_ERR_TYPE, "nway MPI_DATATYPE_NULL gives MPI_ERR_TYPE");
  // Not tied to a communicator: MPI_COMM_WORLD's handler.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (int bad : {-1, 65}) {
    MPI_Error_class(Rosched_Set_nway(bad, nullptr), &cls);
    expect(cls == MPI_ERR_ARG, "Rosched_Set_nway n=" + std::to_string(bad) + " gives MPI_ERR_ARG");
  }
  MPI_Error_class(Rosched_Set_nway(2, "ring"), &cls);
  expect(cls == MPI_ERR_ARG, "Rosched_Set_nway rule ring gives MPI_ERR_ARG");
  MPI_Error_class(Rosched_Wait(nullptr), &cls);
  expect(cls == MPI_ERR_REQUEST, "Rosched_Wait(NULL) gives MPI_ERR_REQUEST");
  MPI_Error_class(Rosched_Test(&req, nullptr), &cls);
  expect(cls == MPI_ERR_ARG, "Rosched_Test without flag gives MPI_ERR_ARG");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  Rosched_Set_nway(0, nullptr);
  if (p > 1) {  // debug mode: a count mismatch is an error on every rank, not a hang
    Rosched_Set_debug(1);
    MPI_Error_class(Rosched_Allreduce_nway(buf, buf + 2, rank == 0 ? 1 : 2, MPI_INT, MPI_SUM, comm), &cls);
    expect(cls == MPI_ERR_COUNT, "debug: mismatched nway count gives MPI_ERR_COUNT");
    Rosched_Set_debug(0);
  }
  MPI_Comm_free(&comm);
}

}  // namespace

void test_nway_allreduce(bool errors) {
  test_every_n_and_rule();
  test_random_cases();
  test_derived_datatype();
  test_split_phase();
  test_settings_and_rule();
  if (errors) test_nway_errors();
}

}  // namespace rosched_mpi_test
