#include "sched/nway/nway_schedule.h"

#include <stdexcept>
#include <string>

namespace rosched {
namespace {

// Adds a message on port j over distance `dist`: `sent` (accumulators, range at the sender) goes
// out, and the receiver folds the same data, shifted by dist, into `into`.
void add_message(NwayRound& r, int j, std::int64_t dist, NwayVector sent, std::uint8_t into) {
  NwayMessage s{j, dist, dist, 1, {sent, {}}};
  NwayMessage v{j, dist, dist, 1, {NwayVector{into, {sent.range.first + dist, sent.range.length}}, {}}};
  r.sends.push_back(s);
  r.recvs.push_back(v);
}
// Adds a second vector to the last message added.
void add_second(NwayRound& r, NwayVector sent, std::uint8_t into) {
  NwayMessage& s = r.sends.back();
  NwayMessage& v = r.recvs.back();
  s.v[1] = sent;
  v.v[1] = NwayVector{into, {sent.range.first + s.distance, sent.range.length}};
  s.vectors = v.vectors = 2;
}

// Every rank sends F (offsets [0, D)) on every port and folds the boxes into F.
NwayRound plain_round(const NwayPlan& plan, int i) {
  NwayRound r;
  const std::int64_t d = plan.power(i);
  for (int j = 1; j <= plan.n(); ++j) add_message(r, j, j * d, {kMain, {0, d}}, kMain);
  return r;
}

NwayRound paper_round(const NwayPlan& plan, int i) {
  const PaperTuple& t = plan.tuple();
  const std::int64_t d = plan.power(i), w = plan.w();
  if (i + 1 < plan.rounds()) {
    NwayRound r = plain_round(plan, i);
    for (NwayMessage& m : r.recvs) {
      const NwayRange box = m.v[0].range;
      // The sender's prefix of length Lsnd (without x) and the take-out's complement.
      if (t.lsnd > 1 && t.lsnd < w && box.first + box.length <= t.lsnd) m.v[0].accs |= kSecond;
      if (t.lrcv > 0 && box.first >= t.lrcv) m.v[0].accs |= kThird;
    }
    return r;
  }
  NwayRound r;
  const std::uint8_t into = t.lrcv == 0 ? kMain : kThird;
  for (int j = 1; j < t.s; ++j) add_message(r, j, j * d, {kMain, {0, d}}, into);
  const std::uint8_t prefix = t.lsnd == w ? kMain : t.lsnd == 1 ? kOwn : kOwn | kSecond;
  add_message(r, static_cast<int>(t.s), t.s * d, {prefix, {0, t.lsnd}}, into);
  return r;
}

NwayRound digits_round(const NwayPlan& plan, int i) {
  const std::int64_t d = plan.power(i), p = plan.p();
  const std::int64_t c = (p / d) % plan.base(), rest = p % d;  // c_i and r_i
  NwayRound r;
  if (c >= 1) r.copy_to = kSecond, r.copy_from = kMain;  // R := F o G_1 ... o G_(c-1) o R'
  const bool last = i + 1 == plan.rounds();
  for (int j = 1; j <= (last ? c - 1 : plan.n()); ++j) {
    const std::uint8_t into = (last ? 0 : kMain) | (j < c ? kSecond : 0);
    add_message(r, j, j * d, {kMain, {0, d}}, into);
    if (j == c && rest > 0) add_second(r, {kSecond, {0, rest}}, kSecond);
  }
  if (last && rest > 0) add_message(r, static_cast<int>(c), c * d, {kSecond, {0, rest}}, kSecond);
  return r;
}

NwayRound circulant_round(const NwayPlan& plan, int i) {
  const std::int64_t s = plan.skip(i), n = plan.n();
  const std::int64_t d = plan.base() * s - plan.skip(i + 1);  // chunks one shorter
  NwayRound r;
  for (int j = 1; j <= n - d; ++j) add_message(r, j, j * s, {kOwn | kSecond, {0, s}}, kSecond);
  if (s == 1) return r;  // E is empty: the shorter chunks carry nothing
  for (std::int64_t m = 1; m <= d; ++m) {
    const std::int64_t start = (n - d + 1) * s + (m - 1) * (s - 1);
    add_message(r, static_cast<int>(n - d + m), start - 1, {kSecond, {1, s - 1}}, kSecond);
  }
  return r;
}

}  // namespace

NwayRound nway_relative_round(const NwayPlan& plan, int i) {
  if (plan.full()) return plain_round(plan, i);
  switch (plan.rule()) {
    case NwayRule::kPaper: return paper_round(plan, i);
    case NwayRule::kDigits: return digits_round(plan, i);
    case NwayRule::kCirculant: return circulant_round(plan, i);
  }
  return {};
}

std::uint8_t nway_result(const NwayPlan& plan) {
  if (plan.full()) return kMain;
  switch (plan.rule()) {
    case NwayRule::kPaper: return plan.tuple().lrcv == 0 ? kMain : kThird;
    case NwayRule::kDigits: return kSecond;
    case NwayRule::kCirculant: return kOwn | kSecond;
  }
  return 0;
}

NwaySchedule::NwaySchedule(const NwayPlan& plan, std::int64_t rank) : plan_(plan), rank_(rank) {
  if (rank < 0 || rank >= plan.p()) {
    throw std::invalid_argument("n-way: rank = " + std::to_string(rank) + " is outside [0, " +
                                std::to_string(plan.p()) + ")");
  }
}

NwaySchedule::NwaySchedule(std::int64_t p, std::int64_t n, NwayRule rule, std::int64_t rank)
    : NwaySchedule(NwayPlan(p, n, rule), rank) {}

NwayRound NwaySchedule::round(int i) const {
  if (i < 0 || i >= rounds()) {
    throw std::out_of_range("n-way: round " + std::to_string(i) + " is outside [0, " +
                            std::to_string(rounds()) + ")");
  }
  NwayRound r = nway_relative_round(plan_, i);
  const std::int64_t p = plan_.p();
  for (NwayMessage& m : r.sends) m.peer = (rank_ + m.distance) % p;
  for (NwayMessage& m : r.recvs) m.peer = ((rank_ - m.distance) % p + p) % p;
  return r;
}

}  // namespace rosched
