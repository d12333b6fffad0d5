// Where each variant of the Bruck all-to-all keeps its blocks (Fan, Huang, Gilray, Micinski,
// Pascucci, Kumar 2022, Sec. 3 and Algorithm 1; the modified and zero-copy Bruck after Träff,
// Rougier, Hunold 2014): a plan of copies before the steps, per step and moved relative index i
// the slot it is read from and the slot it is written to, and copies after the steps, as pure
// functions of (variant, P, radix, step, i). The simulator (sim/bruck_run.h) and the MPI executor
// (mpi_exec/alltoall_bruck.cc, through bruck_engine.h) walk the same plan.
//
// Buffers, P slots each (slot j of a rank holds one block): kSend the caller's send blocks (slot
// d: the block for d; never written), kRecv the caller's receive blocks (slot s: the block from
// s), kWork a work buffer, kTemp a second work buffer (zero copy). A location is (buffer,
// offset); its slot at rank p is (f p + offset) mod P with f = rank_factor(buffer) (1 except
// the basic variant's kWork, indexed by the relative index itself). Every rank runs the same
// plan, shifted by its rank: this is what lets the verifier track one rank's P relative indices
// and cover all ranks (sim/bruck_run.h).
//
//  variant     before the steps             step: read i from            write i to      after
//  basic  (+)  Work[j] <- Send[p + j]        Work[i]                      Work[i]        Recv[j] <- Work[p - j]
//  modified    Recv[p + j] <- Send[p - j]    Recv[p + i]                  Recv[p + i]    -
//  zerorot     Recv[p] <- Send[p]            first hop: Send[p - i]       Recv[p + i]    -
//                                            else Recv[p + i]
//  zerocopy    Recv[p] <- Send[p]            first hop: Send[p - i];      b odd: Recv[p + i]  -
//                                            b odd: Temp[p+i]; b even: Recv[p+i]   b even: Temp[p + i]
//  padded      Work[p] <- Send[p]            first hop: Send[p - i]       Work[p + i]    Recv[j] <- Work[j]
//                                            else Work[p + i]
//  twophase    Recv[p] <- Send[p]            first hop: Send[p - i]       last hop: Recv[p + i]  -
//                                            else Work[p + i]             else Work[p + i]
// (b = hops left of i including this one; "+": the plus direction, all others minus.)
//
// Corrections to the printed text, each found by simulation (the printed reading fails, this
// one passes every P checked):
//  - Zero rotation: the printed "send R[I[i + p]] ... replace R[I[i + p]]" (I[j] = (2p - j) mod P)
//    leaves the block from d + i in slot d - i, wrong for P >= 3. Here only the first hop reads
//    the send buffer at I[(p + i) mod P] = (p - i) mod P; receives and later hops use slot
//    (p + i) mod P of the receive buffer.
//  - Zero copy, parity: the printed "b even: send T, receive R; b odd: send R, receive T" leaves
//    every block's last copy in T (P = 2: R[1] keeps the rank's own data). Here b odd receives
//    into R (the last hop has b = 1). Kept as the rejected variant kZeroCopyPrinted, with its
//    counterexample at P = 2 (tests/bruck_test.cc).
//  - Zero copy, first hop: with all blocks rotated into R as printed, a block with an odd number
//    of hops would be read from the still empty T on its first hop; here the first hop reads the
//    send buffer (slot (p - i) mod P) directly, so no rotation is needed at all.
//  - The self block (i = 0) is copied once before the steps; the printed zero-rotation, zero-copy
//    and two-phase codes omit it (Algorithm 1 never writes R[rdispls[p]]).
//  - The caller's send buffer is never written (the authors' codes rotate and unpack into it).
#ifndef ROSCHED_SCHED_BRUCK_BRUCK_PLAN_H_
#define ROSCHED_SCHED_BRUCK_BRUCK_PLAN_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sched/bruck/bruck.h"

namespace rosched {

enum class BruckVariant {
  kBasic,
  kModified,
  kZeroRotation,
  kZeroCopy,
  kPadded,
  kTwoPhase,
  kZeroCopyPrinted,  // rejected: the printed zero-copy parity (fails at P = 2)
};

// The six valid variants, in the order above.
const std::vector<BruckVariant>& bruck_variants();
// "basic", "modified", "zerorot", "zerocopy", "padded", "twophase", "zerocopy-printed".
std::string bruck_variant_name(BruckVariant v);
// The variant named `name` (any of the above); throws std::invalid_argument naming the valid
// names otherwise.
BruckVariant bruck_variant_from_name(const std::string& name);
// Whether the variant is for non-uniform block sizes (padded, twophase).
bool bruck_nonuniform(BruckVariant v);

enum class BruckBuffer { kSend, kRecv, kWork, kTemp };
inline constexpr int kBruckBuffers = 4;
const char* bruck_buffer_name(BruckBuffer b);

struct BruckLoc {
  BruckBuffer buffer = BruckBuffer::kSend;
  std::int64_t offset = 0;
  bool operator==(const BruckLoc& o) const { return buffer == o.buffer && offset == o.offset; }
};
struct BruckCopy {
  BruckLoc from, to;
};

class BruckPlan {
 public:
  BruckPlan(const BruckSchedule& schedule, BruckVariant variant)
      : s_(schedule), v_(variant) {}

  const BruckSchedule& schedule() const { return s_; }
  BruckVariant variant() const { return v_; }
  BruckDirection direction() const {
    return v_ == BruckVariant::kBasic ? BruckDirection::kPlus : BruckDirection::kMinus;
  }
  // Whether a step's blocks travel packed in one contiguous message (true) or are described in
  // place by derived datatypes (zero copy: a step's read and write slots never overlap).
  bool packed() const {
    return v_ != BruckVariant::kZeroCopy && v_ != BruckVariant::kZeroCopyPrinted;
  }
  bool uses(BruckBuffer b) const;
  int rank_factor(BruckBuffer b) const {
    return b == BruckBuffer::kWork && v_ == BruckVariant::kBasic ? 0 : 1;
  }
  // The slot of a location at rank.
  std::int64_t slot(const BruckLoc& loc, std::int64_t rank) const {
    return s_.mod(rank_factor(loc.buffer) * rank + loc.offset);
  }

  // Copies before the steps: pre_copy(k) for 0 <= k < pre_copies(); after them likewise.
  std::int64_t pre_copies() const;
  BruckCopy pre_copy(std::int64_t k) const;
  std::int64_t post_copies() const;
  BruckCopy post_copy(std::int64_t k) const;
  // For an i that moves at step: where the sender reads it and where the receiver writes it.
  BruckLoc read(std::int64_t i, const BruckStep& step) const;
  BruckLoc write(std::int64_t i, const BruckStep& step) const;

 private:
  BruckSchedule s_;
  BruckVariant v_;
};

// Throws std::logic_error naming `who`: an unknown variant. Out of line so that read and write
// stay small enough to inline.
[[noreturn]] void bruck_unknown_variant(const char* who);

// Inline: the simulator calls these for every block and step.
inline BruckLoc BruckPlan::read(std::int64_t i, const BruckStep& step) const {
  const bool first = s_.first_hop(i, step);
  switch (v_) {
    case BruckVariant::kBasic: return {BruckBuffer::kWork, i};
    case BruckVariant::kModified: return {BruckBuffer::kRecv, i};
    case BruckVariant::kZeroRotation: return first ? BruckLoc{BruckBuffer::kSend, -i} : BruckLoc{BruckBuffer::kRecv, i};
    case BruckVariant::kZeroCopy:
      if (first) return {BruckBuffer::kSend, -i};
      return s_.hops_left(i, step) % 2 ? BruckLoc{BruckBuffer::kTemp, i} : BruckLoc{BruckBuffer::kRecv, i};
    case BruckVariant::kZeroCopyPrinted:  // as printed: b even sends T, b odd sends R
      return s_.hops_left(i, step) % 2 ? BruckLoc{BruckBuffer::kRecv, i} : BruckLoc{BruckBuffer::kTemp, i};
    case BruckVariant::kPadded:
    case BruckVariant::kTwoPhase: return first ? BruckLoc{BruckBuffer::kSend, -i} : BruckLoc{BruckBuffer::kWork, i};
  }
  bruck_unknown_variant("BruckPlan::read");
}

inline BruckLoc BruckPlan::write(std::int64_t i, const BruckStep& step) const {
  switch (v_) {
    case BruckVariant::kBasic: return {BruckBuffer::kWork, i};
    case BruckVariant::kModified:
    case BruckVariant::kZeroRotation: return {BruckBuffer::kRecv, i};
    case BruckVariant::kZeroCopy:
      return s_.hops_left(i, step) % 2 ? BruckLoc{BruckBuffer::kRecv, i} : BruckLoc{BruckBuffer::kTemp, i};
    case BruckVariant::kZeroCopyPrinted:  // as printed: b even receives into R, b odd into T
      return s_.hops_left(i, step) % 2 ? BruckLoc{BruckBuffer::kTemp, i} : BruckLoc{BruckBuffer::kRecv, i};
    case BruckVariant::kPadded: return {BruckBuffer::kWork, i};
    case BruckVariant::kTwoPhase: return s_.last_hop(i, step) ? BruckLoc{BruckBuffer::kRecv, i} : BruckLoc{BruckBuffer::kWork, i};
  }
  bruck_unknown_variant("BruckPlan::write");
}

}  // namespace rosched

#endif  // ROSCHED_SCHED_BRUCK_BRUCK_PLAN_H_
