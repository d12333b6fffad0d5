// Merge-allreduce ("allmerge"): every rank P holds a sorted block V_P; every rank must end with
// the sorted merge of all p blocks, each exactly once (Lang 2025, "Modified Bruck/Dissemination
// Algorithm for Commutative Reduction in MPI", Secs. 2-4). Merge is not idempotent, so the
// schedules must track which ranks' blocks every message carries.
//
// The schedules are described as a small program over named runs ("slots") that the verifier
// simulates with interval arithmetic and the MPI executor (mpi_exec/allmerge.cc) runs with data:
//   - a slot holds the merge (or, for Algorithm 0, the concatenation) of the blocks of a cyclic
//     range of ranks [first, first + count) mod p;
//   - per round a rank sends to one rank and receives from one rank a message of up to two
//     parts (main, partial), each the whole content of one of its slots (Algorithm 0 may send a
//     prefix of its concatenated slot);
//   - after the exchange, merge operations dst := src0 (+) src1 (+) ... in order; the sources'
//     ranges are adjacent in that order, so the result is again a cyclic range;
//   - after the last round, one final operation writes the result, which must be [P, P + p).
//
// All three algorithms are circulant (rank P does what rank 0 does, shifted by P), so a
// MergePlan is built once per p in O(log p) with ranges relative to the rank, and
// MergeSchedule(plan, rank).round(i) shifts it: O(1) per round.
#ifndef ROSCHED_SCHED_MERGE_MERGE_PLAN_H_
#define ROSCHED_SCHED_MERGE_MERGE_PLAN_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rosched::merge {

enum class Algorithm {
  kAllgather = 0,       // Lang 2025, Sec. 2 (Algorithm 0): all-gather, then a merge tree
  kDissemination = 1,   // Lang 2025, Sec. 3, Alg. 1, corrected (dissemination_merge.h)
  kCirculant = 2,       // Lang 2025, Sec. 4, Alg. 2, corrected (circulant_merge.h)
  kDisseminationPrinted = 3,  // Alg. 1 exactly as printed: wrong for most p (a control)
};
inline constexpr Algorithm kAllAlgorithms[] = {Algorithm::kAllgather, Algorithm::kDissemination,
                                               Algorithm::kCirculant};

// "alg0", "alg1", "alg2", "alg1-printed".
std::string algorithm_name(Algorithm a);
// The inverse of algorithm_name (also "0", "1", "2"); throws std::invalid_argument naming s.
Algorithm parse_algorithm(const std::string& s);

// The runs a rank keeps. kOwn is its own block (never overwritten); kAcc the accumulated run
// (Alg. 1's "local", Alg. 2's W, Alg. 0's gathered blocks); kPartial Alg. 1's partial list;
// kRecvMain, kRecvPartial the two parts of the message received in the current round.
enum class Slot : std::uint8_t { kNone, kOwn, kAcc, kPartial, kRecvMain, kRecvPartial };
inline constexpr int kSlotCount = 6;
const char* slot_name(Slot s);

// The blocks of ranks first, first + 1, ..., first + count - 1 (mod p); 0 <= first < p for an
// absolute range, any offset for a range relative to a rank. count 0 is an empty run.
struct Range {
  std::int64_t first = 0, count = 0;
  bool operator==(const Range& o) const { return first == o.first && count == o.count; }
  bool operator!=(const Range& o) const { return !(*this == o); }
};

// One part of a message: the content of `slot`, which holds the blocks `range` (for a send;
// for a receive, slot is kRecvMain or kRecvPartial and range what arrives). slot kNone: no part.
struct Piece {
  Slot slot = Slot::kNone;
  Range range;
  explicit operator bool() const { return slot != Slot::kNone; }
};

// dst := src[0] (+) ... (+) src[sources - 1]: merged (sorted), or concatenated in this order
// (Algorithm 0's gathering), or, for Algorithm 0's final operation, the merge tree over the
// single source's p blocks in rank order (tree = true).
struct MergeOp {
  Slot dst = Slot::kNone;
  std::array<Slot, 4> src{};
  int sources = 0;
  bool concat = false;
  bool tree = false;
};

// What one rank does in one round (absolute ranks and ranges).
struct MergeRound {
  std::int64_t to = 0, from = 0;  // send to, receive from
  Piece send_main, send_partial, recv_main, recv_partial;
  std::array<MergeOp, 2> ops{};   // after the exchange, in order
  int op_count = 0;
};

// The rank-independent plan of one algorithm for p: per round the distance d (send to P - d,
// receive from P + d) and the round with ranges relative to the rank (to = -d, from = +d);
// the final operation writes the result (its dst is kNone).
struct MergePlan {
  Algorithm algorithm = Algorithm::kCirculant;
  std::int64_t p = 1;
  std::vector<std::int64_t> distance;
  std::vector<MergeRound> rounds;  // relative
  MergeOp final_op;
};

// The plan of `algorithm` for p: ceil(log2 p) rounds (0 for p = 1). O(log p).
// Throws std::invalid_argument unless 1 <= p <= 2^31 - 1.
MergePlan make_plan(Algorithm algorithm, std::int64_t p);

// One rank's schedule over a shared plan.
class MergeSchedule {
 public:
  // Throws std::invalid_argument unless 1 <= p <= 2^31 - 1 and 0 <= rank < p.
  MergeSchedule(Algorithm algorithm, std::int64_t p, std::int64_t rank);
  // Throws std::invalid_argument unless plan is set and 0 <= rank < plan->p.
  MergeSchedule(std::shared_ptr<const MergePlan> plan, std::int64_t rank);

  std::int64_t p() const { return plan_->p; }
  std::int64_t rank() const { return rank_; }
  Algorithm algorithm() const { return plan_->algorithm; }
  const MergePlan& plan() const { return *plan_; }
  std::int64_t rounds() const { return static_cast<std::int64_t>(plan_->rounds.size()); }
  // Round i, 0 <= i < rounds(); throws std::out_of_range otherwise.
  MergeRound round(std::int64_t i) const;
  const MergeOp& final_op() const { return plan_->final_op; }
  // The rank's own block: [rank, rank + 1).
  Range own() const { return {rank_, 1}; }

 private:
  std::shared_ptr<const MergePlan> plan_;
  std::int64_t rank_;
};

// first + offset reduced into [0, p) (|offset| < 2p).
inline std::int64_t cyclic(std::int64_t first, std::int64_t offset, std::int64_t p) {
  std::int64_t x = first + offset;
  if (x >= p) x -= p;
  if (x >= p) x -= p;
  if (x < 0) x += p;
  if (x < 0) x += p;
  return x;
}

namespace detail {
// Builds a plan round by round while tracking what each slot holds (relative ranges), so that
// every send part claims exactly what its slot holds. Used by the algorithm files.
class PlanBuilder {
 public:
  PlanBuilder(Algorithm a, std::int64_t p);
  // What a slot holds before round 0 (default: own = [0, 1), every other slot empty at 0).
  void start(Slot s, Range r) { held_[static_cast<int>(s)] = r; }
  // A round with distance d; send parts are slots (kNone: no part), with count <= the slot's
  // count for a prefix (Algorithm 0 only).
  void round(std::int64_t d, Slot main, Slot partial, std::int64_t main_count = -1);
  void op(Slot dst, const std::vector<Slot>& src, bool concat = false);
  void final_op(const std::vector<Slot>& src, bool tree = false);
  // What a slot holds now (relative to the rank).
  const Range& holds(Slot s) const { return held_[static_cast<int>(s)]; }
  MergePlan take() { return std::move(plan_); }

 private:
  MergePlan plan_;
  std::array<Range, kSlotCount> held_{};
};
}  // namespace detail

}  // namespace rosched::merge

#endif  // ROSCHED_SCHED_MERGE_MERGE_PLAN_H_
