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
};

// Blocks in flight on each edge of the tree: an interior rank's window is this many blocks to
// each of its k children, a leaf posts this many receives ahead. Measured in SMPI (`flat288`:
// 288 ranks sharing a 500 GB/s backbone, 1 MiB in 128 blocks, degree 5): 804 / 764 / 732 / 722 /
// 721 / 724 us with 3 / 4 / 6 / 8 / 10 / 12 blocks per edge; 1,163 us with 1.
inline constexpr int kTreeBlocksInFlight = 8;

// The degree: where all ranks sending at once makes each message crowding times slower than
// two ranks alone (a backbone narrower than the links: cost_model.h), a flow gets about
// 1 / crowding of a rank's link, so floor(crowding) sends at once cost a rank no more than one;
// at least 2, at most 64. ROSCHED_KARY_DEGREE sets it.
//
// The block size: the streamed size s (CostModel::stream, or the whole message in one block)
// with the least predicted time depth time(s) + (ceil(bytes / s) - 1) stream(s) max(1, degree /
// crowding): the first block crosses the depth levels at a message's full time, the others
// follow one stream step apart, an interior rank's degree sends sharing its link where they are
// more than the crowding. Where a transport moves some block sizes faster per byte than larger
// ones (SimGrid SMPI's calibrated model: blocks of 5,776-9,375 B at 1.09 of the link's
// bandwidth, of 15,424-65,471 B at 0.70), the stream figures show it. ROSCHED_KARY_F = F sets
// blocks of F sqrt(bytes / ceil(log2 p)) bytes instead (block_count.h). Blocks are whole
// elements: n <= max(1, max_blocks).
//
// The window: kTreeBlocksInFlight blocks per edge, degree * kTreeBlocksInFlight rounds.
// ROSCHED_WINDOW sets it.
KaryTreePlan kary_tree_plan(const CostModel& model, std::int64_t p, double bytes,
                            std::int64_t max_blocks);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_KARY_TREE_PLAN_H_
