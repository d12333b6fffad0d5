#include "sim/bruck_run.h"

#include <algorithm>
#include <random>

namespace rosched::sim {
namespace {

using B = BruckBuffer;

int index_of(B b) { return static_cast<int>(b); }

std::string detail_of(const BruckPlan& plan, std::int64_t i, std::int64_t slot) {
  std::string d = "variant=" + bruck_variant_name(plan.variant()) +
                  " radix=" + std::to_string(plan.schedule().radix());
  if (i >= 0) d += " i=" + std::to_string(i);
  if (slot >= 0) d += " slot=" + std::to_string(slot);
  return d;
}

// What a rank finds at relative index i of step `step` (moving there), relative to itself.
struct Expected {
  std::int64_t source, destination;
};
Expected expected_block(const BruckPlan& plan, std::int64_t i, const BruckStep& step) {
  const std::int64_t done = plan.schedule().travelled(i, step);
  return plan.direction() == BruckDirection::kMinus ? Expected{done, done - i}
                                                    : Expected{-done, -done + i};
}

class Tokens {
 public:
  explicit Tokens(const BruckSchedule& s) : s_(s), p_(s.p()) {}
  std::int64_t make(std::int64_t source, std::int64_t destination) const {
    return s_.mod(source) << 32 | s_.mod(destination);
  }
  std::int64_t shift(std::int64_t token, std::int64_t delta) const {
    return token == kNoToken ? kNoToken : make((token >> 32) + delta, (token & 0xFFFFFFFF) + delta);
  }

 private:
  const BruckSchedule& s_;
  std::int64_t p_;
};

Counterexample failure(const BruckPlan& plan, const char* kind, std::int64_t rank,
                       std::int64_t step, std::int64_t expected, std::int64_t actual,
                       std::string detail) {
  return bruck_counterexample("bruck-run", plan, kind, rank, step, expected, actual,
                              std::move(detail));
}

// The state of one rank (relative) or of all ranks, with the checks both runs share.
class SymbolicRun {
 public:
  SymbolicRun(const BruckPlan& plan, std::int64_t ranks)
      : plan_(plan), s_(plan.schedule()), p_(s_.p()), ranks_(ranks), tokens_(s_) {
    for (B b : {B::kSend, B::kRecv, B::kWork, B::kTemp}) {
      if (plan.uses(b)) state_.slots[index_of(b)].assign(p_ * ranks, kNoToken);
      stamp_[index_of(b)].assign(plan.uses(b) ? p_ * ranks : 0, -1);
    }
    for (std::int64_t r = 0; r < ranks; ++r)  // rank r's send slot d: the block (r, d)
      for (std::int64_t d = 0; d < p_; ++d) at(r, B::kSend, d) = tokens_.make(r, d);
  }

  // The token of rank r's physical slot (all ranks) or relative slot (one rank, r = 0).
  std::int64_t& at(std::int64_t r, B b, std::int64_t slot) {
    return state_.slots[index_of(b)][r * p_ + slot];
  }
  std::int64_t slot(const BruckLoc& loc, std::int64_t r) const {
    return ranks_ == 1 ? s_.mod(loc.offset) : plan_.slot(loc, r);
  }

  std::optional<Counterexample> copies(bool before) {
    const std::int64_t n = before ? plan_.pre_copies() : plan_.post_copies();
    const std::int64_t step = before ? -1 : s_.steps();
    for (std::int64_t r = 0; r < ranks_; ++r) {
      for (std::int64_t k = 0; k < n; ++k) {
        const BruckCopy c = before ? plan_.pre_copy(k) : plan_.post_copy(k);
        if (c.to.buffer == B::kSend) {
          return failure(plan_, "writes-send-buffer", r, step, 0, 1, detail_of(plan_, -1, k));
        }
        at(r, c.to.buffer, slot(c.to, r)) = at(r, c.from.buffer, slot(c.from, r));
      }
    }
    return std::nullopt;
  }

  // Rank r's reads of step t (checked), into msg.
  std::optional<Counterexample> read(std::int64_t r, std::int64_t t, const BruckStep& step,
                                     const BruckMutation& m, std::vector<std::int64_t>& msg) {
    msg.clear();
    std::optional<Counterexample> ce;
    s_.for_each_moved(step, [&](std::int64_t i) {
      if (ce) return;
      BruckLoc loc = plan_.read(i, step);
      if (m.read) loc = m.read(r, t, i, loc);
      const std::int64_t j = slot(loc, r);
      const std::int64_t token = at(r, loc.buffer, j);
      const Expected e = expected_block(plan_, i, step);
      const std::int64_t want = tokens_.make(r + e.source, r + e.destination);
      if (token != want) {
        ce = failure(plan_, token == kNoToken ? "reads-empty-slot" : "wrong-block", r, t, want,
                     token, detail_of(plan_, i, j) + " " + bruck_buffer_name(loc.buffer));
        return;
      }
      if (!plan_.packed()) stamp_[index_of(loc.buffer)][r * p_ + j] = t;
      msg.push_back(token);
    });
    return ce;
  }

  // Rank r's writes of step t: msg from its sender, shifted by delta (relative run).
  std::optional<Counterexample> write(std::int64_t r, std::int64_t t, const BruckStep& step,
                                      const BruckMutation& m, const std::vector<std::int64_t>& msg,
                                      std::int64_t delta) {
    std::optional<Counterexample> ce;
    std::size_t k = 0;
    s_.for_each_moved(step, [&](std::int64_t i) {
      if (ce) return;
      BruckLoc loc = plan_.write(i, step);
      if (m.write) loc = m.write(r, t, i, loc);
      const std::int64_t j = slot(loc, r);
      if (loc.buffer == B::kSend) {
        ce = failure(plan_, "writes-send-buffer", r, t, 0, 1, detail_of(plan_, i, j));
        return;
      }
      if (!plan_.packed() && stamp_[index_of(loc.buffer)][r * p_ + j] == t) {
        ce = failure(plan_, "send-receive-overlap", r, t, 0, 1,
                     detail_of(plan_, i, j) + " " + bruck_buffer_name(loc.buffer));
        return;
      }
      at(r, loc.buffer, j) = tokens_.shift(msg[k++], delta);
    });
    return ce;
  }

  // Receive slot s of rank r holds the block (s, r).
  std::optional<Counterexample> final_check() {
    for (std::int64_t r = 0; r < ranks_; ++r) {
      for (std::int64_t q = 0; q < p_; ++q) {
        // (In the relative run r = 0 and slot q is relative: the block from 0 + q.)
        const std::int64_t want = tokens_.make(q, r);
        const std::int64_t token = at(r, B::kRecv, q);
        if (token != want) {
          return failure(plan_, "wrong-final-block", r, s_.steps(), want, token,
                         detail_of(plan_, -1, q) + " recv");
        }
      }
    }
    return std::nullopt;
  }

  BruckState& state() { return state_; }

 private:
  const BruckPlan& plan_;
  const BruckSchedule& s_;
  std::int64_t p_, ranks_;
  Tokens tokens_;
  BruckState state_;
  std::vector<std::int64_t> stamp_[kBruckBuffers];
};

}  // namespace

Counterexample bruck_counterexample(const char* check, const BruckPlan& plan, const char* kind,
                                    std::int64_t rank, std::int64_t step, std::int64_t expected,
                                    std::int64_t actual, std::string detail) {
  Counterexample ce;
  ce.check = check;
  ce.kind = kind;
  ce.p = plan.schedule().p();
  ce.rank = rank;
  ce.round = step;
  ce.expected = expected;
  ce.actual = actual;
  ce.detail = std::move(detail);
  return ce;
}

BruckRunResult run_bruck_relative(const BruckPlan& plan) {
  BruckRunResult result;
  const BruckSchedule& s = plan.schedule();
  SymbolicRun run(plan, 1);
  const BruckMutation none;
  auto& ce = result.counterexample;
  ce = run.copies(true);
  std::vector<std::int64_t> msg;
  for (std::int64_t t = 0; t < s.steps() && !ce; ++t) {
    const BruckStep step = s.step(t);
    ce = run.read(0, t, step, none, msg);
    // The receiver sits at distance -+ d from the sender: tokens shift by +- d.
    const std::int64_t delta =
        plan.direction() == BruckDirection::kMinus ? step.distance : -step.distance;
    if (!ce) ce = run.write(0, t, step, none, msg, delta);
    result.blocks_sent += static_cast<std::int64_t>(msg.size());
  }
  if (!ce) ce = run.copies(false);
  if (!ce) ce = run.final_check();
  result.state = std::move(run.state());
  return result;
}

BruckRunResult run_bruck_all_ranks(const BruckPlan& plan, const BruckMutation& mutation) {
  BruckRunResult result;
  const BruckSchedule& s = plan.schedule();
  const std::int64_t p = s.p();
  SymbolicRun run(plan, p);
  auto& ce = result.counterexample;
  ce = run.copies(true);
  std::vector<std::vector<std::int64_t>> inbox(static_cast<std::size_t>(p));
  std::vector<std::int64_t> msg;
  for (std::int64_t t = 0; t < s.steps() && !ce; ++t) {
    const BruckStep step = s.step(t);
    for (auto& m : inbox) m.clear();
    for (std::int64_t r = 0; r < p && !ce; ++r) {
      ce = run.read(r, t, step, mutation, msg);
      std::int64_t to = s.send_to(r, step, plan.direction());
      if (mutation.send_to) to = mutation.send_to(r, t, to);
      if (!ce && (to < 0 || to >= p || s.recv_from(to, step, plan.direction()) != r)) {
        ce = failure(plan, "partner-mismatch", r, t, s.send_to(r, step, plan.direction()), to,
                     detail_of(plan, -1, -1));
      }
      if (!ce) inbox[static_cast<std::size_t>(to)] = msg;
      if (r == 0) result.blocks_sent += static_cast<std::int64_t>(msg.size());
    }
    for (std::int64_t r = 0; r < p && !ce; ++r) {
      ce = run.write(r, t, step, mutation, inbox[static_cast<std::size_t>(r)], 0);
    }
  }
  if (!ce) ce = run.copies(false);
  if (!ce) ce = run.final_check();
  result.state = std::move(run.state());
  return result;
}

std::optional<Counterexample> compare_bruck_states(const BruckPlan& plan,
                                                   const BruckState& relative,
                                                   const BruckState& all_ranks) {
  const BruckSchedule& s = plan.schedule();
  const std::int64_t p = s.p();
  const Tokens tokens(s);
  for (B b : {B::kSend, B::kRecv, B::kWork, B::kTemp}) {
    const auto& rel = relative.slots[index_of(b)];
    const auto& all = all_ranks.slots[index_of(b)];
    if (rel.empty() && all.empty()) continue;
    for (std::int64_t r = 0; r < p; ++r) {
      for (std::int64_t j = 0; j < p; ++j) {
        const std::int64_t want = tokens.shift(rel[s.mod(j - plan.rank_factor(b) * r)], r);
        if (all[r * p + j] != want) {
          return failure(plan, "asymmetric-state", r, s.steps(), want, all[r * p + j],
                         detail_of(plan, -1, j) + " " + bruck_buffer_name(b));
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace rosched::sim
