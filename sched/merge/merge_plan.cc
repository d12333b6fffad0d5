#include "sched/merge/merge_plan.h"

#include <stdexcept>

#include "sched/merge/allgather_merge.h"
#include "sched/merge/circulant_merge.h"
#include "sched/merge/dissemination_merge.h"
#include "sched/round.h"

namespace rosched::merge {

std::string algorithm_name(Algorithm a) {
  switch (a) {
    case Algorithm::kAllgather: return "alg0";
    case Algorithm::kDissemination: return "alg1";
    case Algorithm::kCirculant: return "alg2";
    case Algorithm::kDisseminationPrinted: return "alg1-printed";
  }
  return "?";
}

Algorithm parse_algorithm(const std::string& s) {
  for (const Algorithm a : {Algorithm::kAllgather, Algorithm::kDissemination, Algorithm::kCirculant,
                            Algorithm::kDisseminationPrinted}) {
    if (s == algorithm_name(a)) return a;
  }
  if (s == "0") return Algorithm::kAllgather;
  if (s == "1") return Algorithm::kDissemination;
  if (s == "2") return Algorithm::kCirculant;
  throw std::invalid_argument("merge algorithm '" + s +
                              "' is not one of alg0, alg1, alg2, alg1-printed (or 0, 1, 2)");
}

const char* slot_name(Slot s) {
  switch (s) {
    case Slot::kNone: return "none";
    case Slot::kOwn: return "own";
    case Slot::kAcc: return "acc";
    case Slot::kPartial: return "partial";
    case Slot::kRecvMain: return "recv-main";
    case Slot::kRecvPartial: return "recv-partial";
  }
  return "?";
}

MergePlan make_plan(Algorithm algorithm, std::int64_t p) {
  check_process_count(p, "merge schedule: ");
  switch (algorithm) {
    case Algorithm::kAllgather: return allgather_merge_plan(p);
    case Algorithm::kDissemination: return dissemination_merge_plan(p);
    case Algorithm::kCirculant: return circulant_merge_plan(p);
    case Algorithm::kDisseminationPrinted: return dissemination_printed_plan(p);
  }
  throw std::invalid_argument("unknown merge algorithm");
}

MergeSchedule::MergeSchedule(Algorithm algorithm, std::int64_t p, std::int64_t rank)
    : MergeSchedule(std::make_shared<const MergePlan>(make_plan(algorithm, p)), rank) {}

MergeSchedule::MergeSchedule(std::shared_ptr<const MergePlan> plan, std::int64_t rank)
    : plan_(std::move(plan)), rank_(rank) {
  if (!plan_) throw std::invalid_argument("merge schedule: no plan");
  if (rank < 0 || rank >= plan_->p) {
    throw std::invalid_argument("merge schedule: rank = " + std::to_string(rank) +
                                " is outside [0, " + std::to_string(plan_->p) + ")");
  }
}

MergeRound MergeSchedule::round(std::int64_t i) const {
  if (i < 0 || i >= rounds()) {
    throw std::out_of_range("merge schedule: round " + std::to_string(i) + " is outside [0, " +
                            std::to_string(rounds()) + ")");
  }
  MergeRound r = plan_->rounds[i];
  const std::int64_t p = plan_->p;
  r.to = cyclic(rank_, r.to, p);
  r.from = cyclic(rank_, r.from, p);
  for (Piece* piece : {&r.send_main, &r.send_partial, &r.recv_main, &r.recv_partial}) {
    piece->range.first = cyclic(rank_, piece->range.first, p);
  }
  return r;
}

namespace detail {

PlanBuilder::PlanBuilder(Algorithm a, std::int64_t p) {
  plan_.algorithm = a;
  plan_.p = p;
  held_[static_cast<int>(Slot::kOwn)] = {0, 1};
}

void PlanBuilder::round(std::int64_t d, Slot main, Slot partial, std::int64_t main_count) {
  const std::int64_t p = plan_.p;
  MergeRound r;
  r.to = cyclic(0, -d, p);
  r.from = cyclic(0, d, p);
  if (main != Slot::kNone) {
    Range sent = holds(main);
    if (main_count >= 0) sent.count = main_count;
    r.send_main = {main, sent};
    r.recv_main = {Slot::kRecvMain, {cyclic(sent.first, d, p), sent.count}};
  }
  if (partial != Slot::kNone) {
    const Range sent = holds(partial);
    r.send_partial = {partial, sent};
    r.recv_partial = {Slot::kRecvPartial, {cyclic(sent.first, d, p), sent.count}};
  }
  held_[static_cast<int>(Slot::kRecvMain)] = r.recv_main.range;
  held_[static_cast<int>(Slot::kRecvPartial)] = r.recv_partial.range;
  plan_.distance.push_back(d);
  plan_.rounds.push_back(r);
}

void PlanBuilder::op(Slot dst, const std::vector<Slot>& src, bool concat) {
  MergeRound& r = plan_.rounds.back();
  MergeOp& o = r.ops[r.op_count++];
  o.dst = dst;
  o.concat = concat;
  Range result{holds(src.front()).first, 0};
  for (const Slot s : src) {
    o.src[o.sources++] = s;
    result.count += holds(s).count;
  }
  held_[static_cast<int>(dst)] = result;
}

void PlanBuilder::final_op(const std::vector<Slot>& src, bool tree) {
  MergeOp& o = plan_.final_op;
  o.tree = tree;
  for (const Slot s : src) o.src[o.sources++] = s;
}

}  // namespace detail
}  // namespace rosched::merge
