// Which implementation the interposition library (librosched_pmpi.so) gives an MPI collective:
// the MPI library's own (the PMPI_ function) or one of rosched's. Pure functions of the call's
// facts and the controls, no MPI: every rank decides from facts that MPI requires to be the same
// on every rank (message size, p, datatype layout, the operation), so every rank routes a call
// the same way.
//
// Controls (environment, read once by the interposer):
//   ROSCHED_PMPI=auto|off|force   auto (default): rosched where it measured faster (below);
//                                 off: everything to the MPI library; force: every call rosched
//                                 can take (intra-communicators) to rosched.
//   ROSCHED_PMPI_ONLY=bcast,...   only these collectives may go to rosched (default: all).
//   ROSCHED_PMPI_THRESHOLD=coll=bytes,...
//                                 per-collective size rule for auto, replacing the default:
//                                 bcast, allgather, allgatherv, reduce, reduce_scatter_block,
//                                 reduce_scatter: rosched from `bytes` up;
//                                 allreduce, alltoall: rosched up to `bytes`. "never" disables.
//
// The auto defaults come from the SimGrid SMPI runs of docs/sim/cost_model.md (paper platform,
// 36 x 1, against the best of four MPI libraries' selectors). Where rosched's entry point times
// its algorithms against the library's collective at the first call of each size class, auto
// lets it choose (the same answer on every rank); a threshold replaces that by a size rule:
//   bcast       Rosched_Bcast's own choice;
//   allgather   Rosched_Allgather's own choice (Träff 2022, Alg. 7, its rounds streamed in parts,
//               or MPI_Allgather; 36 x 1: 0.31-0.80 of the best from 64 KiB of result, and at 4 B
//               and 1 KiB 24.1 us against Open MPI's selector's 36.3); a threshold: Alg. 7 from
//               that size of the result up;
//   allgatherv  Rosched_Allgatherv's own choice (Alg. 9, the largest block's broadcast first,
//               or MPI_Allgatherv); a threshold: Alg. 9 from that size of the result up;
//   reduce      Rosched_Reduce's own choice (the k-nomial tree for short vectors, the two trees,
//               the node-aware reduction, or MPI_Reduce; 36 x 1: 8.1 us at 4 B against Open
//               MPI's selector's 20.2, 0.43-0.95 of the best from 64 KiB); not on two processes
//               (below); a threshold: the two trees (node-aware on multicore nodes) from that
//               size up;
//   allreduce   on equal multicore nodes, with a commutative operation, at every size
//               Rosched_Allreduce_node_aware's lane all-reduces (36 x 32 ranks, against the
//               best of Open MPI's, MVAPICH2's and MPICH's selectors: 0.16 / 0.28 / 0.33 / 0.46 /
//               0.66 at 4 B / 1 / 4 / 16 / 32 KiB with one lane carrying the vector, 0.84 / 0.68
//               / 0.44 / 0.32 at 64 / 256 KiB / 1 / 4 MiB with the multi-lane all-reduce);
//               elsewhere the n-way dissemination all-reduce (End et al. 2015) up to 2 KiB with a
//               commutative operation (0.29 at 4 B, 0.44 at 1 KiB; 1.47 at 64 KiB), and above
//               2 KiB, with the default rule and
//               a commutative operation, Rosched_Allreduce's own choice (its timed first call:
//               the library's, the census or the reduce-scatter + all-gather, 0.32-0.50 of the
//               best from 64 KiB on 36 x 1 with their rounds streamed, 0.89-0.95 on the flat
//               1,152 with whole rounds);
//   alltoall    Rosched_Alltoall's own choice (since 2026-12-01; before, never: the Bruck
//               variants measured 1.17 of the best at 4-64 B, worse above): its timed first
//               call per size class keeps the library's where that is faster (36 x 1: 1.00 of
//               Open MPI's selector at 4 B-16 KiB); a threshold: the cost rule's algorithm up to
//               that block size;
//   alltoallv   Rosched_Alltoallv's own choice (since 2026-12-01; before, never): the library's
//               for every call where it beat padded Bruck with one byte per block at the first
//               call (36 x 1: 1.00 of the best selector at every size, where the rule alone was
//               7.9-10.1), else a timed first call per size class agreed by one MPI_Allreduce
//               (256 ranks on SimGrid's flat platform: 0.24-0.53 of the best selector up to
//               1 KiB blocks, 1.10 where the library's is faster); no threshold (the ranks'
//               counts differ, so the interposer has no size every rank shares);
//   reduce_scatter_block, reduce_scatter  Rosched_Reduce_scatter(_block)'s own choice (a timed first call of each
//               size class: the circulant reduce-scatter, Träff 2022's Alg. 7 backwards, or for short
//               vectors the n-way all-reduce then the rank's block (0.35-0.68 of the best at
//               4 B-4 KiB), 0.20-0.73
//               of the best selector from 16 KiB of vector on 36 x 1; node-aware on 36 x 32,
//               0.60-0.80 of Open MPI's selector; or the library's), unless a
//               threshold is set (then the circulant reduce-scatter from that size of the whole
//               vector up, commutative operations).
// Routed calls run rosched's node-aware collectives where the ranks sit on several multicore
// nodes (Rosched_Bcast's own choice, Rosched_Bcast_node_aware when forced or above a threshold,
// Rosched_Allgather(v), Rosched_Reduce_node_aware for commutative operations,
// Rosched_Allreduce_node_aware on equal nodes; elsewhere they are the flat schedules
// named above).
// In auto, reductions on non-contiguous datatypes (MPI gives every rank the same datatype; the
// measurements are of contiguous data), calls on one process, or with nothing to send stay with
// the MPI library; inter-communicators always do. The gathers' and exchanges' datatypes do not
// decide: their ranks may each lay the same type signature out in their own way, so a layout
// is not a fact every rank shares (a route by it hung an unmodified program whose odd ranks
// received into a type with gaps, 2026-12-01), and rosched's entry points deliver any layout. So do
// reduce, and allreduce up to 2 KiB, on two processes unless their threshold is set: one
// message or one exchange in any algorithm (measured with Open MPI 4.1 at p = 2: two-tree
// reduce 1.2-2.9x, n-way allreduce 1.6-3.0x of the library's own); a commutative allreduce
// above 2 KiB goes to Rosched_Allreduce's choice there too, whose census, one exchange without
// a copy, took 0.43-0.54 of Open MPI 4.1's time at 64 KiB-1 MiB.
#ifndef ROSCHED_PMPI_POLICY_H_
#define ROSCHED_PMPI_POLICY_H_

#include <array>
#include <cstdint>
#include <string>

namespace rosched::pmpi {

enum class Collective { kBcast, kAllgather, kAllgatherv, kReduce, kAllreduce, kAlltoall,
                        kAlltoallv, kReduceScatterBlock, kReduceScatter };
inline constexpr int kCollectives = 9;
// "bcast", "allgather", ...: the names of ROSCHED_PMPI_ONLY and of the report.
const char* collective_name(Collective c);

// Where a call goes. kModel: the entry point's own choice (Rosched_Bcast, Rosched_Allgather(v),
// Rosched_Reduce, Rosched_Allreduce, Rosched_Reduce_scatter(_block), Rosched_Alltoall(v)); the
// report names what it chose instead (chosen_route). In the report only: kLargest, what Rosched_Allgatherv chose (the
// largest block's broadcast, then Algorithm 9); kKnomial, kCensus, kScatterGather, what
// Rosched_Reduce or Rosched_Allreduce chose (the k-nomial tree, the census, the reduce-scatter +
// gather or all-gather); kScatterAllgather, what Rosched_Bcast chose (the scatter + all-gather).
// kNodeAware: an all-reduce on equal multicore nodes, Rosched_Allreduce_node_aware's
// lanes (also in the report: a node-aware choice of an entry point).
// kLinear: in the report only, an all-to-all's linear exchange (what Rosched_Alltoall(v) ran).
enum class Route {
  kNative, kCirculant, kTwoTree, kNway, kBruck, kHypercube, kModel, kLargest, kKaryTree,
  kNodeAware, kKnomial, kCensus, kScatterGather, kScatterAllgather, kLinear
};
inline constexpr int kRoutes = 15;
const char* route_name(Route r);

// The route an entry point's _choice answer names, for the report (rosched_mpi.h; for reduce and
// allreduce also the answers of the _node_aware_choice queries, which the interposer asks where
// it runs Rosched_Reduce_node_aware or Rosched_Allreduce_node_aware):
//   bcast: 0 native, 1 circulant, 2 Bin Jia's hypercube, 3 two-tree, 4 k-ary tree, 5 scatter +
//          all-gather, 6 k-nomial tree;
//   allgather: 0 native, 1 circulant (node-aware where it applies), 2 n-way (the n-port
//              all-gather);
//   allgatherv: 0 native, 1 circulant (node-aware where it applies), 2 largest, 3 n-way;
//   reduce: 0 native, 1 k-nomial, 2 two-tree, 3 node-aware, 4 circulant;
//   allreduce: 0 native, 1 census, 2 reduce-scatter + all-gather, 3 node-aware (lanes), 4 n-way,
//              5 two-tree, 6 node-aware (reduction, then broadcast), 7 k-nomial (the
//              k-nomial reduction, then the k-nomial broadcast), 8 reduce-scatter + all-gather
//              (on n ports);
//   reduce_scatter_block, reduce_scatter: 0 native, 1 circulant, 2 node-aware, 3 n-way, 4 n-way
//              (the n-port reduce-scatter);
//   alltoall, alltoallv (what the call ran, mpi_exec/last_run.h): 0 native, 1 Bruck,
//              2 linear.
// kModel for an answer out of range or a collective without a _choice query.
Route chosen_route(Collective c, int algorithm);

enum class Mode { kAuto, kOff, kForce };

struct Controls {
  Mode mode = Mode::kAuto;
  std::array<bool, kCollectives> enabled{true, true, true, true, true, true, true, true, true};
  // Size rules of auto (bytes; see the header comment for the direction per collective).
  // kUnset: the default; kNever: never rosched.
  static constexpr std::int64_t kUnset = -1, kNever = -2;
  std::array<std::int64_t, kCollectives> threshold{kUnset, kUnset, kUnset, kUnset,
                                                   kUnset, kUnset, kUnset, kUnset, kUnset};
};

// Parses the three variables (nullptr: unset). Returns "" or a one-line error naming the
// variable and the bad word; controls is then unchanged.
std::string parse_controls(const char* mode, const char* only, const char* threshold,
                           Controls& controls);

// What the interposer knows of a call, identical on every rank.
struct CallFacts {
  int p = 1;
  bool intercomm = false;
  // bcast, reduce, allreduce: count x type size; allgather(v): the whole result; alltoall: one
  // block; alltoallv: unused.
  std::int64_t bytes = 0;
  // Every datatype of the call on this rank is contiguous: a fact of this rank only, except for
  // the reductions (MPI: the same datatype on every rank), the only ones it routes.
  bool contiguous = true;
  bool commutative = true;   // reductions: the operation is commutative
  // allreduce: the ranks sit on several multicore nodes of equal size, where
  // Rosched_Allreduce_node_aware runs the lane all-reduces (asked only where it matters:
  // uses_node_facts).
  bool equal_nodes = false;
};

Route decide(Collective c, const CallFacts& facts, const Controls& controls);

// Whether CallFacts::equal_nodes matters for this call (auto, allreduce enabled and without a
// threshold of the user's, a commutative operation on contiguous data, an intra-communicator of
// p > 1): the interposer asks for the node layout, a collective call at its first use on a
// communicator, only then.
bool uses_node_facts(Collective c, const CallFacts& facts, const Controls& controls);

}  // namespace rosched::pmpi

#endif  // ROSCHED_PMPI_POLICY_H_
