// The message tags of the collectives, one table. All traffic runs on a private duplicate of
// the user's communicator (or of MPI_COMM_SELF for local copies), so tags never meet the
// application's; distinct tags per use keep the phases of one collective apart as well.
#ifndef ROSCHED_MPI_EXEC_TAGS_H_
#define ROSCHED_MPI_EXEC_TAGS_H_

namespace rosched::mpi::tag {

inline constexpr int kBcastRound = 7301;       // a round of a pipelined broadcast
inline constexpr int kAllgatherRound = 7302;   // a round of the circulant all-gather (Alg. 7)
inline constexpr int kCensusRound = 7303;      // a round of Rosched_Allreduce
inline constexpr int kAllgathervRound = 7304;  // a round of Rosched_Allgatherv
inline constexpr int kReduceToRoot = 7305;     // two-tree reduction: result from its sink to the root
inline constexpr int kReduceRound = 7306;      // a round of the two-tree reduction
inline constexpr int kLocalCopy = 7307;        // a copy within one process (any datatypes)
inline constexpr int kCostModel = 7308;        // the ping-pongs that measure the cost model
inline constexpr int kAllmergeMain = 7309;     // Rosched_Allmerge: a round's main part
inline constexpr int kAllmergePartial = 7310;  // Rosched_Allmerge: a round's partial part
inline constexpr int kAlltoallSizes = 7311;    // a Bruck step's block sizes (two-phase)
inline constexpr int kAlltoallData = 7312;     // a Bruck step's blocks, or a linear exchange
inline constexpr int kBcastNodeHop = 7313;     // node-aware broadcast: root to its node's rank 0
inline constexpr int kAllgathervGather = 7314; // node-aware all-gather: a block to its node's rank 0
// (7315, 7316: the ring steps of an earlier multi-lane all-reduce)
inline constexpr int kReduceScatterRound = 7317;  // a round of the circulant reduce-scatter
inline constexpr int kRootBlocks = 7318;  // a block to or from the root (root_blocks.h)
inline constexpr int kNwayAllgatherRound = 7319;  // a round of the n-port all-gather
inline constexpr int kNwayReduceScatterRound = 7320;  // a round of the n-port reduce-scatter

inline constexpr int kAll[] = {kBcastRound,      kAllgatherRound,     kCensusRound,
                               kAllgathervRound, kReduceToRoot,       kReduceRound,
                               kLocalCopy,       kCostModel,          kAllmergeMain,
                               kAllmergePartial, kAlltoallSizes,      kAlltoallData,
                               kBcastNodeHop,    kAllgathervGather,   kReduceScatterRound,
                               kRootBlocks,      kNwayAllgatherRound, kNwayReduceScatterRound};

constexpr bool all_distinct() {
  for (int i = 0; i < static_cast<int>(sizeof kAll / sizeof kAll[0]); ++i)
    for (int j = 0; j < i; ++j)
      if (kAll[i] == kAll[j]) return false;
  return true;
}
static_assert(all_distinct(), "two collectives share a tag");

// Rosched_Allreduce_nway and Rosched_Iallreduce_nway: tags kNwayFirst .. kNwayFirst +
// kNwayInFlight * kNwayTagsPerCall - 1, one block per call in flight (the calls on a
// communicator numbered mod kNwayInFlight), round i and port j at i * 65 + j of the block.
inline constexpr int kNwayFirst = 8192;
inline constexpr int kNwayInFlight = 8;
inline constexpr int kNwayTagsPerCall = 2048;  // rounds i <= 30 (p < 2^31): i * 65 + 64 < 2048
static_assert(kNwayTagsPerCall > 30 * 65 + 64, "n-way tags of one call overlap the next");
constexpr bool nway_tags_clear() {
  for (int t : kAll)
    if (t >= kNwayFirst && t < kNwayFirst + kNwayInFlight * kNwayTagsPerCall) return false;
  return kNwayFirst + kNwayInFlight * kNwayTagsPerCall <= 32767;  // MPI's smallest MPI_TAG_UB
}
static_assert(nway_tags_clear(), "n-way tags meet another collective's or exceed 32767");

}  // namespace rosched::mpi::tag

#endif  // ROSCHED_MPI_EXEC_TAGS_H_
