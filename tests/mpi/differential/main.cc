// differential_mpi_test: Rosched_* collectives against the MPI library's own collectives on
// random arguments, every delivered byte compared (cases.h). Run under mpirun:
//
//   differential_mpi_test [--verbose] [--big] [--lb-reductions] SEED FIRST NCASES [KIND]
//
// runs cases FIRST .. FIRST + NCASES - 1 of SEED, each on one of five communicators (the world,
// a duplicate, odd and even ranks split with their order reversed, the world reversed, a
// duplicate made and freed for the case). A case is determined by SEED, its number, p and the
// ROSCHED_* environment, so a FAIL line's case can be rerun alone (FIRST = its number,
// NCASES = 1). Exit status: 0 every case agreed, 1 some case differed, 2 bad usage.
#include <mpi.h>

#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "tests/mpi/differential/cases.h"

namespace rosched::difftest {
namespace {

const char kUsage[] =
    "usage: differential_mpi_test [--verbose] [--big] [--lb-reductions] SEED FIRST NCASES "
    "[KIND]\n"
    "  Runs cases FIRST .. FIRST + NCASES - 1 of SEED (a case is the same for the same seed,\n"
    "  number, p and ROSCHED_* environment), each a Rosched_* collective against the MPI\n"
    "  library's one, and prints a FAIL line per rank for a case that differs.\n"
    "  KIND: one kind only (a name or its number): bcast allgather allgatherv allreduce reduce\n"
    "        reduce_scatter_block reduce_scatter alltoall alltoallv allmerge\n"
    "  --verbose        print every case before its call, and \"ok\" after it\n"
    "  --big            40% of the counts huge / 2 .. 2 huge (huge: 100,000 elements or less)\n"
    "  --lb-reductions  40% of the reductions on hindexed({1,1},{-8,4},INT) (run it with\n"
    "                   ROSCHED_ALLREDUCE=rosched: Open MPI 4.1.4's own reductions of types\n"
    "                   with lb != 0 write outside the buffer)\n"
    "Exit status: 0 every case agreed, 1 some case differed, 2 bad usage.\n";

struct Arguments {
  uint64_t seed = 0;
  long first = 0, cases = 0;
  int kind = -1;  // every kind
  Options options;
};

bool parse_number(const char* text, long long max, long long* value) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < 0 || v > max) return false;
  *value = v;
  return true;
}

enum class Parsed { kRun, kHelp, kBadUsage };

// The arguments into *args; for help or bad usage, the text to print into *message.
Parsed parse(int argc, char** argv, Arguments* args, std::string* message) {
  const char* positional[4] = {};
  int n = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      *message = kUsage;
      return Parsed::kHelp;
    } else if (a == "--verbose") {
      args->options.verbose = true;
    } else if (a == "--big") {
      args->options.big_counts = true;
    } else if (a == "--lb-reductions") {
      args->options.reductions.mostly_lower_bound = true;
    } else if (a.size() > 1 && a[0] == '-') {
      *message = "unknown option " + a + "\n" + kUsage;
      return Parsed::kBadUsage;
    } else if (n == 4) {
      *message = "too many arguments\n" + std::string(kUsage);
      return Parsed::kBadUsage;
    } else {
      positional[n++] = argv[i];
    }
  }
  long long seed = 0, first = 0, cases = 0;
  if (n < 3 || !parse_number(positional[0], INT64_MAX, &seed) ||
      !parse_number(positional[1], INT32_MAX, &first) ||
      !parse_number(positional[2], INT32_MAX, &cases)) {
    *message = "SEED, FIRST and NCASES must be numbers >= 0\n" + std::string(kUsage);
    return Parsed::kBadUsage;
  }
  args->seed = static_cast<uint64_t>(seed);
  args->first = first;
  args->cases = cases;
  if (n == 4) {
    long long number = -1;
    for (int k = 0; k < kKindCount; ++k) {
      if (std::strcmp(positional[3], kKinds[k].name) == 0) number = k;
    }
    if (number < 0 && !parse_number(positional[3], kKindCount - 1, &number)) {
      *message = std::string("unknown KIND ") + positional[3] + "\n" + kUsage;
      return Parsed::kBadUsage;
    }
    args->kind = static_cast<int>(number);
  }
  const char* forced = std::getenv("ROSCHED_ALLREDUCE");
  args->options.reductions.lower_bound_types = forced && std::strcmp(forced, "rosched") == 0;
  return Parsed::kRun;
}

enum CommKind { kWorld, kWorldDup, kSplitOddEven, kReversed, kFreshDup, kCommKinds };
const char* const kCommNames[kCommKinds] = {"WORLD", "dup(WORLD)", "split(odd/even, reversed keys)",
                                            "split(one color, reversed keys)",
                                            "fresh dup (freed after)"};

struct Run {
  Arguments args;
  int world_rank = 0, world_size = 1;
  MPI_Comm comms[kCommKinds] = {};
  long cases = 0, failed = 0;
  std::map<std::string, long> per_kind;
};

// Why this rank's outcome is a failure, or "" where it is not.
std::string judge(const Outcome& o) {
  std::string why;
  if (o.expect_rosched_class) {
    if (o.rosched_class != o.expected_class) {
      appendf(why, "expected rosched error class %d, got %d; ", o.expected_class, o.rosched_class);
    }
  } else if (o.rosched_class != o.reference_class) {
    appendf(why, "rosched rc class %d vs MPI rc class %d; ", o.rosched_class, o.reference_class);
  }
  why += o.differences;
  if (unknown_type_calls() > 0) {
    appendf(why, "user op got unknown datatype %d times; ", unknown_type_calls());
  }
  return why;
}

void run_case(Run& run, long index) {
  const Arguments& args = run.args;
  // Three streams a case: its communicator and kind (every rank), what the ranks of that
  // communicator share (split: one stream a color), each rank's own.
  Rng world_stream(args.seed, index, 999);
  const int draw = world_stream.uniform(0, 99);
  const CommKind comm_kind = draw < 45   ? kWorld
                             : draw < 60 ? kWorldDup
                             : draw < 80 ? kSplitOddEven
                             : draw < 92 ? kReversed
                                         : kFreshDup;
  const int kind = args.kind >= 0 ? args.kind : world_stream.uniform(0, kKindCount - 1);
  MPI_Comm comm = run.comms[comm_kind];
  if (comm_kind == kFreshDup) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  }
  const int color = comm_kind == kSplitOddEven ? run.world_rank % 2 : 0;
  Rng shared(args.seed, index, 1000 + color), local(args.seed, index, 5000 + run.world_rank);
  Case c{index, comm, kCommNames[comm_kind], 1, 0, &args.options, &shared, &local, ""};
  MPI_Comm_size(comm, &c.p);
  MPI_Comm_rank(comm, &c.rank);
  reset_unknown_type_calls();
  const Outcome o = kKinds[kind].run(c);
  const std::string why = judge(o);
  int bad_here = !why.empty(), bad_anywhere = 0;
  MPI_Allreduce(&bad_here, &bad_anywhere, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  ++run.cases;
  ++run.per_kind[kKinds[kind].name];
  if (bad_anywhere) {
    ++run.failed;
    std::fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int q = 0; q < run.world_size; ++q) {
      if (q == run.world_rank) {
        std::printf("FAIL case=%ld kind=%s seed=%" PRIu64
                    " p_world=%d world_rank=%d comm=%s p=%d rank=%d: %s | %s\n",
                    index, kKinds[kind].name, args.seed, run.world_size, run.world_rank,
                    c.comm_name, c.p, c.rank, c.description.c_str(),
                    bad_here ? why.c_str() : "(ok here)");
        std::fflush(stdout);
      }
      MPI_Barrier(MPI_COMM_WORLD);
    }
  } else if (args.options.verbose && run.world_rank == 0) {
    std::printf("ok case=%ld comm=%s p=%d: %s\n", index, c.comm_name, c.p, c.description.c_str());
    std::fflush(stdout);
  }
  if (comm_kind == kFreshDup) MPI_Comm_free(&comm);
}

int run_main(int argc, char** argv) {
  Run run;
  MPI_Comm_rank(MPI_COMM_WORLD, &run.world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &run.world_size);
  std::string message;
  const Parsed parsed = parse(argc, argv, &run.args, &message);
  if (parsed != Parsed::kRun) {
    const bool help = parsed == Parsed::kHelp;
    if (run.world_rank == 0) std::fputs(message.c_str(), help ? stdout : stderr);
    return help ? 0 : 2;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  create_types();
  create_ops();
  run.comms[kWorld] = MPI_COMM_WORLD;
  MPI_Comm_dup(MPI_COMM_WORLD, &run.comms[kWorldDup]);
  MPI_Comm_split(MPI_COMM_WORLD, run.world_rank % 2, -run.world_rank, &run.comms[kSplitOddEven]);
  MPI_Comm_split(MPI_COMM_WORLD, 0, run.world_size - run.world_rank, &run.comms[kReversed]);
  for (int k = kWorldDup; k <= kReversed; ++k) {
    MPI_Comm_set_errhandler(run.comms[k], MPI_ERRORS_RETURN);
  }
  for (long i = run.args.first; i < run.args.first + run.args.cases; ++i) run_case(run, i);
  if (run.world_rank == 0) {
    std::printf("DONE seed=%" PRIu64 " p=%d cases=%ld fail=%ld :", run.args.seed, run.world_size,
                run.cases, run.failed);
    for (const auto& [kind, count] : run.per_kind) std::printf(" %s=%ld", kind.c_str(), count);
    std::printf("\ndifferential seed=%" PRIu64 " p=%d: %ld passed, %ld failed\n", run.args.seed,
                run.world_size, run.cases - run.failed, run.failed);
  }
  for (int k = kWorldDup; k <= kReversed; ++k) MPI_Comm_free(&run.comms[k]);
  return run.failed == 0 ? 0 : 1;
}

}  // namespace
}  // namespace rosched::difftest

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int status = rosched::difftest::run_main(argc, argv);
  MPI_Finalize();
  return status;
}
