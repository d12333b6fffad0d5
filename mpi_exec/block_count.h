// How many blocks a message is split into: the one block-size rule of every pipelined
// collective here (the broadcasts, the two-tree reductions, Rosched_Allgatherv).
#ifndef ROSCHED_MPI_EXEC_BLOCK_COUNT_H_
#define ROSCHED_MPI_EXEC_BLOCK_COUNT_H_

#include <cstdint>

namespace rosched::mpi {

// Träff 2022, Sec. 3.1: blocks of about F * sqrt(m / ceil(log2 p)) bytes for a message of m
// bytes in all, F a constant chosen by measurement. The number of blocks is then
// m / (F sqrt(m / q)) = sqrt(m q) / F with q = ceil(log2 p), which is the rule Sec. 3.2 of the
// same paper states for the irregular all-gather (n = sqrt(m q) / G), so both use this function
// with their own factor. It balances the n - 1 + q rounds against the block size under a
// linear cost alpha + beta m (Träff 2022, Theorem 2; the optimum has F = sqrt(alpha / beta)).
//
// Returns: ceil(m / max(1, factor * sqrt(m / max(1, q)))) clamped to [1, max(1, max_blocks)];
// max_blocks is the largest number of whole elements one rank splits, so no element is split.
// Preconditions: bytes >= 0, p >= 1, factor > 0.
std::int64_t block_count(double bytes, std::int64_t p, double factor, std::int64_t max_blocks);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_BLOCK_COUNT_H_
