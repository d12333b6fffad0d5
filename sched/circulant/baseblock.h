// Baseblocks and RANGEBLOCKS of the circulant broadcast.
//
// Implements Algorithm 2 (BASEBLOCK) and Algorithm 3 (RANGEBLOCKS) of Träff 2022 (Sec. 2),
// in O(log p) each.
//
// The baseblock of process r != 0 is the first block it receives when the root 0 sends blocks
// 0, 1, ..., q-1 in the first phase and every process passes its first block on greedily.
// The root itself is treated as virtual rank p = skips[q], whose baseblock is q (it has every
// block; q is outside the blocks 0..q-1 of a phase).
//
// Structure used by both functions: let seq_k be the baseblocks of ranks 1..skips[k+1]-1.
// Then seq_k = seq_{k-1}, k, prefix of seq_{k-1} of length skips[k+1]-skips[k]-1, because
// rank skips[k] receives block k from the root in round k and ranks skips[k] + j for
// 1 <= j < skips[k+1]-skips[k] receive the baseblock of rank j in round k.
// Consequently ranks 1..L hold exactly the blocks {0, ..., j} for the largest j with
// skips[j] <= L.
#ifndef ROSCHED_SCHED_CIRCULANT_BASEBLOCK_H_
#define ROSCHED_SCHED_CIRCULANT_BASEBLOCK_H_

#include <cstdint>
#include <vector>

#include "sched/circulant/block_set.h"
#include "sched/circulant/skips.h"

namespace rosched {

// Algorithm 2. Returns the baseblock of rank r, 0 <= r < p (q for the root r = 0).
// Throws std::invalid_argument for r outside [0, p).
int baseblock(const Skips& s, std::int64_t r);

// The baseblocks of all ranks (entry 0: q for the root) by running the first phase literally,
// in O(p): in round i the root sends block i to rank skips[i], and every rank
// 1 <= r < skips[i] passes its baseblock on to r + skips[i] if that is below skips[i+1].
// Independent of baseblock(): the reference it is checked against.
std::vector<std::int8_t> all_baseblocks(const Skips& s);

// Algorithm 3. The set of baseblocks of the ranks in the cyclic range a, a+1, ..., b (mod p):
// [a, b] if a <= b, else [a, p-1] followed by [0, b]. The root (rank 0) contributes block q.
// Throws std::invalid_argument unless 0 <= a, b < p.
BlockSet rangeblocks(const Skips& s, std::int64_t a, std::int64_t b);

}  // namespace rosched

#endif  // ROSCHED_SCHED_CIRCULANT_BASEBLOCK_H_
