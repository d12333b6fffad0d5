// One cost model for all lanes of a node layout that send at once (cost_model.h: lanes_model):
// every lane measures its own, all at once, and takes the median of all lanes' figures.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/settings.h"

namespace rosched::mpi {
namespace {

constexpr int kFigures =
    CostModel::kPoints + 4 + CostModel::kStreamPoints + CostModel::kBurstPoints;
using Figures = std::array<double, kFigures>;

// Calls f on each measured figure of the model, always in the same order.
template <typename Model, typename F>
void each_figure(Model& model, F&& f) {
  for (auto& t : model.seconds) f(t);
  f(model.per_message);
  f(model.sync_extra);
  f(model.crowding);
  f(model.fanout);
  for (auto& t : model.stream) f(t);
  for (auto& t : model.burst) f(t);
}

Figures figures_of(const CostModel& model) {
  Figures figures{};
  int i = 0;
  each_figure(model, [&](double t) { figures[static_cast<std::size_t>(i++)] = t; });
  return figures;
}

void set_figures(CostModel& model, const double* figures) {
  int i = 0;
  each_figure(model, [&](double& t) { t = figures[i++]; });
}

int free_lanes_model(MPI_Comm, int, void* attribute, void*) {
  delete static_cast<CostModel*>(attribute);
  return MPI_SUCCESS;
}
RecordKey lanes_key(free_lanes_model);

// With ROSCHED_VERBOSE, rank 0 of lane 0 on node 0: the spread of the lanes' own 1 MiB and
// 60 KiB times and of their 2 KiB burst figure, and the medians taken.
void tell_spread(const std::vector<CostModel>& models, const CostModel& median) {
  const auto range = [&](auto figure) {
    double low = figure(models.front()), high = low;
    for (const CostModel& m : models) {
      low = std::min(low, figure(m));
      high = std::max(high, figure(m));
    }
    char text[96];
    std::snprintf(text, sizeof text, "%.3g to %.3g s, median %.3g", low, high, figure(median));
    return std::string(text);
  };
  std::fprintf(stderr,
               "rosched lanes' model: %zu lanes measured at once; 1 MiB %s; 60 KiB %s; a further "
               "2 KiB of a burst %s\n",
               models.size(), range([](const CostModel& m) { return m.seconds.back(); }).c_str(),
               range([](const CostModel& m) { return m.seconds[kEagerPoint]; }).c_str(),
               range([](const CostModel& m) { return m.burst.back(); }).c_str());
}

}  // namespace

CostModel median_model(const std::vector<CostModel>& models) {
  CostModel median = models.at(0);
  std::vector<Figures> rows;
  for (const CostModel& m : models) rows.push_back(figures_of(m));
  std::vector<double> column(models.size());
  Figures result{};
  for (std::size_t i = 0; i < result.size(); ++i) {
    for (std::size_t m = 0; m < rows.size(); ++m) column[m] = rows[m][i];
    const auto middle = column.begin() + static_cast<std::ptrdiff_t>(column.size() / 2);
    std::nth_element(column.begin(), middle, column.end());
    result[i] = *middle;
  }
  set_figures(median, result.data());
  return median;
}

const CostModel& lanes_model(const CommInfo& lane, const CommInfo& node) {
  return duplicate_record(lane, lanes_key, &CommCache::lanes, [&] {
    const CostModel own = measure_lanes_model(lane, node);  // every lane at once, in step
    const Figures mine = figures_of(own);
    std::vector<double> all(static_cast<std::size_t>(kFigures) * node.p);
    check(
        PMPI_Allgather(mine.data(), kFigures, MPI_DOUBLE, all.data(), kFigures, MPI_DOUBLE, node.c),
        "MPI_Allgather (the lanes' cost models)");
    std::vector<CostModel> models(static_cast<std::size_t>(node.p), own);
    for (int k = 0; k < node.p; ++k) {
      set_figures(models[static_cast<std::size_t>(k)],
                  all.data() + static_cast<std::size_t>(k) * kFigures);
    }
    auto* shared = new CostModel(median_model(models));
    if (settings().verbose && lane.rank == 0 && node.rank == 0) tell_spread(models, *shared);
    return shared;
  });
}

}  // namespace rosched::mpi
