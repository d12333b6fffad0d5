#include "sim/nway_reduce_scatter_run.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sched/round.h"

namespace rosched::sim {
namespace {

Counterexample failure(const NwayPlan& plan, const char* kind, int round, std::int64_t expected,
                       std::int64_t actual) {
  return {"nway-reduce-scatter",          kind, plan.p(), 0, round, expected, actual,
          "n=" + std::to_string(plan.n())};
}

// A set of distances in [0, p): sorted, disjoint half-open intervals.
using Distances = std::vector<std::pair<std::int64_t, std::int64_t>>;

// `set` shifted by d (mod p), its intervals split where they wrap, sorted.
Distances shifted(const Distances& set, std::int64_t d, std::int64_t p) {
  Distances out;
  for (const auto& [lo, hi] : set) {
    const std::int64_t a = (lo + d) % p, length = hi - lo;
    if (a + length <= p) {
      out.push_back({a, a + length});
    } else {
      out.push_back({a, p});
      out.push_back({0, a + length - p});
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// a united with b; false where they share a distance (a contribution combined twice).
bool unite(Distances& a, const Distances& b) {
  Distances all;
  all.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(all));
  Distances out;
  for (const auto& iv : all) {
    if (!out.empty() && iv.first < out.back().second) return false;
    if (!out.empty() && iv.first == out.back().second) {
      out.back().second = iv.second;
    } else {
      out.push_back(iv);
    }
  }
  a = std::move(out);
  return true;
}

}  // namespace

std::optional<Counterexample> run_nway_reduce_scatter(const NwayPlan& plan) {
  return run_nway_reduce_scatter(plan, [&](int j) { return nway_reduce_scatter_round(plan, j); });
}

std::optional<Counterexample> run_nway_reduce_scatter(const NwayPlan& plan,
                                                      const NwayAllgatherRoundOf& round_of) {
  const std::int64_t p = plan.p();
  const int k = plan.rounds();
  if (k != ceil_log(p, plan.base())) {
    return failure(plan, "round-count", 0, ceil_log(p, plan.base()), k);
  }
  // held[t]: D_t, the distances x whose rank r - x's contribution offset t holds at rank r.
  std::vector<Distances> held(static_cast<std::size_t>(p), Distances{{0, 1}});
  std::int64_t sent = 0;
  for (int j = 0; j < k; ++j) {
    const std::vector<NwayAllgatherMessage> round = round_of(j);
    if (static_cast<std::int64_t>(round.size()) > plan.n()) {
      return failure(plan, "too-many-ports", j, plan.n(), static_cast<std::int64_t>(round.size()));
    }
    const auto size = static_cast<std::int64_t>(held.size());
    const std::int64_t keep = plan.skip(k - 1 - j);  // what the mirrored all-gather round held
    std::vector<int> given(static_cast<std::size_t>(size), 0);  // times each offset is sent
    std::vector<Distances> next(held.begin(), held.begin() + std::min(keep, size));
    for (std::size_t m = 0; m < round.size(); ++m) {
      const NwayAllgatherMessage& msg = round[m];
      if (msg.port != static_cast<int>(m) + 1) {
        return failure(plan, "port-order", j, static_cast<std::int64_t>(m) + 1, msg.port);
      }
      if (msg.count < 1) return failure(plan, "empty-message", j, 1, msg.count);
      // Rank 0's receive on this port comes from the rank whose send on it goes to rank 0.
      const NwayAllgatherPeers peers = nway_reduce_scatter_peers(plan, 0, msg);
      const std::int64_t back = nway_reduce_scatter_peers(plan, peers.from, msg).to;
      if (back != 0) return failure(plan, "send-mismatch", j, 0, back);
      const std::int64_t d = msg.distance % p;
      if (d + msg.count > size) return failure(plan, "sends-unheld", j, size, d + msg.count);
      if (msg.count > keep) return failure(plan, "combines-unheld", j, keep, msg.count);
      for (std::int64_t t = 0; t < msg.count; ++t) {
        ++given[d + t];
        // The sender, rank -d, sends its offset d + t, covering -d - x for x in D_(d+t):
        // distances d + x from rank 0.
        if (!unite(next[t], shifted(held[d + t], d, p))) {
          return failure(plan, "combined-twice", j, 0, t);
        }
      }
      sent += msg.count;
    }
    for (std::int64_t t = 0; t < size; ++t) {
      const int want = t < keep ? 0 : 1;
      if (given[t] != want) return failure(plan, t < keep ? "sends-kept" : "lost", j, want, t);
    }
    held = std::move(next);
  }
  if (held.size() != 1)
    return failure(plan, "holds-more", k, 1, static_cast<std::int64_t>(held.size()));
  if (held[0] != Distances{{0, p}}) {
    std::int64_t covered = 0;
    for (const auto& [lo, hi] : held[0]) covered += hi - lo;
    return failure(plan, "incomplete", k, p, covered);
  }
  if (sent != p - 1) return failure(plan, "sent-count", k, p - 1, sent);
  return std::nullopt;
}

}  // namespace rosched::sim
