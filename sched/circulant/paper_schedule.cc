#include "sched/circulant/paper_schedule.h"

#include <stdexcept>
#include <string>

#include "sched/circulant/baseblock.h"
#include "sched/circulant/block_set.h"

namespace rosched {
namespace paper {

PhaseSchedule recv_schedule(const Skips& s, std::int64_t r, int rounds) {
  check_rank(s, r, "rank");
  const int q = s.q();
  if (rounds < 0 || rounds > q) {
    throw std::invalid_argument("rounds = " + std::to_string(rounds) + " is outside [0, q]");
  }
  PhaseSchedule sched;
  sched.q = q;
  const int own = baseblock(s, r);
  const BlockSet phase_blocks = BlockSet::upto(q - 1);
  BlockSet seen;
  seen.insert(own);
  std::int64_t skip_sum = 0;  // skips[0] + ... + skips[i]
  for (int i = 0; i < rounds; ++i) {
    skip_sum += s[i];
    if (s[i] <= r && r < s[i + 1]) {  // r's homerange: the baseblock arrives in this round
      sched[i] = own;
      continue;
    }
    int b;
    if (i == 0) {
      b = baseblock(s, s.mod(r - 1));
    } else if (i < q - 1) {
      // A new block from r - skips[i] is a baseblock of [r - skips[i+1] + 1, r - skips[i]] ...
      BlockSet candidates =
          rangeblocks(s, s.mod(r - s[i + 1] + 1), s.mod(r - s[i])) & phase_blocks;
      // ... or one that r - skips[i] received in the rounds before (Lemma 1).
      if (candidates.minus(seen).empty()) {
        candidates = rangeblocks(s, s.mod(r - skip_sum), s.mod(r - s[i + 1])) & phase_blocks;
      }
      const BlockSet fresh = candidates.minus(seen);
      if (fresh.empty()) {
        throw std::logic_error("paper receive schedule: no new block for p = " +
                               std::to_string(s.p()) + ", rank " + std::to_string(r) +
                               ", round " + std::to_string(i));
      }
      b = fresh.max();
    } else {  // the last round takes the one block of the phase not yet seen
      const BlockSet rest = phase_blocks.minus(seen);
      if (rest.size() != 1) {
        throw std::logic_error("paper receive schedule: " + std::to_string(rest.size()) +
                               " candidates in the last round for p = " +
                               std::to_string(s.p()) + ", rank " + std::to_string(r));
      }
      b = rest.max();
    }
    seen.insert(b);
    sched[i] = b - q;
  }
  return sched;
}

PhaseSchedule send_schedule(const Skips& s, std::int64_t r) {
  check_rank(s, r, "rank");
  PhaseSchedule sched;
  sched.q = s.q();
  for (int k = 0; k < s.q(); ++k) sched[k] = recv_schedule(s, s.to(r, k), k + 1)[k];
  return sched;
}

}  // namespace paper
}  // namespace rosched
