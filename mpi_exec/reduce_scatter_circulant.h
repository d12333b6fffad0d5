// The reduce-scatter over the circulant graph (reduce_scatter_circulant.cc): Träff 2022's
// regular all-gather (Alg. 7) run backwards, sched/circulant/reduce_scatter_schedule.h. The
// reduce-scatter of Rosched_Reduce_scatter(_block) and the first half of
// Rosched_Allreduce_scatter_gather (allreduce_scatter_gather.cc).
#ifndef ROSCHED_MPI_EXEC_REDUCE_SCATTER_CIRCULANT_H_
#define ROSCHED_MPI_EXEC_REDUCE_SCATTER_CIRCULANT_H_

#include <mpi.h>

#include <algorithm>
#include <cstdint>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {

// A vector of n elements cut into p blocks: block b starts at element first(b) (first(p) = n);
// count / p elements each, one more for the first n mod p, or, given starts (p + 1 prefix sums
// of the blocks' counts, starts[p] = n, kept by the caller), block b at starts[b].
struct BlockCut {
  std::int64_t n, p;
  const std::int64_t* starts = nullptr;
  std::int64_t first(std::int64_t b) const {
    return starts ? starts[b] : b * (n / p) + std::min(b, n % p);
  }
  // Elements of the blocks b .. b + c - 1 (mod p), 0 <= b < p, 0 <= c <= p.
  std::int64_t elements(std::int64_t b, std::int64_t c) const {
    return b + c <= p ? first(b + c) - first(b) : n - first(b) + first(b + c - p);
  }
};

// The reduce-scatter on ci of the cut.n elements at acc (this rank's contribution on entry),
// op commutative (checked by the caller): on return block ci.rank of acc holds that block
// reduced over all ranks; the other blocks hold partial results.
void circulant_reduce_scatter_on(const CommInfo& ci, char* acc, const BlockCut& cut,
                                 MPI_Datatype datatype, const TypeInfo& type, MPI_Op op);

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_REDUCE_SCATTER_CIRCULANT_H_
