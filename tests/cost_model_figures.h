// Every figure of a cost model (mpi_exec/cost_model.h) in one list, written out here apart from
// mpi_exec/lanes_model.cc's own walk over them: the tests' reference for median_model and for
// the model the lanes share being the same everywhere.
#ifndef ROSCHED_TESTS_COST_MODEL_FIGURES_H_
#define ROSCHED_TESTS_COST_MODEL_FIGURES_H_

#include <vector>

#include "mpi_exec/cost_model.h"

namespace rosched::mpi {

inline std::vector<double> all_figures(const CostModel& m) {
  std::vector<double> f(m.seconds.begin(), m.seconds.end());
  f.insert(f.end(), {m.per_message, m.sync_extra, m.crowding, m.fanout});
  f.insert(f.end(), m.stream.begin(), m.stream.end());
  f.insert(f.end(), m.burst.begin(), m.burst.end());
  return f;
}

}  // namespace rosched::mpi

#endif  // ROSCHED_TESTS_COST_MODEL_FIGURES_H_
