#include "sim/nway_run.h"

#include <array>
#include <string>

namespace rosched::sim {
namespace {

// Ranks hi, hi - 1, ..., hi - len + 1 (mod P); len = 0: empty.
struct Interval {
  std::int64_t hi = 0, len = 0;
  bool operator==(const Interval& o) const { return len == o.len && (len == 0 || hi == o.hi); }
};
using State = std::array<Interval, kNwayAccs>;

class Engine {
 public:
  Engine(const NwayPlan& plan, const NwayRoundOf& round_of)
      : plan_(plan), p_(plan.p()), round_of_(round_of) {}

  std::int64_t mod(std::int64_t x) const { return (x % p_ + p_) % p_; }
  State initial(std::int64_t r) const { return {Interval{r, 1}, Interval{r, 1}, {}, {}}; }
  State shifted(const State& s, std::int64_t by) const {
    State t = s;
    for (Interval& v : t) v.hi = mod(v.hi + by);
    return t;
  }
  Interval of(const NwayRange& range, std::int64_t holder) const {
    return {mod(holder - range.first), range.length};
  }
  // a <- a o b if they are adjacent and disjoint (or one is empty).
  bool fold(Interval& a, const Interval& b) const {
    if (b.len == 0) return true;
    if (a.len == 0) return a = b, true;
    if (a.len + b.len > p_) return false;
    if (mod(a.hi - a.len - b.hi) == 0) return a.len += b.len, true;
    if (mod(b.hi - b.len - a.hi) == 0) return a = {b.hi, a.len + b.len}, true;
    return false;
  }
  std::optional<Interval> combine(const State& s, std::uint8_t accs) const {
    Interval out;
    for (int a = 0; a < kNwayAccs; ++a) {
      if ((accs >> a & 1) && !fold(out, s[a])) return std::nullopt;
    }
    return out;
  }
  Counterexample fail(const char* kind, std::int64_t rank, int round, std::int64_t expected,
                      std::int64_t actual) const {
    return Counterexample{"nway-run", kind, p_, rank, round, expected, actual,
                          "n=" + std::to_string(plan_.n()) + " rule=" + nway_rule_name(plan_.rule())};
  }

  // Ports, peers and vector counts of one direction of a rank's round.
  std::optional<Counterexample> check_shape(const std::vector<NwayMessage>& ms, std::int64_t r,
                                            int i, bool sends) const {
    std::uint64_t used = 0;
    for (const NwayMessage& m : ms) {
      if (m.port < 1 || m.port > plan_.n()) return fail("bad-port", r, i, plan_.n(), m.port);
      if (used >> (m.port - 1) & 1) return fail(sends ? "port-sent-twice" : "port-received-twice", r, i, 1, 2);
      used |= std::uint64_t{1} << (m.port - 1);
      if (m.peer < 0 || m.peer >= p_ || m.peer == r) return fail("bad-peer", r, i, r, m.peer);
      if (m.vectors < 1 || m.vectors > 2) return fail("bad-vector-count", r, i, 1, m.vectors);
    }
    return std::nullopt;
  }
  // The intervals a send carries, from the sender's state, checked against the ranges it names.
  std::optional<Counterexample> sent(const NwayMessage& m, const State& s, std::int64_t r, int i,
                                     std::array<Interval, 2>& out) const {
    for (int v = 0; v < m.vectors; ++v) {
      const std::optional<Interval> x = combine(s, m.v[v].accs);
      if (!x) return fail("send-not-contiguous", r, i, m.port, m.v[v].accs);
      if (x->len == 0) return fail("empty-send", r, i, m.port, 0);
      const Interval named = of(m.v[v].range, r);
      if (!(named == *x)) {
        return named.len != x->len ? fail("send-range-length", r, i, named.len, x->len)
                                   : fail("send-range-first", r, i, m.v[v].range.first, mod(r - x->hi));
      }
      out[v] = *x;
    }
    return std::nullopt;
  }
  // The receiver's view of a message whose data is `data`: same vector count, same ranges.
  std::optional<Counterexample> matches(const NwayMessage& recv, std::int64_t r, int i,
                                        std::int64_t from, int vectors,
                                        const std::array<Interval, 2>& data) const {
    if (from != recv.peer) return fail("recv-without-send", r, i, recv.peer, from);
    if (vectors != recv.vectors) return fail("vector-count-mismatch", r, i, vectors, recv.vectors);
    for (int v = 0; v < vectors; ++v) {
      const Interval named = of(recv.v[v].range, r);
      if (!(named == data[v])) {
        return named.len != data[v].len ? fail("recv-range-length", r, i, data[v].len, named.len)
                                        : fail("recv-range-first", r, i, mod(r - data[v].hi), recv.v[v].range.first);
      }
    }
    return std::nullopt;
  }
  // Copy, then the folds of the received data into a rank's accumulators.
  std::optional<Counterexample> apply(const NwayRound& rd, const std::vector<std::array<Interval, 2>>& data,
                                      State& s, std::int64_t r, int i) const {
    if (rd.copy_to) {
      const std::optional<Interval> x = combine(s, rd.copy_from);
      if (!x) return fail("copy-not-contiguous", r, i, rd.copy_from, 0);
      for (int a = 0; a < kNwayAccs; ++a) {
        if (rd.copy_to >> a & 1) s[a] = *x;
      }
    }
    for (std::size_t k = 0; k < rd.recvs.size(); ++k) {
      const NwayMessage& m = rd.recvs[k];
      for (int v = 0; v < m.vectors; ++v) {
        for (int a = 0; a < kNwayAccs; ++a) {
          if (!(m.v[v].accs >> a & 1)) continue;
          const Interval before = s[a];
          if (!fold(s[a], data[k][v])) {
            return fail("fold-overlap-or-gap", r, i, mod(before.hi - before.len), data[k][v].hi);
          }
        }
      }
    }
    return std::nullopt;
  }
  std::optional<Counterexample> finish(const State& s, std::int64_t r, std::int64_t messages) const {
    const int k = plan_.rounds();
    const std::optional<Interval> x = combine(s, nway_result(plan_));
    if (!x) return fail("result-not-contiguous", r, k, p_, 0);
    if (x->len != p_) return fail("result-incomplete", r, k, p_, x->len);
    if (messages != nway_expected_messages(plan_)) {
      return fail("message-count", r, k, nway_expected_messages(plan_), messages);
    }
    return std::nullopt;
  }
  // rounds() = ceil(log_{n+1} P), counted apart from the plan.
  std::optional<Counterexample> check_rounds() const {
    const int k = ceil_log(p_, plan_.base());
    if (k != plan_.rounds()) return fail("round-count", 0, 0, k, plan_.rounds());
    return std::nullopt;
  }

  const NwayPlan& plan_;
  std::int64_t p_;
  const NwayRoundOf& round_of_;
};

}  // namespace

NwayRoundOf nway_round_of(const NwayPlan& plan) {
  return [plan](std::int64_t r, int i) { return NwaySchedule(plan, r).round(i); };
}

std::int64_t nway_expected_messages(const NwayPlan& plan) {
  if (plan.rule() != NwayRule::kPaper || plan.p() == 1) return nway_min_messages(plan.p(), plan.n());
  return plan.n() * (plan.rounds() - 1) + plan.tuple().s;
}

std::optional<Counterexample> run_nway(const NwayPlan& plan, const NwayRoundOf& round_of) {
  const Engine e(plan, round_of);
  if (auto c = e.check_rounds()) return c;
  const std::int64_t p = plan.p(), slots = plan.n() + 1;
  std::vector<State> state(static_cast<std::size_t>(p));
  for (std::int64_t r = 0; r < p; ++r) state[r] = e.initial(r);
  std::vector<std::int64_t> messages(static_cast<std::size_t>(p), 0);
  struct Slot {
    std::int64_t from = -1;
    int vectors = 0;
    bool taken = false;
    std::array<Interval, 2> data{};
  };
  std::vector<NwayRound> rounds(static_cast<std::size_t>(p));
  std::vector<Slot> inbox;
  std::vector<std::array<Interval, 2>> data;
  for (int i = 0; i < plan.rounds(); ++i) {
    inbox.assign(static_cast<std::size_t>(p * slots), Slot{});
    for (std::int64_t r = 0; r < p; ++r) {
      rounds[r] = round_of(r, i);
      if (auto c = e.check_shape(rounds[r].sends, r, i, true)) return c;
      if (auto c = e.check_shape(rounds[r].recvs, r, i, false)) return c;
      for (const NwayMessage& m : rounds[r].sends) {
        Slot& s = inbox[m.peer * slots + m.port];
        if (s.from >= 0) return e.fail("port-collision", r, i, s.from, m.peer);
        s.from = r, s.vectors = m.vectors;
        if (auto c = e.sent(m, state[r], r, i, s.data)) return c;
        ++messages[r];
      }
    }
    for (std::int64_t r = 0; r < p; ++r) {
      data.clear();
      for (const NwayMessage& m : rounds[r].recvs) {
        Slot& s = inbox[r * slots + m.port];
        if (auto c = e.matches(m, r, i, s.from, s.vectors, s.data)) return c;
        s.taken = true;
        data.push_back(s.data);
      }
      if (auto c = e.apply(rounds[r], data, state[r], r, i)) return c;
    }
    for (std::int64_t r = 0; r < p; ++r) {
      for (std::int64_t j = 1; j < slots; ++j) {
        const Slot& s = inbox[r * slots + j];
        if (s.from >= 0 && !s.taken) return e.fail("send-without-recv", s.from, i, r, j);
      }
    }
  }
  for (std::int64_t r = 0; r < p; ++r) {
    if (auto c = e.finish(state[r], r, messages[r])) return c;
  }
  return std::nullopt;
}

std::optional<Counterexample> run_nway(const NwayPlan& plan) {
  return run_nway(plan, nway_round_of(plan));
}

std::optional<Counterexample> run_nway_local(const NwayPlan& plan, const NwayRoundOf& round_of,
                                             const std::vector<std::int64_t>& ranks) {
  const Engine e(plan, round_of);
  if (auto c = e.check_rounds()) return c;
  for (const std::int64_t r : ranks) {
    State state = e.initial(r);
    std::int64_t messages = 0;
    std::vector<std::array<Interval, 2>> data;
    for (int i = 0; i < plan.rounds(); ++i) {
      const NwayRound me = round_of(r, i);
      if (auto c = e.check_shape(me.sends, r, i, true)) return c;
      if (auto c = e.check_shape(me.recvs, r, i, false)) return c;
      // My sends, and their receivers' view of them.
      for (const NwayMessage& m : me.sends) {
        std::array<Interval, 2> out{};
        if (auto c = e.sent(m, state, r, i, out)) return c;
        ++messages;
        const NwayRound peer = round_of(m.peer, i);
        const NwayMessage* match = nullptr;
        for (const NwayMessage& x : peer.recvs) match = x.port == m.port ? &x : match;
        if (!match) return e.fail("send-without-recv", r, i, m.peer, m.port);
        if (auto c = e.matches(*match, m.peer, i, r, m.vectors, out)) return c;
      }
      // My receives, from the senders' rounds and their (shifted) accumulators.
      data.clear();
      for (const NwayMessage& m : me.recvs) {
        const NwayRound peer = round_of(m.peer, i);
        const NwayMessage* match = nullptr;
        for (const NwayMessage& x : peer.sends) match = x.port == m.port ? &x : match;
        if (!match || match->peer != r) return e.fail("recv-without-send", r, i, m.peer, m.port);
        std::array<Interval, 2> in{};
        if (auto c = e.sent(*match, e.shifted(state, m.peer - r), m.peer, i, in)) return c;
        if (auto c = e.matches(m, r, i, m.peer, match->vectors, in)) return c;
        data.push_back(in);
      }
      if (auto c = e.apply(me, data, state, r, i)) return c;
    }
    if (auto c = e.finish(state, r, messages)) return c;
  }
  return std::nullopt;
}

}  // namespace rosched::sim
