// bench: the collectives of mpi_exec against the MPI library's own, measured as Träff 2022 does
// (Sec. 3): per message size, the time of the slowest rank, minimum over the repetitions;
// schedule computation included. All chosen implementations run in the same job, interleaved.
// --measure span takes instead max(end) - min(start) over all ranks (minimum over the
// repetitions): it needs a global clock (MPI_WTIME_IS_GLOBAL, as under SimGrid SMPI) and does not
// depend on the order in which MPI_Barrier releases the ranks (see docs/simulation.md).
// --measure sync also removes the skew of the barrier from the span: after the barrier the ranks
// agree on an instant (the latest rank's clock plus a margin), each sleeps until it, and the
// time is max(end) - that instant. With a global clock every rank then starts at the same time
// (under SMPI to the nanosecond: nanosleep is simulated there), so small messages compare
// without the barrier's release pattern in them.
//
//   mpirun -np P bazel-bin/mpi_exec/bench --op bcast --impl native,circulant,twotree,hypercube
//                                         [--sizes 1,10,100] [--reps 35] [--batch K] [--check]
//
// --batch K times K calls back to back per repetition and divides by K: what a program that
// calls a small collective in a loop pays per call, without the barrier's noise of a single
// sub-microsecond call. --buffers reuse keeps each operation's buffers from call to call
// instead of making them for each (bench_buffers.h: on this machine a fresh buffer's page
// faults can cost a 1 MiB all-reduce 80x its own time).
//
// Implementations per operation: bcast native|circulant|twotree|hypercube (Bin Jia's)|node
// (node-aware: circulant between nodes, then within them)|auto (Rosched_Bcast: rosched's
// broadcast or MPI_Bcast, as the cost model and a timed first call decide), allgather and
// allgatherv native|circulant (flat)|node (node-aware where it applies)|nway (the n-port
// all-gather, n by --nway-n or its cost rule), allgatherv also
// largest (the largest block's broadcast, then Algorithm 9 for the rest), both also auto
// (Rosched_Allgather(v): node-aware or flat, for allgatherv also largest where one block is at
// least half of the data, or MPI_Allgather(v), whichever a timed first call found fastest),
// reduce native|binomial|twotree|circulant (Alg. 6 backwards)|kary (the k-ary tree broadcast
// backwards)|rsag (reduce-scatter + gather,
// circulant)|nport (the same on n ports)|node (node-aware, each phase's tree by the cost
// model)|auto (Rosched_Reduce: k-nomial, circulant or two trees by the cost
// model, or MPI_Reduce where that is faster), allreduce native|circulant (census)|twotree|node
// (node-aware)|rsag (reduce-scatter + all-gather, circulant)|auto (Rosched_Allreduce: the
// census, the reduce-scatter + all-gather or MPI_Allreduce)|nway (n-way
// dissemination, End et al. 2015; --nway-n and
// --nway-rule, default: the cost rule's n and circulant), reduce_scatter_block and
// reduce_scatter native|circulant|nport (the n-port reduce-scatter)|node (node-aware where it
// applies)|auto
// (Rosched_Reduce_scatter(_block); --sizes: the whole
// vector; reduce_scatter's blocks cut by --dist as allgatherv's), allmerge native (MPI_Allgatherv +
// std::sort)|alg0|alg1|alg2|auto (Lang 2025; auto: ROSCHED_ALLMERGE_AUTO; --sizes: elements per
// rank on average, --dist uniform|irregular|half; extra rows
// `allmerge moves-IMPL p bytes moves/(m p)`: the largest merge work of any rank per element of
// the result);
// --impl all (the default) takes every one, --impl both native and circulant, an item -NAME
// takes NAME out again (--impl all,-auto).
// Output (rank 0, stdout): TSV with header `op impl p bytes usec`, then for each non-native
// implementation a row `op ratio-IMPL p bytes IMPL/native`. --check verifies every result.
#include <mpi.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "mpi_exec/bench_buffers.h"
#include "mpi_exec/bench_ops.h"
#include "mpi_exec/bench_setup.h"
#include "mpi_exec/clock.h"
#include "mpi_exec/compute_charge.h"
#include "mpi_exec/payload.h"
#include "mpi_exec/rosched_mpi.h"
#include "sched/nway/nway_plan.h"

namespace po = boost::program_options;
using namespace rosched::mpi::bench;

namespace {

int p = 1, rank = 0;

// --measure sync: the ranks agree on the latest clock reading plus a margin longer than the
// MPI_Allreduce that agrees on it, and sleep until then (rosched::mpi::start_together). In
// simulation the wait costs no wall time. The first collectives on a communicator pay SMPI's
// set-up (2 ms at p = 256, 9 ms at 1,152), hence the long margin; a repetition in which a rank
// got there after the instant is run again with a margin 4 times longer. Ranks can still start
// a few microseconds apart when SMPI charges computation (smpi/host-speed): the real time of the
// code around the sleep; bench then says so once.
double sync_margin = 0.02;  // seconds
bool warned_spread = false;
// Returns whether this rank was late (the instant had passed when it got there).
bool start_together() {
  bool late = false;
  rosched::mpi::start_together(MPI_COMM_WORLD, sync_margin, &late);
  return late;
}

struct Options {
  std::string op = "bcast", impl = "all", sizes, dist = "irregular", measure = "slowest";
  int reps = 35;
  int warmup = 1;
  std::string rewarm = "every";
  int batch = 1;
  int nway_n = 0;
  std::string nway_rule = "circulant";
  std::string buffers = "fresh";
  bool check = false;
};

// 1, 2, 10, 20, 100, ... up to 10^7 (alternately times 2 and 5, as in Träff 2022, Sec. 3.1).
std::vector<long> default_sizes() {
  std::vector<long> out;
  for (long m = 1, i = 0; m <= 10000000; m *= (i++ % 2 == 0 ? 2 : 5)) out.push_back(m);
  return out;
}

std::vector<long> parse_sizes(const std::string& list) {
  std::vector<long> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty() || item.size() > 10 || item.find_first_not_of("0123456789") != std::string::npos ||
        std::stol(item) > 1000000000L) {
      throw std::invalid_argument("--sizes: bad item '" + item + "' in '" + list +
                                  "' (a whole number of MPI_INT from 0 to 10^9)");
    }
    out.push_back(std::stol(item));
  }
  return out;
}

int run(int argc, char** argv) {
  Options o;
  po::options_description desc("bench: the collectives of mpi_exec against the native MPI ones\n\nOptions");
  desc.add_options()("help,h", "print this help")(
      "op", po::value(&o.op)->default_value(o.op),
      "bcast, bcast_vector (m ints as vectors of five pairs with gaps), allgather, allgatherv, "
      "reduce, allreduce, reduce_scatter_block and reduce_scatter "
      "(m: the whole vector; reduce_scatter's blocks as --dist cuts allgatherv's), allmerge (m "
      "sorted MPI_INT per rank), "
      "alltoall (m MPI_INT per block) or alltoallv (blocks of at most m MPI_INT, --dist uniform, "
      "powerlaw or normal)")(
      "impl", po::value(&o.impl)->default_value(o.impl),
      "comma-separated implementations (native, circulant, twotree, hypercube, node, auto; "
      "bcast also kary, knomial, rsag; allreduce also knomial, rsag, nport; "
      "reduce_scatter(_block) also nport; "
      "allreduce, allgather and allgatherv also nway; reduce: native, binomial, twotree, "
      "circulant, kary, rsag, nport, node, auto; allmerge: "
      "native, alg0, alg1, alg2, auto; alltoall(v): basic, modified, zerorot, zerocopy, padded, "
      "twophase, linear), all, or both "
      "(native and circulant); -NAME takes one out again (all,-auto)")(
      "sizes", po::value(&o.sizes), "comma-separated message sizes in MPI_INT (default 1..10^7)")(
      "reps", po::value(&o.reps)->default_value(o.reps), "repetitions per size (minimum reported)")(
      "warmup", po::value(&o.warmup)->default_value(o.warmup),
      "untimed calls of each implementation before the first size, and of native and auto "
      "before every size (first-use set-up: the communicator's cost model, auto's trial, the "
      "MPI library's set-up of the algorithm it picks for the size)")(
      "rewarm", po::value(&o.rewarm)->default_value(o.rewarm),
      "the untimed calls of native before every size: every, or until-setup: until bench has "
      "seen MPI_COMM_WORLD set up, a first call (bench's first MPI_Barrier or MPI_Allreduce, or "
      "native's untimed call of a size, timed for this) taking over twice its repeat; for an "
      "MPI that sets a communicator up once (SimGrid SMPI), needs --measure span or sync. auto "
      "is warmed before every size either way (its trial)")(
      "batch", po::value(&o.batch)->default_value(o.batch),
      "calls back to back per repetition, time divided by it (small messages: a single call "
      "after a barrier is timed within the barrier's noise)")(
      "dist", po::value(&o.dist)->default_value(o.dist),
      "allgatherv and reduce_scatter counts: irregular (default), uniform, one (rank 0 holds 99%), "
      "half or rank0=F (rank 0 holds the share F, 0 < F < 1, the others the rest evenly); allmerge "
      "block sizes: uniform (default), irregular or half (rank 0 holds half); alltoallv sizes: "
      "uniform, powerlaw or normal")("check", po::bool_switch(&o.check),
                                     "verify the result of every repetition")(
      "buffers", po::value(&o.buffers)->default_value(o.buffers),
      "fresh (each call's buffers malloc'd for it, as every committed figure before 2026-12-01) "
      "or reuse (kept from call to call, as a program and the MPI libraries' benchmarks keep "
      "them); allmerge makes its data per call either way")(
      "nway-n", po::value(&o.nway_n)->default_value(0),
      "allreduce, allgather(v) nway (and their auto's trials): ports per round, 1..64 (0: the "
      "cost rules)")("nway-rule", po::value(&o.nway_rule)->default_value(o.nway_rule),
                     ("allreduce nway: last-round rule, " + rosched::nway_rule_listing()).c_str())(
      "measure", po::value(&o.measure)->default_value(o.measure),
      "slowest (the slowest rank's own time, as Träff 2022), span (max end - min start over "
      "ranks) or sync (span with every rank started at one agreed instant); span and sync need "
      "a global clock (MPI_WTIME_IS_GLOBAL, e.g. SimGrid SMPI)");
  po::variables_map vm;
  std::vector<long> sizes;
  std::vector<Impl> impls;
  Op op;
  try {
    // No positional arguments: a stray word is an error, not silently ignored.
    po::store(po::command_line_parser(argc, argv)
                  .options(desc)
                  .positional(po::positional_options_description())
                  .run(),
              vm);
    po::notify(vm);
    if (vm.count("help")) {
      if (rank == 0) std::cout << desc << "\nRun under mpirun; output is TSV on stdout.\n";
      return 0;
    }
    if (o.reps < 1) throw std::invalid_argument("--reps must be positive");
    if (o.warmup < 0 || o.warmup > 1000)
      throw std::invalid_argument("--warmup must be in 0..1000, not " + std::to_string(o.warmup));
    if (o.rewarm != "every" && o.rewarm != "until-setup")
      throw std::invalid_argument("--rewarm must be every or until-setup, not " + o.rewarm);
    if (o.rewarm == "until-setup" && o.measure == "slowest")
      throw std::invalid_argument("--rewarm until-setup needs --measure span or sync (a global "
                                  "clock: a first call against its repeat)");
    if (o.batch < 1 || o.batch > 1000000)
      throw std::invalid_argument("--batch must be in 1..1000000, not " + std::to_string(o.batch));
    if (o.nway_n < 0 || o.nway_n > 64)
      throw std::invalid_argument("--nway-n must be in 0..64, not " + std::to_string(o.nway_n));
    try {
      rosched::parse_nway_rule(o.nway_rule);
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument("--nway-rule must be " + rosched::nway_rule_listing() + ", not " +
                                  o.nway_rule);
    }
    if (o.measure != "slowest" && o.measure != "span" && o.measure != "sync")
      throw std::invalid_argument("--measure must be slowest, span or sync, not " + o.measure);
    if (o.measure == "sync" && !rosched::mpi::global_clock())
      throw std::invalid_argument("--measure sync needs a global clock (MPI_WTIME_IS_GLOBAL is "
                                  "not set: run it under SimGrid SMPI)");
    if (o.op == "allmerge" && vm["dist"].defaulted()) o.dist = "uniform";
    const bool dist_ok = o.op == "alltoallv" || o.dist == "irregular" || o.dist == "uniform" ||
                         (o.op == "allmerge" && o.dist == "half") ||
                         ((o.op == "allgatherv" || o.op == "reduce_scatter") &&
                          rank0_share(o.dist) > 0);
    if (!dist_ok) {
      const char* allowed = o.op == "allmerge"     ? "irregular, uniform or half"
                            : o.op == "allgatherv" || o.op == "reduce_scatter"
                                ? "irregular, uniform, one, half or rank0=F (0 < F < 1)"
                                                   : "irregular or uniform";
      throw std::invalid_argument(std::string("--dist must be ") + allowed + ", not " + o.dist);
    }
    sizes = o.sizes.empty() ? default_sizes() : parse_sizes(o.sizes);
    set_buffers(parse_buffers(o.buffers));
    op = make_op(o.op, o.dist);
    impls = parse_impls(o.impl, impls_of(o.op), o.op);
  } catch (const std::exception& e) {
    if (rank == 0) std::cerr << "bench: " << e.what() << " (see --help)\n";
    return 2;
  }
  Rosched_Set_nway(o.nway_n, o.nway_rule.c_str());
  if (rank == 0) std::printf("op\timpl\tp\tbytes\tusec\n");
  bool all_ok = true;
  // Progress on stderr (rank 0) at most every kProgressSeconds of real time, so that long sizes
  // are not silent, and where a size took that long, the real time of each implementation in
  // it (under SMPI, MPI_Wtime is the simulated clock: what a simulation costs is real time).
  constexpr double kProgressSeconds = 5;
  const auto real_now = [] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  };
  const double started = real_now();
  double last_report = started;
  // One measurement of impl at m: `calls` calls back to back after a barrier (and, for
  // --measure sync, an agreed instant), the time per call by the chosen measure, the same on
  // every rank; *wrong: how many ranks' checks failed (0 without check_it).
  const auto measure_call = [&](Impl impl, long m, int calls, bool check_it, int* wrong) {
    double seconds = 0;
    bool mine_ok = true;
    for (bool again = true; again;) {
      again = false;
      MPI_Barrier(MPI_COMM_WORLD);
      const bool late = o.measure == "sync" && start_together();
      const double t0 = MPI_Wtime();
      mine_ok = true;
      for (int k = 0; k < calls; ++k) mine_ok = op(impl, m, check_it) && mine_ok;
      const double t1 = MPI_Wtime();
      if (o.measure == "slowest") {
        const double local = (t1 - t0) / calls;
        MPI_Allreduce(&local, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        break;
      }
      // One MPI_MAX over {-start, end, start, late}: the span, the spread of the starts and
      // whether a rank missed the agreed instant.
      const double local[4] = {-t0, t1, t0, late ? 1.0 : 0.0};
      double global[4] = {0, 0, 0, 0};
      MPI_Allreduce(local, global, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      seconds = (global[0] + global[1]) / calls;
      const double spread = global[2] + global[0];
      if (global[3] > 0 && sync_margin < 1) {
        sync_margin *= 4, again = true;
      } else if (o.measure == "sync" && spread > 1e-8 && rank == 0 && !warned_spread) {
        warned_spread = true;
        std::fprintf(stderr, "bench: --measure sync: ranks started up to %.3g us apart (%s); "
                     "such times are spans\n", spread * 1e6,
                     global[3] > 0 ? "a rank missed the instant even with a 1 s margin"
                                   : "computation charged around the wait, or no global clock");
      }
    }
    const int mine_wrong = mine_ok ? 0 : 1;
    MPI_Allreduce(&mine_wrong, wrong, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return seconds;
  };
  // Warm-up, untimed: the first call of an implementation on a communicator sets it up (the
  // cost model's measurements), which no later call pays; so does the first call of an
  // algorithm that the library's collective or Rosched_* (auto) choose by the size: auto's
  // trial, an MPI library's set-up at an algorithm's first use (SMPI, Open MPI's selector,
  // 36 ranks on the paper's cluster: the first 4 KiB broadcast took 314 us, every later one
  // 14.7), so those two are warmed up at every size; native not after set-up was seen with
  // --rewarm until-setup (bench_setup.h), where its untimed call is measured to see it. Their
  // real time counts in the size's progress line. Returns native's untimed call's time, or 0.
  const bool until_setup = o.rewarm == "until-setup";
  bool setup_seen = until_setup && rosched::mpi::first_collectives_paid_setup();
  if (setup_seen && rank == 0) {
    std::fprintf(stderr, "bench: MPI_COMM_WORLD was set up in bench's first MPI_Barrier or "
                 "MPI_Allreduce; native is warmed up before the first size only\n");
  }
  const auto warm_up = [&](long m, bool first, std::vector<double>* real_seconds) {
    double native_seconds = 0;
    for (int k = 0; k < o.warmup; ++k) {
      for (Impl impl : impls) {
        if (!first && impl != kNative && impl != kAuto) continue;
        if (!first && impl == kNative && setup_seen) continue;
        const double impl_started = real_now();
        if (impl == kNative && until_setup && !setup_seen) {
          int wrong = 0;
          native_seconds = measure_call(impl, m, 1, false, &wrong);
        } else {
          MPI_Barrier(MPI_COMM_WORLD);
          op(impl, m, false);
        }
        (*real_seconds)[impl] += real_now() - impl_started;
      }
    }
    return native_seconds;
  };
  for (std::size_t size_index = 0; size_index < sizes.size(); ++size_index) {
    const long m = sizes[size_index];
    std::vector<double> best(kImplCount, 1e30);
    std::vector<double> real_seconds(kImplCount, 0);
    const double size_started = real_now();
    const double native_warm = warm_up(m, size_index == 0, &real_seconds);
    for (int rep = 0; rep < o.reps; ++rep) {
      if (rank == 0 && real_now() - last_report >= kProgressSeconds) {
        last_report = real_now();
        std::fprintf(stderr, "bench: size %zu of %zu (%ld B), repetition %d of %d, %.0f s\n",
                     size_index + 1, sizes.size(), m * 4, rep + 1, o.reps, last_report - started);
      }
      for (Impl impl : impls) {  // interleaved
        const double impl_started = real_now();
        int wrong = 0;
        const double seconds = measure_call(impl, m, o.batch, o.check, &wrong);
        if (wrong > 0 && rank == 0) {  // which one, so that a failure can be chased
          std::fprintf(stderr, "bench: --check: %s gave %d of %d ranks a wrong result at %ld B "
                       "(repetition %d)\n", kImplNames[impl], wrong, p, m * 4, rep + 1);
        }
        all_ok = all_ok && wrong == 0;
        best[impl] = std::min(best[impl], seconds);
        real_seconds[impl] += real_now() - impl_started;
      }
    }
    if (until_setup && !setup_seen && native_warm > 0 && best[kNative] < 1e30 &&
        rosched::mpi::paid_setup(native_warm, best[kNative])) {
      setup_seen = true;
      if (rank == 0) {
        std::fprintf(stderr, "bench: MPI_COMM_WORLD was set up in native's first call of %ld B "
                     "(%.1f us against %.1f); native is not warmed up again\n", m * 4,
                     native_warm * 1e6, best[kNative] * 1e6);
      }
    }
    if (rank == 0 && real_now() - size_started >= kProgressSeconds) {
      std::string each;
      for (Impl impl : impls) {
        each += std::string(each.empty() ? "" : ", ") + kImplNames[impl] + " " +
                std::to_string(static_cast<long>(std::lround(real_seconds[impl]))) + " s";
      }
      std::fprintf(stderr, "bench: size %ld B took %.0f s of real time (%s)\n", m * 4,
                   real_now() - size_started, each.c_str());
    }
    if (o.op == "allmerge") {  // the largest merge work of any rank
      MPI_Allreduce(MPI_IN_PLACE, allmerge_moves, kImplCount, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    }
    if (rank == 0) {
      for (Impl impl : impls) {
        std::printf("%s\t%s\t%d\t%ld\t%.2f\n", o.op.c_str(), kImplNames[impl], p, m * 4,
                    best[impl] * 1e6);
      }
      const bool with_native = impls.front() == kNative;
      for (std::size_t k = 1; with_native && k < impls.size(); ++k) {
        std::printf("%s\tratio-%s\t%d\t%ld\t%.3f\n", o.op.c_str(), kImplNames[impls[k]], p,
                    m * 4, best[impls[k]] / best[kNative]);
      }
      for (std::size_t k = 0; o.op == "allmerge" && k < impls.size(); ++k) {
        if (impls[k] == kNative) continue;  // merge work per element of the result, largest rank
        std::printf("%s\tmoves-%s\t%d\t%ld\t%.3f\n", o.op.c_str(), kImplNames[impls[k]], p,
                    m * 4, m == 0 ? 0.0 : static_cast<double>(allmerge_moves[impls[k]]) / (static_cast<double>(m) * p));
      }
      std::fflush(stdout);
    }
  }
  if (!all_ok) {
    if (rank == 0) std::fprintf(stderr, "bench: --check found wrong results\n");
    return 1;
  }
  if (rank == 0 && (std::fflush(stdout) != 0 || std::ferror(stdout))) {
    std::fprintf(stderr, "bench: cannot write the results to standard output\n");
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int status = run(argc, argv);
  rosched::mpi::bench::release_buffers();
  MPI_Finalize();
  return status;
}
