// MPI_Reduce over this library's trees: Rosched_Reduce (the k-nomial tree or a pipelined
// reduction, the circulant one for a commutative operation and the two trees otherwise,
// whichever the cost model says is faster for the vector, or the MPI library's own MPI_Reduce
// or, on several multicore nodes, the node-aware reduction, where a timed first call of the size
// class found that faster: library_choice.h), Rosched_Reduce_binomial, Rosched_Reduce_two_tree
// and Rosched_Reduce_circulant (one of them, always), Rosched_Reduce_scatter_gather and
// Rosched_Reduce_nport (the reduce-scatter + gather, circulant or on n ports, always),
// Rosched_Reduce_kary_tree (the k-ary tree broadcast backwards, always),
// Rosched_Reduce_node_aware (the node-aware reduction, reduce_node_aware.cc, where it applies,
// else as Rosched_Reduce). The reductions are in reduce_knomial.cc, reduce_two_tree.cc,
// reduce_circulant.cc, reduce_kary_tree.cc and reduce_scatter_gather.cc.
//
// A non-commutative operation keeps rank order only with the sink 0 (the k-nomial and the two
// trees) or p - 1 (the two trees): for another root the reduction goes to rank 0 and the result
// is then sent to the root (as MPICH does for non-commutative reductions). The circulant and
// the k-ary tree reductions are for commutative operations only.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mpi_exec/allreduce_scatter_gather.h"
#include "mpi_exec/args.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/last_run.h"
#include "mpi_exec/library_choice.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/node_layout.h"
#include "mpi_exec/nway_allreduce.h"
#include "mpi_exec/reduce_node_aware.h"
#include "mpi_exec/reduce_trees.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"
#include "mpi_exec/trial_check.h"
#include "sched/round.h"
#include "sched/two_tree/two_tree_schedule.h"

namespace rosched::mpi {

ReduceTree reduce_tree_for(const CommInfo& comm, int count, const TypeInfo& type,
                           bool commutative) {
  return reduce_trees_for(comm, count, type, commutative).chosen;
}

ReduceTrees reduce_trees_for(const CommInfo& comm, int count, const TypeInfo& type,
                             bool commutative) {
  // Two processes: both trees are the one edge between them, and one message is the fewest.
  if (comm.p <= 2) return {{ReduceTree::kKnomial, 1}, std::nullopt};
  const double bytes = static_cast<double>(count) * type.size;
  // The pipelined reduction: the circulant one takes q - 1 rounds beyond its blocks, the two
  // trees about 2 log2 p, but only the two trees keep rank order.
  const ReduceTree pipelined{commutative ? ReduceTree::kCirculant : ReduceTree::kTwoTree, 0};
  // Beyond the largest size the model measured below the eager limit, its time of a whole
  // vector is interpolated across the step to the rendezvous protocol and comes out too low
  // (SMPI, flat platform, p = 64: the binomial tree takes 84 us at 60 KiB and 173 us at 64 KiB,
  // the two trees 69 and 70 us). The k-nomial tree is for short vectors anyway.
  if (bytes > kModelSizes[kEagerPoint]) return {pipelined, std::nullopt};
  // ROSCHED_REDUCE_PORTS: the k-nomial tree with those ports.
  if (settings().reduce_ports > 0) {
    return {{ReduceTree::kKnomial, std::min(settings().reduce_ports, comm.p - 1)}, std::nullopt};
  }
  const CostModel& model = cost_model(comm);
  const int ports = knomial_ports_for(model, comm.p, bytes);
  const double pipelined_time =
      commutative ? circulant_reduce_time(model, comm.p, bytes,
                                          circulant_reduce_pipeline(comm, count, type).n)
                  : pipeline_time(model, bytes, two_tree_reduce_extra(comm.p),
                                  two_tree_pipeline(comm, count, type).n);
  const ReduceTree knomial{ReduceTree::kKnomial, ports};
  if (knomial_time(model, comm.p, ports, bytes) <= pipelined_time) return {knomial, pipelined};
  return {pipelined, knomial};
}

int tree_answer(const ReduceTree& tree) {
  switch (tree.kind) {
    case ReduceTree::kKnomial:
      return kReduceKnomial;
    case ReduceTree::kTwoTree:
      return kReduceTwoTree;
    case ReduceTree::kCirculant:
      return kReduceCirculant;
    case ReduceTree::kScatterGather:
      return kReduceScatterGather;
    case ReduceTree::kNportScatterGather:
      return kReduceNportScatterGather;
    case ReduceTree::kKaryTree:
      return kReduceKaryTree;
  }
  return kReduceKnomial;
}

void* accumulator(const CommInfo& ci, int root, void* recvbuf, int count, const TypeInfo& type,
                  std::optional<ScratchBuffer>& scratch) {
  return ci.rank == root ? recvbuf : scratch.emplace(type, count).data();
}

void tree_reduce(const ReduceTree& tree, const void* own, void* acc, int count,
                 MPI_Datatype datatype, const TypeInfo& type, MPI_Op op, int sink,
                 const CommInfo& comm) {
  if (count == 0) return;
  if (comm.p == 1) {  // nothing to reduce: own is the result
    if (own != nullptr) local_copy(own, acc, count, datatype);
    return;
  }
  if (tree.kind == ReduceTree::kKnomial) {
    knomial_reduce(own, acc, count, datatype, type, op, tree.ports, sink, comm);
  } else if (tree.kind == ReduceTree::kCirculant) {
    circulant_reduce(own, acc, count, datatype, type, op, sink, comm);
  } else if (tree.kind == ReduceTree::kKaryTree) {
    kary_tree_reduce(own, acc, count, datatype, type, op, sink, comm);
  } else if (tree.kind == ReduceTree::kScatterGather) {
    if (own != nullptr) local_copy(own, acc, count, datatype);
    scatter_gather_reduce(acc, count, datatype, type, op, sink, comm);
  } else if (tree.kind == ReduceTree::kNportScatterGather) {
    if (own != nullptr) local_copy(own, acc, count, datatype);
    nport_scatter_gather_reduce(acc, count, datatype, type, op, sink, comm);
  } else {
    two_tree_reduce(own, acc, count, datatype, type, op, sink, comm);
  }
}

bool is_commutative(MPI_Op op) {
  int commutative = 0;
  check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
  return commutative != 0;
}

ReduceDecision reduce_decision(const CommInfo& ci, bool choose, int count, const TypeInfo& type,
                               MPI_Op op, bool commutative) {
  ReduceDecision d;
  // the trial's: 1 rosched's tree, 2 node-aware, 3 reduce-scatter + gather, 4 the other tree,
  // 5 the n-port reduce-scatter + gather, 6 the k-ary tree reduction
  int answer = 1;
  if (choose && ci.p > 1) {
    const Verdict verdict = library_verdict(ci, Decided::kReduce, settings().reduce, count,
                                            type.size, [] { return true; }, &answer);
    if (verdict == Verdict::kLibrary) return d;  // kReduceLibrary
    d.timed = verdict == Verdict::kTimeBoth;
    // On several multicore nodes, for a commutative operation, the node-aware reduction (the
    // trial's answer 2; asked from p = 4 on: the node layout is a collective at its first use).
    if ((d.timed || answer == 2) && ci.p >= 4) {
      d.node_aware_applies = node_aware_reduce_applies(ci, op);
    }
    if (!d.timed && answer == 2 && d.node_aware_applies) {
      d.answer = kReduceNodeAware;
      return d;
    }
  }
  const ReduceTrees trees = reduce_trees_for(ci, count, type, commutative);
  d.tree = trees.chosen;
  // The reduce-scatter + gather reduction: timed beside the pipelined circulant one (long
  // vectors, commutative operations), where every block holds an element.
  d.scatter_gather_applies =
      choose && d.tree.kind == ReduceTree::kCirculant && count >= ci.p;
  // The n-port reduce-scatter + gather: timed where the n-port all-gather's rule finds ports
  // worth it for the blocks (commutative operations, p > 2) and the node-aware reduction does
  // not apply, as Rosched_Allreduce times the n-port all-reduce where its lanes do not (over all
  // ranks a node's network link would carry every one of its ranks' messages, which the lanes
  // carry once).
  d.nport_applies =
      choose && commutative && ci.p > 2 &&
      (d.timed ? !d.node_aware_applies &&
                     nport_reduce_scatter_pays(ci, static_cast<double>(count) * type.size)
               : answer == 5);
  // The k-ary tree reduction: timed beside the pipelined circulant one (long vectors,
  // commutative operations, p > 2), where the node-aware reduction does not apply (it keeps a
  // node's ranks off the network link), as the k-ary tree broadcast is timed beside the
  // circulant broadcast.
  d.kary_applies = choose && d.tree.kind == ReduceTree::kCirculant && ci.p > 2 &&
                   (d.timed ? !d.node_aware_applies : answer == 6);
  if (choose && trees.other) {
    if (d.timed) d.other_tree = trees.other;
    if (!d.timed && answer == 4) d.tree = *trees.other;
  }
  d.answer = tree_answer(d.tree);
  if (!d.timed && answer == 3 && d.scatter_gather_applies) {
    d.answer = kReduceScatterGather;
    d.tree = {ReduceTree::kScatterGather, 0};
  }
  if (!d.timed && answer == 5 && d.nport_applies) {
    d.answer = kReduceNportScatterGather;
    d.tree = {ReduceTree::kNportScatterGather, 0};
  }
  if (!d.timed && answer == 6 && d.kary_applies) {
    d.answer = kReduceKaryTree;
    d.tree = {ReduceTree::kKaryTree, 0};
  }
  return d;
}

int node_aware_reduce_answer(const CommInfo& ci, int count, const TypeInfo& type, MPI_Op op) {
  return node_aware_reduce_applies(ci, op)
             ? kReduceNodeAware
             : reduce_decision(ci, false, count, type, op, is_commutative(op)).answer;
}

}  // namespace rosched::mpi

namespace {

enum class Algorithm {
  kChosen,
  kBinomial,
  kTwoTree,
  kCirculant,
  kScatterGather,
  kNport,
  kKaryTree,
  kNodeAware
};

// A tree's name in the trial's report (ROSCHED_VERBOSE).
const char* tree_name(const rosched::mpi::ReduceTree& tree) {
  using rosched::mpi::ReduceTree;
  switch (tree.kind) {
    case ReduceTree::kKnomial:
      return "k-nomial tree";
    case ReduceTree::kTwoTree:
      return "two trees";
    case ReduceTree::kCirculant:
      return "circulant reduction";
    case ReduceTree::kScatterGather:
      return "reduce-scatter + gather";
    case ReduceTree::kNportScatterGather:
      return "n-port reduce-scatter + gather";
    case ReduceTree::kKaryTree:
      return "k-ary tree reduction";
  }
  return "tree";
}

int reduce(const char* name, Algorithm algorithm, const void* sendbuf, void* recvbuf, int count,
           MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm) {
  using namespace rosched::mpi;
  return run_collective(name, comm, [&](const CommInfo& ci) {
    const int p = ci.p, rank = ci.rank;
    const MPI_Comm c = ci.c;
    const bool in_place = sendbuf == MPI_IN_PLACE;
    bool commutative = false;  // asked once the operation is known valid
    Agreement agreement;
    agreement.same("root", root, MPI_ERR_ROOT).same("count", count, MPI_ERR_COUNT);
    const TypeInfo type = check_arguments(c, agreement, [&] {
      check_root(root, p);
      if (in_place && rank != root) {
        throw Error(MPI_ERR_ARG, "sendbuf = MPI_IN_PLACE off the root (root only)");
      }
      if (rank == root) check_not_aliased(sendbuf, recvbuf, count, MPI_ERR_ARG);
      const TypeInfo checked = check_reduction(count, datatype, op);
      commutative = is_commutative(op);
      if ((algorithm == Algorithm::kCirculant || algorithm == Algorithm::kScatterGather ||
           algorithm == Algorithm::kNport || algorithm == Algorithm::kKaryTree) &&
          !commutative) {
        throw Error(MPI_ERR_OP, std::string(name) + " needs a commutative operation");
      }
      return checked;
    });
    // Rosched_Reduce and Rosched_Reduce_node_aware record what they ran (last_run.h).
    const bool records = algorithm == Algorithm::kChosen || algorithm == Algorithm::kNodeAware;
    if (count == 0) {
      if (records) set_last_run(Decided::kReduce, kNothingRan);
      return;
    }
    const void* own = in_place ? nullptr : sendbuf;  // nullptr: in the root's recvbuf
    if (algorithm == Algorithm::kNodeAware &&
        node_aware_reduce_on(ci, own, recvbuf, count, datatype, type, op, root)) {
      set_last_run(Decided::kReduce, kReduceNodeAware);
      return;
    }
    // The reduction over `tree` of `contribution` (nullptr: in the root's recvbuf).
    const auto by_tree = [&](const ReduceTree& tree, const void* contribution) {
      const bool keeps_order =
          (tree.kind == ReduceTree::kKnomial || tree.kind == ReduceTree::kTwoTree) &&
          (root == 0 || (tree.kind == ReduceTree::kTwoTree && root == p - 1));
      const int sink = commutative || keeps_order ? root : 0;
      if (tree.kind == ReduceTree::kKnomial && sink == root) {  // no copy where none is needed
        knomial_reduce(contribution, rank == root ? recvbuf : nullptr, count, datatype, type, op,
                       tree.ports, sink, ci);
        return;
      }
      std::optional<ScratchBuffer> scratch;
      void* acc = accumulator(ci, root, recvbuf, count, type, scratch);
      tree_reduce(tree, contribution, acc, count, datatype, type, op, sink, ci);
      if (sink != root) {
        if (rank == sink) {
          check(PMPI_Send(acc, count, datatype, root, tag::kReduceToRoot, c), "MPI_Send");
        } else if (rank == root) {
          check(PMPI_Recv(recvbuf, count, datatype, sink, tag::kReduceToRoot, c, MPI_STATUS_IGNORE),
                "MPI_Recv");
        }
      }
    };
    if (algorithm == Algorithm::kBinomial) return by_tree({ReduceTree::kKnomial, 1}, own);
    if (algorithm == Algorithm::kTwoTree) return by_tree({ReduceTree::kTwoTree, 0}, own);
    if (algorithm == Algorithm::kCirculant) return by_tree({ReduceTree::kCirculant, 0}, own);
    if (algorithm == Algorithm::kScatterGather) {
      return by_tree({ReduceTree::kScatterGather, 0}, own);
    }
    if (algorithm == Algorithm::kNport) return by_tree({ReduceTree::kNportScatterGather, 0}, own);
    if (algorithm == Algorithm::kKaryTree) return by_tree({ReduceTree::kKaryTree, 0}, own);
    // Rosched_Reduce (and _node_aware where that does not apply): the library's MPI_Reduce, or
    // the node-aware reduction, where a trial found them faster (library_choice.h).
    const ReduceDecision decision =
        reduce_decision(ci, algorithm == Algorithm::kChosen, count, type, op, commutative);
    int ran = decision.answer;
    if (decision.answer == kReduceLibrary) {
      tell_choice(ci, name, "native MPI_Reduce", 0, 0, static_cast<double>(count) * type.size);
      check_on(ci.user, PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, ci.user),
               "MPI_Reduce");
      library_repeat(Decided::kReduce).remember(ci, count, datatype, op);
    } else if (decision.timed) {
      // In place, the root's input is recvbuf, which every trial overwrites: a copy of it is
      // the input of every candidate.
      std::optional<ScratchBuffer> input;
      if (in_place) local_copy(recvbuf, input.emplace(type, count).data(), count, datatype);
      const void* in = in_place ? input->data() : sendbuf;
      std::vector<Candidate> candidates = {
          {"native MPI_Reduce",
           [&] {
             check_on(ci.user, PMPI_Reduce(in, recvbuf, count, datatype, op, root, ci.user),
                      "MPI_Reduce");
           }},
          {tree_name(decision.tree), [&] { by_tree(decision.tree, in); }},
          {"node-aware", nullptr},
          {"reduce-scatter + gather", nullptr},
          {decision.other_tree ? tree_name(*decision.other_tree) : "other tree", nullptr},
          {"n-port reduce-scatter + gather", nullptr},
          {"k-ary tree reduction", nullptr}};
      if (decision.node_aware_applies) {  // answer 2
        candidates[2].run = [&] {
          node_aware_reduce_on(ci, in, recvbuf, count, datatype, type, op, root);
        };
      }
      if (decision.scatter_gather_applies) {  // answer 3
        candidates[3].run = [&] { by_tree({ReduceTree::kScatterGather, 0}, in); };
      }
      if (decision.other_tree) {  // answer 4
        candidates[4].run = [&] { by_tree(*decision.other_tree, in); };
      }
      if (decision.nport_applies) {  // answer 5
        candidates[5].run = [&] { by_tree({ReduceTree::kNportScatterGather, 0}, in); };
      }
      if (decision.kary_applies) {  // answer 6
        candidates[6].run = [&] { by_tree({ReduceTree::kKaryTree, 0}, in); };
      }
      // ROSCHED_DEBUG: every candidate's result at the root checked where it is exact.
      std::vector<ResultPart> result;
      if (ci.rank == root && exact_reduction(datatype, op)) {
        result.push_back({recvbuf, count, datatype});
      }
      // The winner in Rosched_Reduce_choice's numbers (answers 1 and 4 are the trees').
      static constexpr int kTrialAnswer[] = {kReduceLibrary,       0, kReduceNodeAware,
                                             kReduceScatterGather, 0, kReduceNportScatterGather,
                                             kReduceKaryTree};
      const int winner = time_checked_choices(ci, name, Decided::kReduce, count, type.size,
                                              std::move(candidates), result);
      ran = winner == 1   ? decision.answer
            : winner == 4 ? tree_answer(*decision.other_tree)
                          : kTrialAnswer[winner];
    } else if (decision.answer == kReduceNodeAware) {
      node_aware_reduce_on(ci, own, recvbuf, count, datatype, type, op, root);
    } else {
      by_tree(decision.tree, own);
    }
    set_last_run(Decided::kReduce, ran);
  });
}

}  // namespace

extern "C" int Rosched_Reduce(const void* sendbuf, void* recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm) {
  using namespace rosched::mpi;
  const LibraryRepeat& last = library_repeat(Decided::kReduce);
  // A repeat of the last call handed to the library, or an inter-communicator: the library's.
  if ((last.match(comm, count, datatype, op) && root >= 0 && root < last.p() &&
       (sendbuf != MPI_IN_PLACE || root == last.rank())) ||
      inter_communicator(comm)) {
    return library_ran(Decided::kReduce, "Rosched_Reduce", comm,
                       PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm),
                       "MPI_Reduce");
  }
  return reduce("Rosched_Reduce", Algorithm::kChosen, sendbuf, recvbuf, count, datatype, op, root,
                comm);
}

extern "C" int Rosched_Reduce_binomial(const void* sendbuf, void* recvbuf, int count,
                                       MPI_Datatype datatype, MPI_Op op, int root,
                                       MPI_Comm comm) {
  return reduce("Rosched_Reduce_binomial", Algorithm::kBinomial, sendbuf, recvbuf, count, datatype,
                op, root, comm);
}

extern "C" int Rosched_Reduce_two_tree(const void* sendbuf, void* recvbuf, int count,
                                       MPI_Datatype datatype, MPI_Op op, int root,
                                       MPI_Comm comm) {
  return reduce("Rosched_Reduce_two_tree", Algorithm::kTwoTree, sendbuf, recvbuf, count, datatype,
                op, root, comm);
}

extern "C" int Rosched_Reduce_circulant(const void* sendbuf, void* recvbuf, int count,
                                        MPI_Datatype datatype, MPI_Op op, int root,
                                        MPI_Comm comm) {
  return reduce("Rosched_Reduce_circulant", Algorithm::kCirculant, sendbuf, recvbuf, count,
                datatype, op, root, comm);
}

extern "C" int Rosched_Reduce_scatter_gather(const void* sendbuf, void* recvbuf, int count,
                                             MPI_Datatype datatype, MPI_Op op, int root,
                                             MPI_Comm comm) {
  return reduce("Rosched_Reduce_scatter_gather", Algorithm::kScatterGather, sendbuf, recvbuf, count,
                datatype, op, root, comm);
}

extern "C" int Rosched_Reduce_nport(const void* sendbuf, void* recvbuf, int count,
                                    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm) {
  return reduce("Rosched_Reduce_nport", Algorithm::kNport, sendbuf, recvbuf, count, datatype, op,
                root, comm);
}

extern "C" int Rosched_Reduce_kary_tree(const void* sendbuf, void* recvbuf, int count,
                                        MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm) {
  return reduce("Rosched_Reduce_kary_tree", Algorithm::kKaryTree, sendbuf, recvbuf, count, datatype,
                op, root, comm);
}

extern "C" int Rosched_Reduce_node_aware(const void* sendbuf, void* recvbuf, int count,
                                         MPI_Datatype datatype, MPI_Op op, int root,
                                         MPI_Comm comm) {
  return reduce("Rosched_Reduce_node_aware", Algorithm::kNodeAware, sendbuf, recvbuf, count,
                datatype, op, root, comm);
}

extern "C" int Rosched_Reduce_choice(MPI_Comm comm, int count, MPI_Datatype datatype, MPI_Op op,
                                     int* algorithm) {
  using namespace rosched::mpi;
  if (inter_communicator(comm)) return library_answer("Rosched_Reduce_choice", comm, algorithm);
  return reduction_choice("Rosched_Reduce_choice", comm, count, datatype, op, algorithm,
                          [&](const CommInfo& ci, const TypeInfo& type) {
                            return reduce_decision(ci, true, count, type, op, is_commutative(op))
                                .answer;
                          });
}

extern "C" int Rosched_Reduce_node_aware_choice(MPI_Comm comm, int count, MPI_Datatype datatype,
                                                MPI_Op op, int* algorithm) {
  using namespace rosched::mpi;
  return reduction_choice("Rosched_Reduce_node_aware_choice", comm, count, datatype, op,
                          algorithm, [&](const CommInfo& ci, const TypeInfo& type) {
                            return node_aware_reduce_answer(ci, count, type, op);
                          });
}
