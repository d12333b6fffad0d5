#include "sim/nway_allgather_run.h"

#include <string>

#include "sched/round.h"

namespace rosched::sim {
namespace {

Counterexample failure(const NwayPlan& plan, const char* kind, std::int64_t rank, int round,
                       std::int64_t expected, std::int64_t actual) {
  return {"nway-allgather",
          kind,
          plan.p(),
          rank,
          round,
          expected,
          actual,
          "n=" + std::to_string(plan.n())};
}

// What every rank holds: ranks first .. first + length - 1 (mod p).
struct Held {
  std::int64_t first = 0, length = 1;
};

// The round's messages checked on their own: ports 1, 2, ... (at most n), each non-empty.
std::optional<Counterexample> check_ports(const NwayPlan& plan, std::int64_t rank, int i,
                                          const std::vector<NwayAllgatherMessage>& round) {
  if (static_cast<std::int64_t>(round.size()) > plan.n()) {
    return failure(plan, "too-many-ports", rank, i, plan.n(),
                   static_cast<std::int64_t>(round.size()));
  }
  for (std::size_t j = 0; j < round.size(); ++j) {
    if (round[j].port != static_cast<int>(j) + 1) {
      return failure(plan, "port-order", rank, i, static_cast<std::int64_t>(j) + 1, round[j].port);
    }
    if (round[j].count < 1) return failure(plan, "empty-message", rank, i, 1, round[j].count);
  }
  return std::nullopt;
}

// What a rank receiving `m` from `sender` (who holds `from_held` at the round's start) appends
// to `mine`; a counterexample where the peers, the sender's holdings or the continuation are
// wrong.
std::optional<Counterexample> receive(const NwayPlan& plan, std::int64_t rank, int i,
                                      const NwayAllgatherMessage& m, const Held& from_held,
                                      Held& mine) {
  const std::int64_t p = plan.p();
  const NwayAllgatherPeers peers = nway_allgather_peers(plan, rank, m);
  const std::int64_t sender = peers.from;
  // The sender's send on the same port goes to this rank.
  const NwayAllgatherPeers back = nway_allgather_peers(plan, sender, m);
  if (back.to != rank) return failure(plan, "send-mismatch", rank, i, rank, back.to);
  // It sends its first m.count contributions: ranks sender .. sender + count - 1.
  if (from_held.first != sender || from_held.length < m.count) {
    return failure(plan, "sends-unheld", sender, i, m.count, from_held.length);
  }
  const std::int64_t next = (mine.first + mine.length) % p;
  if (sender != next) return failure(plan, "gap-or-overlap", rank, i, next, sender);
  mine.length += m.count;
  if (mine.length > p) return failure(plan, "received-twice", rank, i, p, mine.length);
  return std::nullopt;
}

}  // namespace

std::optional<Counterexample> run_nway_allgather(const NwayPlan& plan) {
  return run_nway_allgather(plan, [&](int i) { return nway_allgather_round(plan, i); });
}

std::optional<Counterexample> run_nway_allgather_local(const NwayPlan& plan,
                                                       const std::vector<std::int64_t>& ranks) {
  return run_nway_allgather_local(
      plan, [&](int i) { return nway_allgather_round(plan, i); }, ranks);
}

std::optional<Counterexample> run_nway_allgather(const NwayPlan& plan,
                                                 const NwayAllgatherRoundOf& round_of) {
  const std::int64_t p = plan.p();
  if (plan.rounds() != ceil_log(p, plan.base())) {
    return failure(plan, "round-count", 0, 0, ceil_log(p, plan.base()), plan.rounds());
  }
  std::vector<Held> held(static_cast<std::size_t>(p));
  for (std::int64_t r = 0; r < p; ++r) held[r].first = r;
  std::vector<std::int64_t> sent(static_cast<std::size_t>(p), 0);
  for (int i = 0; i < plan.rounds(); ++i) {
    const std::vector<NwayAllgatherMessage> round = round_of(i);
    const std::vector<Held> start = held;
    for (std::int64_t r = 0; r < p; ++r) {
      if (auto ce = check_ports(plan, r, i, round)) return ce;
      for (const NwayAllgatherMessage& m : round) {
        const std::int64_t sender = nway_allgather_peers(plan, r, m).from;
        if (auto ce = receive(plan, r, i, m, start[sender], held[r])) return ce;
        sent[sender] += m.count;
      }
    }
  }
  for (std::int64_t r = 0; r < p; ++r) {
    if (held[r].length != p)
      return failure(plan, "incomplete", r, plan.rounds(), p, held[r].length);
    if (sent[r] != p - 1) return failure(plan, "sent-count", r, plan.rounds(), p - 1, sent[r]);
  }
  return std::nullopt;
}

std::optional<Counterexample> run_nway_allgather_local(const NwayPlan& plan,
                                                       const NwayAllgatherRoundOf& round_of,
                                                       const std::vector<std::int64_t>& ranks) {
  const std::int64_t p = plan.p();
  if (plan.rounds() != ceil_log(p, plan.base())) {
    return failure(plan, "round-count", 0, 0, ceil_log(p, plan.base()), plan.rounds());
  }
  for (const std::int64_t r : ranks) {
    Held mine{r, 1};
    std::int64_t sent = 0;
    for (int i = 0; i < plan.rounds(); ++i) {
      const std::vector<NwayAllgatherMessage> round = round_of(i);
      if (auto ce = check_ports(plan, r, i, round)) return ce;
      const std::int64_t length = mine.length;  // every rank's, at the round's start
      for (const NwayAllgatherMessage& m : round) {
        const Held from{nway_allgather_peers(plan, r, m).from, length};
        if (auto ce = receive(plan, r, i, m, from, mine)) return ce;
        sent += m.count;  // this rank sends what its receiver (r - distance) gets: the same
      }
    }
    if (mine.length != p) return failure(plan, "incomplete", r, plan.rounds(), p, mine.length);
    if (sent != p - 1) return failure(plan, "sent-count", r, plan.rounds(), p - 1, sent);
  }
  return std::nullopt;
}

}  // namespace rosched::sim
