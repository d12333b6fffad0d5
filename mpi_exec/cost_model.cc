#include "mpi_exec/cost_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"
#include "sched/round.h"

namespace rosched::mpi {
namespace {

constexpr int kSmallBytes = 8;
constexpr int kLargeBytes = 256 << 10;
constexpr int kSmallTrips = 10, kLargeTrips = 3;

int model_keyval = MPI_KEYVAL_INVALID;

int free_model(MPI_Comm, int, void* attribute, void*) {
  delete static_cast<CostModel*>(attribute);
  return MPI_SUCCESS;
}

// Half the shortest of `trips` round trips of `bytes` between `me` and `other` (both call it;
// the one with the lower rank starts each trip).
double half_round_trip(MPI_Comm c, int me, int other, std::vector<char>& buffer, int bytes,
                       int trips) {
  double best = 1e30;
  for (int t = 0; t < trips; ++t) {
    const double start = MPI_Wtime();
    if (me < other) {
      check(MPI_Send(buffer.data(), bytes, MPI_BYTE, other, tag::kCostModel, c), "MPI_Send");
      check(MPI_Recv(buffer.data(), bytes, MPI_BYTE, other, tag::kCostModel, c,
                     MPI_STATUS_IGNORE),
            "MPI_Recv");
    } else {
      check(MPI_Recv(buffer.data(), bytes, MPI_BYTE, other, tag::kCostModel, c,
                     MPI_STATUS_IGNORE),
            "MPI_Recv");
      check(MPI_Send(buffer.data(), bytes, MPI_BYTE, other, tag::kCostModel, c), "MPI_Send");
    }
    best = std::min(best, (MPI_Wtime() - start) / 2);
  }
  return best;
}

CostModel build(const CommInfo& comm) {
  const Settings& s = settings();
  if (s.alpha > 0 && s.beta > 0) return {s.alpha, s.beta, false};
  double figures[2] = {1e-6, 1e-10};  // what a p = 1 communicator reports
  const int other = comm.p / 2;
  if (comm.p > 1 && (comm.rank == 0 || comm.rank == other)) {
    const int peer = comm.rank == 0 ? other : 0;
    std::vector<char> buffer(kLargeBytes);
    half_round_trip(comm.c, comm.rank, peer, buffer, kSmallBytes, 2);  // warm-up
    const double small = half_round_trip(comm.c, comm.rank, peer, buffer, kSmallBytes, kSmallTrips);
    const double large = half_round_trip(comm.c, comm.rank, peer, buffer, kLargeBytes, kLargeTrips);
    // A clock too coarse to see the small message still leaves a positive latency.
    figures[0] = std::max(small, 1e-8);
    figures[1] = std::max((large - small) / (kLargeBytes - kSmallBytes), 1e-13);
  }
  if (comm.p > 1) check(MPI_Bcast(figures, 2, MPI_DOUBLE, 0, comm.c), "MPI_Bcast");
  return {figures[0], figures[1], true};
}

}  // namespace

const CostModel& cost_model(const CommInfo& comm) {
  if (model_keyval == MPI_KEYVAL_INVALID) {
    check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_model, &model_keyval, nullptr),
          "MPI_Comm_create_keyval");
  }
  void* attribute = nullptr;
  int found = 0;
  check(MPI_Comm_get_attr(comm.c, model_keyval, &attribute, &found), "MPI_Comm_get_attr");
  if (found) return *static_cast<const CostModel*>(attribute);
  auto* model = new CostModel(build(comm));
  const int rc = MPI_Comm_set_attr(comm.c, model_keyval, model);
  if (rc != MPI_SUCCESS) delete model;
  check(rc, "MPI_Comm_set_attr");
  return *model;
}

double pipeline_time(const CostModel& model, double bytes, std::int64_t p, std::int64_t n) {
  const double q = ceil_log2(p);
  return (static_cast<double>(n) - 1 + q) * (model.alpha + model.beta * bytes / n);
}

std::int64_t pipeline_blocks(const CostModel& model, double bytes, std::int64_t p,
                             std::int64_t max_blocks) {
  const double q = ceil_log2(p);
  const double best = std::sqrt(std::max(0.0, (q - 1) * model.beta * bytes / model.alpha));
  const std::int64_t cap = std::max<std::int64_t>(max_blocks, 1);
  const auto below = std::clamp<std::int64_t>(static_cast<std::int64_t>(best), 1, cap);
  const std::int64_t above = std::min(below + 1, cap);
  return pipeline_time(model, bytes, p, above) < pipeline_time(model, bytes, p, below) ? above
                                                                                       : below;
}

int window_rounds(const CostModel& model, double block_bytes) {
  if (settings().window > 0) return settings().window;
  const double cover = std::ceil(model.alpha / (model.beta * std::max(1.0, block_bytes)));
  return static_cast<int>(std::clamp(1 + cover, 2.0, 8.0));
}

void tell_choice(const CommInfo& comm, const char* name, const char* algorithm, std::int64_t n,
                 int window, double bytes) {
  if (!settings().verbose || comm.rank != 0) return;
  const CostModel& model = cost_model(comm);
  char line[320];
  std::snprintf(line, sizeof line,
                "rosched %s: p = %d, %.0f bytes: %s, %lld blocks, window %d (alpha %.3g s, "
                "beta %.3g s/B, %s)\n",
                name, comm.p, bytes, algorithm, static_cast<long long>(n), window, model.alpha,
                model.beta, model.measured ? "measured" : "ROSCHED_ALPHA/BETA");
  static std::map<std::string, std::string> last;  // per collective, under verbose only
  std::string& previous = last[name];
  if (previous == line) return;
  previous = line;
  std::fputs(line, stderr);
}

}  // namespace rosched::mpi
