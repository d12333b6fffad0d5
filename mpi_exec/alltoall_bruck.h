// The walk of a Bruck all-to-all plan over MPI (sched/bruck/: the plan the verifier checks, the
// engine the simulator runs byte by byte), the linear pairwise exchange, and the rule that picks
// one of them. Internal to Rosched_Alltoall and Rosched_Alltoallv (mpi_exec/alltoall.cc,
// alltoallv.cc).
#ifndef ROSCHED_MPI_EXEC_ALLTOALL_BRUCK_H_
#define ROSCHED_MPI_EXEC_ALLTOALL_BRUCK_H_

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>

#include "mpi_exec/cost_model.h"
#include "mpi_exec/mpi_call.h"
#include "sched/bruck/bruck_engine.h"

namespace rosched::mpi {

// What runs: a Bruck variant, or the linear pairwise exchange (P - 1 steps, rank r sends to
// r + k and receives from r - k at step k).
struct AlltoallAlgorithm {
  std::optional<BruckVariant> bruck;  // empty: linear
  std::string name() const { return bruck ? bruck_variant_name(*bruck) : "linear"; }
};

// The variant forced by `name` (a Bruck variant name or "linear"); nullopt for null, "" or
// "auto". Throws Error(MPI_ERR_ARG) for an unknown name or the rejected printed variant, and for
// a uniform-only variant when `nonuniform`.
std::optional<AlltoallAlgorithm> forced_algorithm(const char* name, bool nonuniform,
                                                  const char* source);

// The cost rule, with T(m) the communicator's time for one message of m bytes (cost_model.h)
// and c_t the blocks of step t (radix 2):
//   uniform, n bytes per block: zero-rotation Bruck, sum_t T(n c_t), against linear
//     (P - 1) T(n);
//   non-uniform, N the largest block, S the most bytes any rank sends: padded sum_t T(N c_t)
//     (one more allreduce, which every choice needs), two-phase sum_t T(8 c_t) + T(c_t S /
//     (P - 1)) (8-byte sizes; blocks of average size), linear (P - 1) T(S / (P - 1)). With
//     T(m) = alpha + beta m, padded beats two-phase iff beta H (N - 8 - S / (P - 1)) < K alpha
//     (H = sum c_t, K steps): Fan et al. 2022, eq. 3, (N - 8)(P + 1) beta < 4 alpha, is this
//     with their H = K (P + 1) / 2, 4-byte sizes and the average block left out.
// Every input is the same on every rank, so every rank chooses the same.
AlltoallAlgorithm choose_uniform(const CostModel& model, std::int64_t p, double block_bytes);
AlltoallAlgorithm choose_nonuniform(const CostModel& model, std::int64_t p, double largest,
                                    double heaviest_rank);

// Whether a Bruck variant can be faster than the linear exchange over p ranks at all, by the
// same times: padded Bruck of one byte per block, sum_t T(c_t), strictly less than linear
// (P - 1) T(1). One byte is where its fewer messages count most: each step carries at least one
// block and H = sum c_t >= P - 1 blocks move in all, so larger blocks add at least as much to its
// time as to the linear one's (as far as T grows at least linearly beyond a message's fixed
// cost), and two-phase Bruck pays the padded steps' messages twice. False for p <= 3 (as many
// steps as linear exchanges). Needs only p and the model, the same on every rank.
bool bruck_can_pay(const CostModel& model, std::int64_t p);

// Runs the engine's steps over c: per step (two-phase: the sizes first, MPI_INT64_T), one
// MPI_Sendrecv of the packed blocks, or (zero copy) of derived datatypes over the blocks in
// place. Throws Error(MPI_ERR_TRUNCATE) after the last step if a block arrived with a size other
// than its receive count.
void run_bruck(BruckEngine& engine, const CommInfo& comm);

// The linear pairwise exchange over the same blocks (sizes from the caller; every rank checks
// what it receives against its own counts through MPI's truncation rule).
void run_linear(const BruckBlocks& blocks, const CommInfo& comm);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ALLTOALL_BRUCK_H_
