// The per-phase receive and send schedule of one rank: the value type every construction
// returns and every consumer (broadcast, all-gather-v, verifier, tables) walks.
//
// In round k (0 <= k < q) of a phase, rank r receives block recv[k] from (r - skips[k]) mod p and
// sends block send[k] to (r + skips[k]) mod p. Block numbers are relative to the phase:
// 0..q-1 are blocks of the current phase, -q..-1 blocks of the previous one (b - q stands for
// block b of the previous phase). A valid schedule has (Träff 2022, Sec. 2):
//   * recv holds baseblock(r) once and q - 1 distinct blocks of the previous phase;
//   * send[k] = recv of rank (r + skips[k]) mod p at round k;
//   * send[k] is a block r holds before round k.
// The root's receive schedule is a dummy (the root never receives).
#ifndef ROSCHED_SCHED_CIRCULANT_PHASE_SCHEDULE_H_
#define ROSCHED_SCHED_CIRCULANT_PHASE_SCHEDULE_H_

#include <array>
#include <cstdint>

#include "sched/circulant/skips.h"

namespace rosched {

struct PhaseSchedule {
  int q = 0;
  std::array<std::int32_t, kMaxQ> block{};

  std::int32_t operator[](int k) const { return block[k]; }
  std::int32_t& operator[](int k) { return block[k]; }
  bool operator==(const PhaseSchedule& o) const {
    if (q != o.q) return false;
    for (int k = 0; k < q; ++k)
      if (block[k] != o.block[k]) return false;
    return true;
  }
  bool operator!=(const PhaseSchedule& o) const { return !(*this == o); }
};

struct RankSchedule {
  PhaseSchedule recv;
  PhaseSchedule send;
};

// The schedule constructions this library knows. `paper` is the construction of Algorithms 4
// and 5 of Träff 2022, kept permanently as the reference; `fast` computes one rank's schedules
// in O(log p) (fast_schedule.h) and is the default.
enum class Construction { fast, paper };
inline constexpr Construction kDefaultConstruction = Construction::fast;

// Parses "fast" or "paper"; throws std::invalid_argument naming the known constructions otherwise.
Construction parse_construction(const char* name);
const char* construction_name(Construction c);

// Receive and send schedule of rank r under construction c.
// Throws std::invalid_argument unless 0 <= r < p.
RankSchedule rank_schedule(const Skips& s, std::int64_t r, Construction c = kDefaultConstruction);
// Only the receive schedule of rank r under construction c.
PhaseSchedule recv_schedule(const Skips& s, std::int64_t r, Construction c);

}  // namespace rosched

#endif  // ROSCHED_SCHED_CIRCULANT_PHASE_SCHEDULE_H_
