// How Rosched_Bcast_kary_tree runs (bcast_kary_tree.cc): its degree, block count and window,
// from the communicator's cost model.
#ifndef ROSCHED_MPI_EXEC_KARY_TREE_PLAN_H_
#define ROSCHED_MPI_EXEC_KARY_TREE_PLAN_H_

#include <cstdint>

#include "mpi_exec/cost_model.h"

namespace rosched::mpi {

struct KaryTreePlan {
  int degree;      // children per interior rank
  std::int64_t n;  // blocks
  int window;      // rounds in flight (sched/kary/kary_tree_schedule.h counts k per block)
  bool one_block() const { return n <= 1; }
};

// The degree: where all ranks sending at once makes each message crowding times slower than
// two ranks alone (a backbone narrower than the links: cost_model.h), a flow gets about
// 1 / crowding of a rank's link, so floor(crowding) sends at once cost a rank no more than one;
// at least 2, at most 64. ROSCHED_KARY_DEGREE sets it.
//
// The block size: the parts of stream_parts (cost_model.h) with lead = the tree's depth and
// shared = max(1, degree / crowding): the first block crosses the depth levels at a message's
// full time, the others follow one stream step apart, an interior rank's degree sends sharing
// its link where they are more than the crowding. ROSCHED_KARY_F = F sets blocks of
// F sqrt(bytes / ceil(log2 p)) bytes instead (block_count.h). Blocks are whole elements:
// n <= max(1, max_blocks).
//
// The window: kStreamInFlight (cost_model.h) blocks per edge, degree * kStreamInFlight rounds.
// ROSCHED_WINDOW sets it.
KaryTreePlan kary_tree_plan(const CostModel& model, std::int64_t p, double bytes,
                            std::int64_t max_blocks);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_KARY_TREE_PLAN_H_
