#include "sim/merge_run.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "sched/round.h"

namespace rosched::sim {
namespace {

using merge::MergeOp;
using merge::MergeRound;
using merge::Piece;
using merge::Range;
using merge::Slot;

// What a slot holds: a range, and whether its blocks are still separate (gathered, not merged),
// so that a prefix of it is a range too.
struct Held {
  Range range;
  bool separate = false;
};

// Equal as runs: same count, and the same first rank unless empty.
bool same(const Range& a, const Range& b) {
  return a.count == b.count && (a.count == 0 || a.first == b.first);
}

std::string show(const Range& r, std::int64_t p) {
  if (r.count == 0) return "[] (empty)";
  return "ranks " + std::to_string(r.first) + ".." + std::to_string(merge::cyclic(r.first, r.count - 1, p)) +
         " (" + std::to_string(r.count) + " blocks)";
}

class RankRun {
 public:
  RankRun(std::int64_t p, const MergeRoundOf& round_of, std::int64_t rank)
      : p_(p), rank_(rank), round_of_(round_of) {
    held_[idx(Slot::kOwn)] = {{rank, 1}, true};
  }

  std::optional<Counterexample> run(std::int64_t rounds, const MergeOp& final_op, MergeStats& stats) {
    for (std::int64_t i = 0; i < rounds; ++i) {
      const MergeRound r = round_of_(rank_, i);
      if (auto c = check_sends(r, i)) return c;
      if (auto c = check_partners(r, i)) return c;
      held_[idx(Slot::kRecvMain)] = {r.recv_main ? r.recv_main.range : Range{}, !merged_};
      held_[idx(Slot::kRecvPartial)] = {r.recv_partial ? r.recv_partial.range : Range{}, !merged_};
      for (int k = 0; k < r.op_count; ++k) {
        Held out;
        if (auto c = apply(r.ops[k], i, out)) return c;
        held_[idx(r.ops[k].dst)] = out;
      }
    }
    Held result;
    if (auto c = apply(final_op, rounds, result)) return c;
    if (result.range.count != p_) {
      return fail("missing-blocks", rounds, p_, result.range.count,
                  "the result holds " + show(result.range, p_) + ", lacks the block of rank " +
                      std::to_string(merge::cyclic(result.range.first, result.range.count, p_)));
    }
    if (stats.ranks == 0) {
      stats.min_volume = stats.max_volume = volume_;
      stats.min_work = stats.max_work = work_;
    }
    stats.min_volume = std::min(stats.min_volume, volume_);
    stats.max_volume = std::max(stats.max_volume, volume_);
    stats.min_work = std::min(stats.min_work, work_);
    stats.max_work = std::max(stats.max_work, work_);
    stats.max_message = std::max(stats.max_message, max_message_);
    ++stats.ranks;
    return std::nullopt;
  }

 private:
  static int idx(Slot s) { return static_cast<int>(s); }

  Counterexample fail(const char* kind, std::int64_t round, std::int64_t expected,
                      std::int64_t actual, std::string detail) const {
    return Counterexample{"merge-run", kind, p_, rank_, round, expected, actual, std::move(detail)};
  }

  bool valid(const Range& r) const {
    return r.count >= 0 && r.count <= p_ && r.first >= 0 && r.first < p_;
  }

  std::optional<Counterexample> check_sends(const MergeRound& r, std::int64_t i) {
    std::int64_t message = 0;
    for (const Piece* piece : {&r.send_main, &r.send_partial}) {
      if (!*piece) continue;
      if (piece->slot == Slot::kNone || !valid(piece->range)) {
        return fail("bad-range", i, p_, piece->range.count, "sends " + show(piece->range, p_));
      }
      const Held& h = held_[idx(piece->slot)];
      const bool prefix = h.separate && piece->range.count < h.range.count &&
                          (piece->range.count == 0 || piece->range.first == h.range.first);
      if (!same(h.range, piece->range) && !prefix) {
        return fail("send-not-held", i, h.range.count, piece->range.count,
                    std::string("slot ") + merge::slot_name(piece->slot) + " holds " +
                        show(h.range, p_) + " but the message claims " + show(piece->range, p_));
      }
      message += piece->range.count;
    }
    volume_ += message;
    max_message_ = std::max(max_message_, message);
    return std::nullopt;
  }

  // The two parts of what `sender` sends equal what `receiver` claims to receive.
  std::optional<Counterexample> match(const MergeRound& sends, const MergeRound& receives,
                                      std::int64_t i, std::int64_t sender,
                                      std::int64_t receiver) const {
    const std::pair<const Piece*, const Piece*> parts[] = {{&sends.send_main, &receives.recv_main},
                                                           {&sends.send_partial, &receives.recv_partial}};
    for (const auto& [sent, got] : parts) {
      const bool ok = static_cast<bool>(*sent) == static_cast<bool>(*got) &&
                      (!*sent || same(sent->range, got->range));
      if (!ok) {
        return fail("recv-mismatch", i, *sent ? sent->range.count : -1, *got ? got->range.count : -1,
                    "rank " + std::to_string(sender) + " sends " +
                        (*sent ? show(sent->range, p_) : std::string("nothing")) + ", rank " +
                        std::to_string(receiver) + " expects " +
                        (*got ? show(got->range, p_) : std::string("nothing")));
      }
    }
    return std::nullopt;
  }

  std::optional<Counterexample> check_partners(const MergeRound& r, std::int64_t i) const {
    for (const std::int64_t peer : {r.to, r.from}) {
      if (peer < 0 || peer >= p_) return fail("bad-peer", i, p_, peer, "a partner outside [0, p)");
    }
    const MergeRound at_to = round_of_(r.to, i);
    if (at_to.from != rank_) {
      return fail("send-unmatched", i, rank_, at_to.from,
                  "sends to rank " + std::to_string(r.to) + ", which receives from rank " +
                      std::to_string(at_to.from));
    }
    if (auto c = match(r, at_to, i, rank_, r.to)) return c;
    const MergeRound at_from = round_of_(r.from, i);
    if (at_from.to != rank_) {
      return fail("recv-unmatched", i, rank_, at_from.to,
                  "receives from rank " + std::to_string(r.from) + ", which sends to rank " +
                      std::to_string(at_from.to));
    }
    return match(at_from, r, i, r.from, rank_);
  }

  std::optional<Counterexample> apply(const MergeOp& op, std::int64_t i, Held& out) {
    Range result{};
    bool separate = true;
    for (int j = 0; j < op.sources; ++j) {
      const Slot s = op.src[j];
      if (s == Slot::kNone) return fail("no-source", i, 1, 0, "an operation without a source");
      const Held& h = held_[idx(s)];
      separate = separate && h.separate;
      if (h.range.count == 0) continue;
      if (result.count == 0) {
        result = h.range;
        continue;
      }
      const std::int64_t next = merge::cyclic(result.first, result.count % p_, p_);
      if (result.count + h.range.count > p_) {
        return fail("overlap", i, p_, result.count + h.range.count,
                    std::string("merging ") + merge::slot_name(s) + " = " + show(h.range, p_) +
                        " into " + show(result, p_) + " takes a block twice");
      }
      if (h.range.first != next) {
        return fail("not-adjacent", i, next, h.range.first,
                    std::string("merging ") + merge::slot_name(s) + " = " + show(h.range, p_) +
                        " after " + show(result, p_));
      }
      result.count += h.range.count;
    }
    if (op.tree && !separate) {
      return fail("tree-of-merged", i, 1, 0, "the merge tree needs the separate blocks");
    }
    if (op.concat) {
      out = {result, separate};
      return std::nullopt;
    }
    merged_ = true;
    // A received run taken as it is moves no element (the executor swaps buffers).
    const bool taken = op.sources == 1 && (op.src[0] == Slot::kRecvMain || op.src[0] == Slot::kRecvPartial);
    if (!taken) work_ += op.tree ? result.count * std::max(1, ceil_log2(p_)) : result.count;
    out = {result, result.count <= 1};
    return std::nullopt;
  }

  std::int64_t p_, rank_;
  const MergeRoundOf& round_of_;
  std::array<Held, merge::kSlotCount> held_{};
  bool merged_ = false;  // a merge has run: what arrives from now on is merged, not separate
  std::int64_t volume_ = 0, max_message_ = 0, work_ = 0;
};

// Every rank's MergeSchedule over one shared copy of the plan.
MergeRoundOf default_round_of(const merge::MergePlan& plan) {
  auto shared = std::make_shared<const merge::MergePlan>(plan);
  return [shared](std::int64_t rank, std::int64_t i) {
    return merge::MergeSchedule(shared, rank).round(i);
  };
}

}  // namespace

std::optional<Counterexample> check_merge_rank(std::int64_t p, std::int64_t rounds,
                                               const MergeRoundOf& round_of,
                                               const merge::MergeOp& final_op, std::int64_t rank,
                                               MergeStats& stats) {
  return RankRun(p, round_of, rank).run(rounds, final_op, stats);
}

MergeRunResult run_merge_ranks(const merge::MergePlan& plan, const std::int64_t* ranks,
                               std::int64_t count, const MergeRoundOf& round_of) {
  MergeRunResult out;
  const std::int64_t p = plan.p;
  const auto rounds = static_cast<std::int64_t>(plan.rounds.size());
  if (rounds != ceil_log2(p)) {
    out.counterexample = Counterexample{"merge-run", "round-count", p, 0, rounds, ceil_log2(p),
                                        rounds, "ceil(log2 p) rounds expected"};
    return out;
  }
  const MergeRoundOf walk = round_of ? round_of : default_round_of(plan);
  for (std::int64_t k = 0; k < count && !out.counterexample; ++k) {
    out.counterexample = check_merge_rank(p, rounds, walk, plan.final_op, ranks[k], out.stats);
  }
  return out;
}

MergeRunResult run_merge(const merge::MergePlan& plan, const MergeRoundOf& round_of) {
  std::vector<std::int64_t> all(static_cast<std::size_t>(plan.p));
  for (std::int64_t r = 0; r < plan.p; ++r) all[r] = r;
  return run_merge_ranks(plan, all.data(), plan.p, round_of);
}

}  // namespace rosched::sim
