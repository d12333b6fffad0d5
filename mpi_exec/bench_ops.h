// bench's operations (bench.cc times them): the implementations each operation has and one
// call of an implementation on m MPI_INT, with its data made and, with --check, its result
// verified; the per-rank counts of the irregular distributions.
#ifndef ROSCHED_MPI_EXEC_BENCH_OPS_H_
#define ROSCHED_MPI_EXEC_BENCH_OPS_H_

#include <functional>
#include <string>
#include <vector>

namespace rosched::mpi::bench {

// One line per group of implementations, with the operations that have them.
// clang-format off
enum Impl {
  kNative, kCirculant, kTwoTree, kHypercube, kAuto,
  kAlg0, kAlg1, kAlg2,                                                    // allmerge
  kNway,                                                                  // allreduce
  kNodeAware,                                                             // bcast
  kBinomial,                                                              // reduce
  kBasic, kModified, kZeroRot, kZeroCopy, kPadded, kTwoPhase, kLinear,  // alltoall(v)
  kLargest,                                                               // allgatherv
  kKary,                                                                  // bcast
  kRsag,                                                   // allreduce, reduce, bcast (scatter)
  kKnomial,                                                               // bcast, allreduce
  kNport,                                                                 // allreduce, reduce
  kImplCount
};
// clang-format on
extern const char* const kImplNames[kImplCount];

// allmerge: elements written by merges and copies in the last run (Rosched_Allmerge_moves),
// this rank's; bench takes the largest over the ranks once a size is done.
extern long long allmerge_moves[kImplCount];

// The implementations an operation has.
std::vector<Impl> impls_of(const std::string& op);

// --impl: a comma-separated subset of what the operation has, "all" (every one), "both" (native
// and circulant), or items "-NAME" that take NAME out again ("all,-auto"). Native first, so the
// ratios can refer to it. std::invalid_argument for an unknown name or an empty result.
std::vector<Impl> parse_impls(const std::string& list, const std::vector<Impl>& available,
                              const std::string& op);

// The share of the data rank 0 holds under --dist one (99%), half or rank0=F (0 < F < 1, the
// others sharing the rest evenly); 0 for the other distributions, -1 for a malformed rank0=.
double rank0_share(const std::string& dist);

// One call of an implementation on m MPI_INT; false if check and the result is wrong.
using Op = std::function<bool(Impl impl, long m, bool check)>;

// The call of --op `op` with --dist `dist` (already checked) on MPI_COMM_WORLD (MPI is
// initialised); std::invalid_argument for an unknown op.
Op make_op(const std::string& op, const std::string& dist);

}  // namespace rosched::mpi::bench

#endif  // ROSCHED_MPI_EXEC_BENCH_OPS_H_
