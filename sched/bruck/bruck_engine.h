// The rank-local data movement of every Bruck variant (bruck_plan.h) over byte blocks of any
// sizes: pure C++ (no MPI, no I/O), run by the MPI executor between its MPI_Sendrecv calls and by
// the simulator (sim/bruck_run.h) for all ranks of one process, byte by byte. What is verified
// is what runs.
//
// A step of rank p is: sizes(t) (two-phase only: the byte count of each moved block, its first
// message), pack(t) (the moved blocks, concatenated in increasing relative index), then, once
// the partner's message is in, unpack(t, sizes, data). Before the steps start() does the plan's
// copies (and the padding of the padded variant), after them finish().
//
// Non-uniform variants (Fan et al. 2022, Sec. 4):
//  - padded: N = the largest block over all ranks (the caller's one MPI_Allreduce); every send
//    block is padded to N bytes (zeros), the zero-rotation steps move N-byte slots, and the
//    final copies keep the first recvcounts[s] bytes of slot s. Every rank sends exactly
//    N * blocks_per_rank() bytes.
//  - two-phase (Algorithm 1): per step first the sizes, then the packed data; a block goes to
//    the work buffer W (P slots of N bytes) or, on its last hop, straight to its place in the
//    receive buffer. Corrections to Algorithm 1: line 18 reads status[i] (the loop position);
//    the status that matters is that of the block's own slot, status[I[sd[i]]] as on line 31, and
//    it is exactly "not the first hop" (BruckSchedule::first_hop), which is what is used here;
//    the self block is copied first (the algorithm never writes R[rdispls[p]]); line 32 writes
//    the caller's sendcounts: the received sizes are kept in a private array instead.
// A block that arrives at its place in the receive buffer with a size other than the receiver's
// count is not written; the first such mismatch is kept (error()) and the run goes on, so that
// every rank finishes its steps and none waits for a rank that stopped.
#ifndef ROSCHED_SCHED_BRUCK_BRUCK_ENGINE_H_
#define ROSCHED_SCHED_BRUCK_BRUCK_ENGINE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sched/bruck/bruck_plan.h"

namespace rosched {

// The caller's blocks of one rank: slot j at base + offset[j], size[j] bytes.
struct BruckBlocks {
  const char* send_base = nullptr;
  std::vector<std::int64_t> send_offset, send_size;
  char* recv_base = nullptr;
  std::vector<std::int64_t> recv_offset, recv_size;
};

// A receive-side size mismatch: the block from `source` had `actual` bytes, `expected` were
// asked for.
struct BruckMismatch {
  std::int64_t step = 0, source = 0, expected = 0, actual = 0;
  std::string describe() const;
};

class BruckEngine {
 public:
  // max_block: N, the largest block of any rank (uniform: the block size). Throws
  // std::invalid_argument if a block is larger than N, sizes are negative, the vectors are not
  // of length P, the rank is out of range, or a uniform variant has a block of other than N
  // bytes (the caller checks the uniform sizes; only padded and two-phase compare them here).
  BruckEngine(const BruckPlan& plan, std::int64_t rank, BruckBlocks blocks,
              std::int64_t max_block);

  const BruckPlan& plan() const { return plan_; }
  std::int64_t rank() const { return rank_; }
  std::int64_t max_block() const { return n_; }
  // Whether each step starts with a message of sizes (two-phase).
  bool sends_sizes() const { return plan_.variant() == BruckVariant::kTwoPhase; }

  void start();
  // The byte count of each block moved at step t, in order: known from the engine's own state.
  std::vector<std::int64_t> sizes(std::int64_t t) const;
  // What the receiver expects at step t when no sizes are sent: N for each moved block.
  std::vector<std::int64_t> fixed_sizes(std::int64_t t) const;
  // The step's message: the moved blocks concatenated (out is resized).
  void pack(std::int64_t t, std::vector<char>& out) const;
  // Stores the partner's message (sizes[j] bytes of data for the j-th moved index).
  // Throws std::invalid_argument if the sizes do not fit (a block above N, data shorter than the
  // sizes say).
  void unpack(std::int64_t t, const std::vector<std::int64_t>& sizes, const char* data,
              std::int64_t bytes);
  void finish();

  // Where a location's block is at this rank and how many bytes it holds now (for the zero-copy
  // executor's derived datatypes, and the tests).
  struct Region {
    char* data;
    std::int64_t bytes;
  };
  Region region(const BruckLoc& loc) const;
  // Marks a location as written with `bytes` bytes (after a transfer the engine did not do).
  void written(const BruckLoc& loc, std::int64_t bytes);

  const std::optional<BruckMismatch>& error() const { return error_; }

 private:
  void copy(const BruckLoc& from, const BruckLoc& to, std::int64_t step);
  void store(const BruckLoc& to, const char* data, std::int64_t bytes, std::int64_t step,
             std::int64_t source);

  BruckPlan plan_;
  std::int64_t rank_, p_, n_;
  BruckBlocks blocks_;
  std::vector<char> padded_, work_, temp_;
  std::vector<std::int64_t> work_size_, temp_size_;
  std::optional<BruckMismatch> error_;
};

}  // namespace rosched

#endif  // ROSCHED_SCHED_BRUCK_BRUCK_ENGINE_H_
