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

// The first failing block of a step (kind null: none). The per-block loops below only record
// it and stop; the counterexample, with its strings, is built after the loop, out of line, so
// that the loops' bodies stay small enough to inline.
struct Fault {
  const char* kind = nullptr;
  std::int64_t i = 0, slot = 0, expected = 0, actual = 0;
  const char* buffer = nullptr;  // the buffer's name, if the detail names one
};

[[gnu::noinline, gnu::cold]] Counterexample fault_failure(const BruckPlan& plan,
                                                          std::int64_t rank, std::int64_t step,
                                                          const Fault& f) {
  std::string detail = detail_of(plan, f.i, f.slot);
  if (f.buffer) detail += std::string(" ") + f.buffer;
  return failure(plan, f.kind, rank, step, f.expected, f.actual, std::move(detail));
}

// The state of one rank (relative) or of all ranks, with the checks both runs share.
class SymbolicRun {
 public:
  SymbolicRun(const BruckPlan& plan, std::int64_t ranks)
      : plan_(plan), s_(plan.schedule()), p_(s_.p()), ranks_(ranks), tokens_(s_) {
    for (B b : {B::kSend, B::kRecv, B::kWork, B::kTemp}) {
      if (plan.uses(b)) state_.slots[index_of(b)].assign(p_ * ranks, kNoToken);
      // Stamps only for the zero-copy variants: the packed ones read a step before writing it.
      stamp_[index_of(b)].assign(plan.uses(b) && !plan.packed() ? p_ * ranks : 0, -1);
      slots_[index_of(b)] = state_.slots[index_of(b)].data();
      stamps_[index_of(b)] = stamp_[index_of(b)].data();
    }
    for (std::int64_t r = 0; r < ranks; ++r)  // rank r's send slot d: the block (r, d)
      for (std::int64_t d = 0; d < p_; ++d) at(r, B::kSend, d) = tokens_.make(r, d);
  }

  // The token of rank r's physical slot (all ranks) or relative slot (one rank, r = 0).
  std::int64_t& at(std::int64_t r, B b, std::int64_t slot) {
    return slots_[index_of(b)][r * p_ + slot];
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

  // Rank r's reads of step t (checked), into msg (one token per block read, in order).
  std::optional<Counterexample> read(std::int64_t r, std::int64_t t, const BruckStep& step,
                                     const BruckMutation& m, std::vector<std::int64_t>& msg) {
    // Room for every index: for_each_moved lists distinct indices below P (checked all the
    // same, so that a faulty enumeration is reported, not written past the end). Writing through
    // a pointer keeps the vector's end out of the loop (push_back stores it every block); the
    // capacity stays, so resizing back up is a fill of the tail, not an allocation.
    msg.resize(static_cast<std::size_t>(p_));
    std::int64_t* const begin = msg.data();
    std::int64_t* const end = begin + p_;
    std::int64_t* out = begin;
    Fault f;
    const Local l(*this, r);
    l.plan.schedule().for_each_moved(step, [&](std::int64_t i) __attribute__((always_inline)) {
      if (f.kind) return;
      BruckLoc loc = l.plan.read(i, step);
      if (m.read) loc = m.read(r, t, i, loc);
      const std::int64_t j = l.slot(loc);
      const std::int64_t token = l.slots[index_of(loc.buffer)][j];
      const Expected e = expected_block(l.plan, i, step);
      const std::int64_t want = l.tokens.make(r + e.source, r + e.destination);
      if (token != want) {
        f = {token == kNoToken ? "reads-empty-slot" : "wrong-block", i, j, want, token,
             bruck_buffer_name(loc.buffer)};
        return;
      }
      if (out == end) {
        f = {"more-blocks-than-slots", i, j, p_ - 1, p_, nullptr};
        return;
      }
      if (l.stamp) l.stamps[index_of(loc.buffer)][j] = t;
      *out++ = token;
    });
    msg.resize(static_cast<std::size_t>(out - begin));
    if (f.kind) return fault_failure(plan_, r, t, f);
    return std::nullopt;
  }

  // Rank r's writes of step t: msg from its sender, shifted by delta (relative run).
  std::optional<Counterexample> write(std::int64_t r, std::int64_t t, const BruckStep& step,
                                      const BruckMutation& m, const std::vector<std::int64_t>& msg,
                                      std::int64_t delta) {
    Fault f;
    const std::int64_t* in = msg.data();
    const Local l(*this, r);
    l.plan.schedule().for_each_moved(step, [&](std::int64_t i) __attribute__((always_inline)) {
      if (f.kind) return;
      BruckLoc loc = l.plan.write(i, step);
      if (m.write) loc = m.write(r, t, i, loc);
      const std::int64_t j = l.slot(loc);
      if (loc.buffer == B::kSend) {
        f = {"writes-send-buffer", i, j, 0, 1, nullptr};
        return;
      }
      if (l.stamp && l.stamps[index_of(loc.buffer)][j] == t) {
        f = {"send-receive-overlap", i, j, 0, 1, bruck_buffer_name(loc.buffer)};
        return;
      }
      l.slots[index_of(loc.buffer)][j] = l.tokens.shift(*in++, delta);
    });
    if (f.kind) return fault_failure(plan_, r, t, f);
    return std::nullopt;
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
  // What a step's loop over rank r's blocks needs, copied into locals: the loop stores tokens
  // and stamps through int64 pointers, which as far as the compiler knows may alias the
  // schedule's int64 fields, so with members it reloads them for every block.
  struct Local {
    Local(const SymbolicRun& run, std::int64_t r)
        : plan(run.plan_), tokens(plan.schedule()), one_rank(run.ranks_ == 1),
          stamp(!plan.packed()), r(r), base(r * run.p_) {
      for (int b = 0; b < kBruckBuffers; ++b) {
        slots[b] = run.slots_[b] ? run.slots_[b] + base : nullptr;
        stamps[b] = run.stamps_[b] ? run.stamps_[b] + base : nullptr;
      }
    }
    // Rank r's slot of loc, as an index into slots[] and stamps[].
    std::int64_t slot(const BruckLoc& loc) const {
      return one_rank ? plan.schedule().mod(loc.offset) : plan.slot(loc, r);
    }
    const BruckPlan plan;
    const Tokens tokens;
    const bool one_rank, stamp;
    const std::int64_t r, base;
    std::int64_t* slots[kBruckBuffers];  // rank r's slot 0 of each buffer
    std::int64_t* stamps[kBruckBuffers];
  };

  const BruckPlan& plan_;
  const BruckSchedule& s_;
  std::int64_t p_, ranks_;
  Tokens tokens_;
  BruckState state_;
  std::vector<std::int64_t> stamp_[kBruckBuffers];
  // The vectors' data, fixed from construction on (the loops index through these).
  std::int64_t* slots_[kBruckBuffers] = {};
  std::int64_t* stamps_[kBruckBuffers] = {};
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
