#include "tests/reference.h"

#include <optional>
#include <set>

#include "sched/circulant/allgather_schedule.h"
#include "sched/circulant/baseblock.h"
#include "sched/circulant/census_schedule.h"
#include "sched/circulant/reduce_scatter_schedule.h"
#include "sched/circulant/skips.h"

namespace rosched_test {

using rosched::Skips;

std::uint64_t brute_rangeblocks(const std::vector<std::int8_t>& baseblocks, std::int64_t a,
                                std::int64_t b) {
  const std::int64_t p = static_cast<std::int64_t>(baseblocks.size());
  std::uint64_t bits = 0;
  for (std::int64_t r = a;; r = (r + 1) % p) {
    bits |= std::uint64_t{1} << baseblocks[r];
    if (r == b) break;
  }
  return bits;
}

std::string rank_conditions(const Skips& s, std::int64_t r, const rosched::RankSchedule& sched) {
  if (r == 0) return "";
  const int q = s.q();
  const int own = rosched::baseblock(s, r);
  const std::string where = " (p=" + std::to_string(s.p()) + " rank=" + std::to_string(r) + ")";
  std::set<int> previous;
  int own_count = 0;
  for (int k = 0; k < q; ++k) {
    const int b = sched.recv[k];
    if (b == own) {
      ++own_count;
    } else if (b < -q || b >= 0 || b == own - q || !previous.insert(b).second) {
      return "bad receive " + std::to_string(b) + " in round " + std::to_string(k) + where;
    }
  }
  if (own_count != 1) return "baseblock received " + std::to_string(own_count) + " times" + where;
  for (int k = 0; k < q; ++k) {
    if (s.to(r, k) == 0) continue;
    bool held = sched.send[k] == own - q;
    for (int j = 0; j < k; ++j) held = held || sched.send[k] == sched.recv[j];
    if (!held) return "sends unheld block in round " + std::to_string(k) + where;
  }
  return "";
}

std::string simulate_allgather(std::int64_t p) {
  const Skips s(p);
  // buf[r] lists the contribution ids rank r holds, in its buffer order.
  std::vector<std::vector<std::int64_t>> buf(p);
  for (std::int64_t r = 0; r < p; ++r) buf[r] = {r};
  for (int k = 0; k < s.q(); ++k) {
    std::vector<std::vector<std::int64_t>> next = buf;
    for (std::int64_t r = 0; r < p; ++r) {
      const auto round = rosched::allgather_round(s, r, k);
      const auto peer = rosched::allgather_round(s, round.to, k);
      if (peer.from != r || peer.recv_count != round.send_count) {
        return "unmatched all-gather send p=" + std::to_string(p) + " rank=" + std::to_string(r);
      }
      const std::int64_t end = round.send_offset + round.send_count;
      if (end > static_cast<std::int64_t>(buf[r].size())) {
        return "all-gather sends what it does not hold p=" + std::to_string(p);
      }
      auto& dst = next[round.to];
      if (static_cast<std::int64_t>(dst.size()) != peer.recv_offset) {
        return "all-gather receive leaves a gap p=" + std::to_string(p);
      }
      dst.insert(dst.end(), buf[r].begin() + round.send_offset, buf[r].begin() + end);
    }
    buf.swap(next);
  }
  for (std::int64_t r = 0; r < p; ++r) {
    if (static_cast<std::int64_t>(buf[r].size()) != p) {
      return "all-gather ends with " + std::to_string(buf[r].size()) + " contributions p=" +
             std::to_string(p) + " rank=" + std::to_string(r);
    }
    for (std::int64_t j = 0; j < p; ++j) {
      if (buf[r][j] != (r + j) % p) {
        return "all-gather buffer order wrong p=" + std::to_string(p) + " rank=" + std::to_string(r);
      }
    }
  }
  return "";
}

std::string simulate_census(std::int64_t p) {
  const Skips s(p);
  std::vector<std::vector<int>> partial(p, std::vector<int>(p, 0));  // S of each rank
  for (int k = 0; k < s.q(); ++k) {
    std::vector<std::vector<int>> next = partial;
    for (std::int64_t r = 0; r < p; ++r) {
      const auto round = rosched::census_round(s, r, k);
      if (rosched::census_round(s, round.to, k).from != r) {
        return "unmatched census send p=" + std::to_string(p) + " rank=" + std::to_string(r);
      }
      std::vector<int> sent = partial[r];
      if (round.send_includes_own) sent[r] += 1;
      for (std::int64_t j = 0; j < p; ++j) next[round.to][j] += sent[j];
    }
    partial.swap(next);
  }
  for (std::int64_t r = 0; r < p; ++r) {
    partial[r][r] += 1;
    for (std::int64_t j = 0; j < p; ++j) {
      if (partial[r][j] != 1) {
        return "census result of rank " + std::to_string(r) + " counts contribution " +
               std::to_string(j) + " " + std::to_string(partial[r][j]) + " times (p=" +
               std::to_string(p) + ")";
      }
    }
  }
  return "";
}

std::string simulate_reduce_scatter(std::int64_t p) {
  const Skips s(p);
  const std::string where = " (p=" + std::to_string(p) + ")";
  // part[r][b][c]: how often rank r's partial result of block b counts rank c's contribution.
  using Counts = std::vector<unsigned char>;
  std::vector<std::vector<Counts>> part(p, std::vector<Counts>(p, Counts(p, 0)));
  for (std::int64_t r = 0; r < p; ++r) {
    for (std::int64_t b = 0; b < p; ++b) part[r][b][r] = 1;
  }
  for (int j = 0; j < s.q(); ++j) {
    // What every rank sends in round j, taken before any receive of the round.
    std::vector<std::vector<Counts>> sent(p);
    for (std::int64_t r = 0; r < p; ++r) {
      const auto round = rosched::reduce_scatter_round(s, r, j);
      const auto peer = rosched::reduce_scatter_round(s, round.to, j);
      if (peer.from != r || peer.recv_count != round.send_count) {
        return "unmatched reduce-scatter send in round " + std::to_string(j) + where;
      }
      for (std::int64_t i = 0; i < round.send_count; ++i) {
        sent[r].push_back(part[r][(r + round.send_offset + i) % p]);
      }
    }
    for (std::int64_t r = 0; r < p; ++r) {
      const auto round = rosched::reduce_scatter_round(s, r, j);
      for (std::int64_t i = 0; i < round.recv_count; ++i) {
        Counts& into = part[r][(r + round.recv_offset + i) % p];
        for (std::int64_t c = 0; c < p; ++c) into[c] += sent[round.from][i][c];
      }
    }
  }
  for (std::int64_t r = 0; r < p; ++r) {
    for (std::int64_t c = 0; c < p; ++c) {
      if (part[r][r][c] != 1) {
        return "reduce-scatter result of rank " + std::to_string(r) + " counts contribution " +
               std::to_string(c) + " " + std::to_string(part[r][r][c]) + " times" + where;
      }
    }
  }
  return "";
}

}  // namespace rosched_test
