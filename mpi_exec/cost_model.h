// The linear cost model the collectives decide by (Träff 2022, Sec. 3; Träff's lecture notes,
// "cost models"): one message of m bytes between two ranks takes alpha + beta m seconds. From it:
// the number of blocks of a pipelined broadcast, how many rounds it keeps in flight, and whether
// a pipelined schedule can win at all.
//
// Where the figures come from (decided once per communicator, at the first collective that
// needs them, identically on every rank):
//  - ROSCHED_ALPHA and ROSCHED_BETA (seconds, seconds per byte), if both are set and valid;
//  - else measured: ping-pongs between rank 0 and rank p / 2 (on a cluster of multicore
//    nodes usually two nodes apart, as most partners of a circulant schedule are), 8 bytes for
//    alpha and 256 KiB for beta, the minimum over a few repetitions; rank 0 broadcasts the
//    result so that every rank computes the same block counts. It costs about 20 small and 6
//    large messages, once, and is cached on the communicator's private duplicate.
#ifndef ROSCHED_MPI_EXEC_COST_MODEL_H_
#define ROSCHED_MPI_EXEC_COST_MODEL_H_

#include <cstdint>

#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

struct CostModel {
  double alpha = 0;  // seconds per message
  double beta = 0;   // seconds per byte
  bool measured = false;
};

// The model of the communicator; collective over it the first time (then a cached lookup).
const CostModel& cost_model(const CommInfo& comm);

// Blocks n of a broadcast of `bytes` over a schedule of n - 1 + q rounds, q = ceil(log2 p):
// T(n) = (n - 1 + q)(alpha + beta bytes / n) is least at n = sqrt((q - 1) beta bytes / alpha)
// (Träff 2022, Theorem 2). Rounded to the better neighbour, clamped to [1, max(1, max_blocks)]
// (max_blocks: whole elements, no element is split).
std::int64_t pipeline_blocks(const CostModel& model, double bytes, std::int64_t p,
                             std::int64_t max_blocks);

// The predicted time of that broadcast with n blocks, seconds.
double pipeline_time(const CostModel& model, double bytes, std::int64_t p, std::int64_t n);

// Rounds kept in flight by a pipelined walk with blocks of `block_bytes`: enough to cover one
// latency with transfers, 1 + ceil(alpha / (beta block_bytes)), within [2, 8]; ROSCHED_WINDOW
// overrides (>= 1; 1 is one round at a time).
int window_rounds(const CostModel& model, double block_bytes);

// With ROSCHED_VERBOSE set, rank 0 prints to stderr what collective `name` chose for a message
// of `bytes`: the algorithm, its blocks n and window (0: not pipelined) and the model's figures,
// each time the choice differs from the previous one printed for `name`.
void tell_choice(const CommInfo& comm, const char* name, const char* algorithm, std::int64_t n,
                 int window, double bytes);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_COST_MODEL_H_
