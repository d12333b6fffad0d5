// The round description of the n-way dissemination allreduce (sched/nway/nway_schedule.h): per
// rank and round, up to n messages sent and n received, each carrying one or two vectors, every
// vector a contiguous range of contributions. Shared by the verifier (sim/nway_run.h), the tables
// tool and the MPI executor (mpi_exec/allreduce_nway.cc): what is verified is what runs.
//
// A rank keeps up to four accumulators (partial results); kOwn (its contribution x) and kMain
// start as x, kSecond and kThird start empty. Ranges are offsets relative to the holding rank:
// offset t is the contribution of rank (holder - t) mod P.
#ifndef ROSCHED_SCHED_NWAY_NWAY_ROUND_H_
#define ROSCHED_SCHED_NWAY_NWAY_ROUND_H_

#include <array>
#include <cstdint>
#include <vector>

namespace rosched {

// Accumulator bits (a mask selects several).
enum NwayAcc : std::uint8_t { kOwn = 1, kMain = 2, kSecond = 4, kThird = 8 };
inline constexpr int kNwayAccs = 4;

// Offsets [first, first + length) relative to a rank.
struct NwayRange {
  std::int64_t first = 0, length = 0;
  bool operator==(const NwayRange& o) const { return first == o.first && length == o.length; }
  bool operator!=(const NwayRange& o) const { return !(*this == o); }
};

// One vector of a message. Sent: the combination of the sender's accumulators `accs` at the
// start of the round, covering `range` (relative to the sender). Received: folded into every
// accumulator in `accs`, covering `range` (relative to the receiver).
struct NwayVector {
  std::uint8_t accs = 0;
  NwayRange range;
};

// One message of a round: port j (1..n, the message tag's index), the other side as a
// distance (sends go to rank + distance, receives come from rank - distance, mod P) and as a
// real rank, and one or two vectors.
struct NwayMessage {
  int port = 0;
  std::int64_t distance = 0, peer = 0;
  int vectors = 1;
  std::array<NwayVector, 2> v{};
};

// One rank's round. Order of operations: every send is composed from the accumulators as they
// are at the start of the round; then, if copy_to != 0, accumulator copy_to := copy_from (start
// of round value); then the received vectors are folded, messages in port order, vectors in
// order. The operation must be commutative: folds are not in rank order.
struct NwayRound {
  std::vector<NwayMessage> sends, recvs;
  std::uint8_t copy_to = 0, copy_from = 0;
};

}  // namespace rosched

#endif  // ROSCHED_SCHED_NWAY_NWAY_ROUND_H_
