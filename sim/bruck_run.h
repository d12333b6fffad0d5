// Simulations of the Bruck all-to-all variants (sched/bruck/bruck_plan.h): symbolic runs with
// one token (source, destination) per block, and byte-exact runs of the rank engines
// (sched/bruck/bruck_engine.h) on size matrices.
//
// Why one rank suffices for the symbolic check. Every rank runs the same plan shifted by its
// rank: a location's slot is (f p + offset) mod P and the partners are p -+ distance. So if every
// rank's state is the same up to that shift (rank p's slot f p + k holds rank 0's slot k with
// p added to source and destination), it stays so after every copy and step: the receiver p' of
// rank p's message writes at its own slot f p' + k the token p read, which relative to p' is the
// token relative to p plus (p - p'). The initial state (slot d of the send buffer of rank p holds
// the block (p, d)) has this form, so tracking the P relative slots of one rank is exact for all
// ranks: O(P log P) per plan instead of O(P^2 log P). run_bruck_all_ranks checks the same plan
// rank by rank, physically, with no symmetry assumed; the tests compare the two for every
// P <= 300, variant and radix, and the mutation tests corrupt single ranks through its hooks.
//
// Both check at every read that the slot holds exactly the block the schedule says (source
// rank + travelled part of i, destination source - i; for the plus direction the mirror), that
// no plan writes the caller's send buffer, that the zero-copy variants' read and write slots of
// a step are disjoint (a derived-datatype MPI_Sendrecv may not overlap), the step count and the
// blocks each rank sends, and that at the end receive slot s of rank p holds the block (s, p).
#ifndef ROSCHED_SIM_BRUCK_RUN_H_
#define ROSCHED_SIM_BRUCK_RUN_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sched/bruck/bruck_engine.h"
#include "sched/bruck/bruck_plan.h"
#include "sim/counterexample.h"

namespace rosched::sim {

// A run's final buffers: state[buffer][slot] = token (source * 2^32 + destination) or kNoToken;
// for one rank (relative: slot and token relative to the rank) or all ranks (rank * P + slot).
inline constexpr std::int64_t kNoToken = -1;
struct BruckState {
  std::vector<std::int64_t> slots[kBruckBuffers];
};

struct BruckRunResult {
  std::optional<Counterexample> counterexample;
  std::int64_t blocks_sent = 0;  // per rank (the relative run) or by rank 0 (all ranks)
  BruckState state;
};

// The symbolic run of one rank's P relative slots (see above). O(P log P).
BruckRunResult run_bruck_relative(const BruckPlan& plan);

// Deliberate corruptions for the mutation tests: hooks that may change a location read or
// written, or the partner a rank sends to, at (rank, step, i).
struct BruckMutation {
  std::function<BruckLoc(std::int64_t rank, std::int64_t step, std::int64_t i, BruckLoc)> read,
      write;
  std::function<std::int64_t(std::int64_t rank, std::int64_t step, std::int64_t to)> send_to;
};

// The symbolic run of every rank, physically (no symmetry assumed). O(P^2 log P).
BruckRunResult run_bruck_all_ranks(const BruckPlan& plan, const BruckMutation& mutation = {});

// Whether the all-ranks state is the relative one shifted to every rank; the first difference.
std::optional<Counterexample> compare_bruck_states(const BruckPlan& plan,
                                                   const BruckState& relative,
                                                   const BruckState& all_ranks);

// A counterexample of check `check` ("bruck-run", "bruck-bytes") at p of the plan.
Counterexample bruck_counterexample(const char* check, const BruckPlan& plan, const char* kind,
                                    std::int64_t rank, std::int64_t step, std::int64_t expected,
                                    std::int64_t actual, std::string detail);

// Size matrices for the byte-exact runs: sizes[s * P + d] bytes from s to d.
enum class BruckSizes { kRandom, kZeros, kOneHuge, kEmptyRowColumn, kUniform };
const std::vector<BruckSizes>& bruck_size_kinds();
std::string bruck_sizes_name(BruckSizes kind);
// Random sizes in [0, max] (kRandom), all zero, small sizes with one block of `huge` bytes, an
// empty row (a rank sends nothing) and column (a rank receives nothing), or all `max` (uniform).
std::vector<std::int64_t> bruck_size_matrix(std::int64_t p, BruckSizes kind, std::int64_t max,
                                            std::int64_t huge, std::uint64_t seed);

struct BruckBytesResult {
  std::optional<Counterexample> counterexample;
  std::int64_t data_bytes = 0;     // data bytes sent by all ranks over all steps
  std::int64_t size_entries = 0;   // sizes sent by all ranks (two-phase)
  std::int64_t max_rank_bytes = 0, min_rank_bytes = 0;  // data bytes sent per rank
};

// A byte-exact run of every rank's BruckEngine on the size matrix (recv_sizes: what each
// receiver asks for, sizes if empty): every received byte equals the sender's, guards and send
// buffers untouched, no mismatch reported (or, with recv_sizes differing, the mismatch reported
// by the receiver). O(sum of sizes * log P + P^2).
BruckBytesResult run_bruck_bytes(const BruckPlan& plan, const std::vector<std::int64_t>& sizes,
                                 const std::vector<std::int64_t>& recv_sizes = {});

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_BRUCK_RUN_H_
