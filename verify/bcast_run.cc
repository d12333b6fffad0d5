#include "verify/bcast_run.h"

#include <vector>

#include "sched/bcast_schedule.h"

namespace rosched::verify {

std::optional<Counterexample> run_bcast(const FullSchedule& f, std::int64_t n,
                                        std::int64_t root) {
  const Skips& s = f.skips();
  const std::int64_t p = s.p();
  const std::string detail = "n=" + std::to_string(n) + " root=" + std::to_string(root);
  const auto fail = [&](const char* kind, std::int64_t rank, std::int64_t round,
                        std::int64_t expected, std::int64_t actual) {
    return Counterexample{"broadcast-run", kind, p, rank, round, expected, actual, detail};
  };
  std::vector<BcastSchedule> ranks;
  ranks.reserve(p);
  for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(s, n, r, root, f.rank(s.mod(r - root)));
  std::vector<std::uint8_t> held(static_cast<std::size_t>(p * n), 0);  // held[r * n + b]
  for (std::int64_t b = 0; b < n; ++b) held[root * n + b] = 1;
  const std::int64_t rounds = ranks[0].rounds();
  std::vector<BcastRound> now(p);
  for (std::int64_t i = 0; i < rounds; ++i) {
    for (std::int64_t r = 0; r < p; ++r) now[r] = ranks[r].round(i);
    for (std::int64_t r = 0; r < p; ++r) {
      if (const auto& snd = now[r].send) {
        const auto& rcv = now[snd->peer].recv;
        if (!rcv || rcv->peer != r) return fail("send-without-receive", r, i, snd->peer, -1);
        if (rcv->block != snd->block) return fail("send-mismatch", r, i, rcv->block, snd->block);
        if (!held[r * n + snd->block]) return fail("send-before-receive", r, i, -1, snd->block);
      }
      if (const auto& rcv = now[r].recv) {
        if (r == root) return fail("root-receives", r, i, -1, rcv->block);
        const auto& snd = now[rcv->peer].send;
        if (!snd || snd->peer != r) return fail("receive-without-send", r, i, rcv->peer, -1);
        if (held[r * n + rcv->block]) return fail("duplicate-block", r, i, -1, rcv->block);
      }
    }
    for (std::int64_t r = 0; r < p; ++r) {
      if (const auto& rcv = now[r].recv) held[r * n + rcv->block] = 1;
    }
  }
  for (std::int64_t r = 0; r < p; ++r) {
    for (std::int64_t b = 0; b < n; ++b) {
      if (!held[r * n + b]) return fail("missing-block", r, rounds, b, -1);
    }
  }
  return std::nullopt;
}

}  // namespace rosched::verify
