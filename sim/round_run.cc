#include "sim/round_run.h"

#include <utility>
#include <vector>

namespace rosched::sim {
namespace {

// Per round: do sends and receives pair up (same peers, same block)? Returns the failure kind.
template <typename Round>
std::optional<Counterexample> match(const std::vector<Round>& now, std::int64_t i,
                                    const std::function<Counterexample(const char*, std::int64_t,
                                                                       std::int64_t, std::int64_t,
                                                                       std::int64_t)>& fail) {
  const auto p = static_cast<std::int64_t>(now.size());
  for (std::int64_t r = 0; r < p; ++r) {
    if (const auto& snd = now[r].send) {
      if (snd->peer < 0 || snd->peer >= p || snd->peer == r) return fail("bad-peer", r, i, -1, snd->peer);
      const auto& rcv = now[snd->peer].recv;
      if (!rcv || rcv->peer != r) return fail("send-without-receive", r, i, snd->peer, -1);
      if (rcv->block != snd->block) return fail("send-mismatch", r, i, rcv->block, snd->block);
    }
    if (const auto& rcv = now[r].recv) {
      if (rcv->peer < 0 || rcv->peer >= p || rcv->peer == r) return fail("bad-peer", r, i, -1, rcv->peer);
      const auto& snd = now[rcv->peer].send;
      if (!snd || snd->peer != r) return fail("receive-without-send", r, i, rcv->peer, -1);
    }
  }
  return std::nullopt;
}

}  // namespace

BcastRun::BcastRun(std::string check, std::string detail, std::int64_t p, std::int64_t n,
                   std::int64_t root)
    : check_(std::move(check)), detail_(std::move(detail)), p_(p), n_(n), root_(root),
      words_((n + 63) / 64), held_(static_cast<std::size_t>(p * words_), 0) {
  for (std::int64_t b = 0; b < n; ++b) held_[root * words_ + (b >> 6)] |= std::uint64_t{1} << (b & 63);
}

Counterexample BcastRun::fail(const char* kind, std::int64_t rank, std::int64_t round,
                              std::int64_t expected, std::int64_t actual) const {
  return Counterexample{check_, kind, p_, rank, round, expected, actual, detail_};
}

std::optional<Counterexample> BcastRun::step(std::int64_t i, const std::vector<Move>& now) {
  // Every send meets the matching receive and vice versa (as match() does for reductions).
  for (std::int64_t r = 0; r < p_; ++r) {
    const Move& m = now[r];
    if (m.send_peer != kNone) {
      if (m.send_peer < 0 || m.send_peer >= p_ || m.send_peer == r) return fail("bad-peer", r, i, -1, m.send_peer);
      const Move& to = now[m.send_peer];
      if (to.recv_peer != r) return fail("send-without-receive", r, i, m.send_peer, -1);
      if (to.recv_block != m.send_block) return fail("send-mismatch", r, i, to.recv_block, m.send_block);
    }
    if (m.recv_peer != kNone) {
      if (m.recv_peer < 0 || m.recv_peer >= p_ || m.recv_peer == r) return fail("bad-peer", r, i, -1, m.recv_peer);
      if (now[m.recv_peer].send_peer != r) return fail("receive-without-send", r, i, m.recv_peer, -1);
    }
  }
  for (std::int64_t r = 0; r < p_; ++r) {
    const Move& m = now[r];
    if (m.send_peer != kNone) {
      if (m.send_block < 0 || m.send_block >= n_) return fail("block-out-of-range", r, i, n_, m.send_block);
      if (!holds(r, m.send_block)) return fail("send-before-receive", r, i, -1, m.send_block);
      rounds_used_ = i + 1;
    }
    if (m.recv_peer != kNone) {
      if (m.recv_block < 0 || m.recv_block >= n_) return fail("block-out-of-range", r, i, n_, m.recv_block);
      if (r == root_) return fail("root-receives", r, i, -1, m.recv_block);
      if (holds(r, m.recv_block)) return fail("duplicate-block", r, i, -1, m.recv_block);
    }
  }
  for (std::int64_t r = 0; r < p_; ++r) {
    const Move& m = now[r];
    if (m.recv_peer != kNone) held_[r * words_ + (m.recv_block >> 6)] |= std::uint64_t{1} << (m.recv_block & 63);
  }
  return std::nullopt;
}

std::optional<Counterexample> BcastRun::finish(std::int64_t rounds) const {
  for (std::int64_t r = 0; r < p_; ++r) {
    for (std::int64_t b = 0; b < n_; ++b) {
      if (!holds(r, b)) return fail("missing-block", r, rounds, b, -1);
    }
  }
  return std::nullopt;
}

RunResult run_reduce_rounds(const std::string& check, const std::string& detail, std::int64_t p,
                            std::int64_t n, std::int64_t root, std::int64_t rounds,
                            const ReduceRoundOf& round_of,
                            const std::function<std::int64_t(std::int64_t)>& order) {
  const auto fail = [&](const char* kind, std::int64_t rank, std::int64_t round,
                        std::int64_t expected, std::int64_t actual) {
    return Counterexample{check, kind, p, rank, round, expected, actual, detail};
  };
  struct Partial {
    std::int64_t lo, hi;  // the interval of the combining order held (without order: 0, count - 1)
    bool sent;
  };
  const bool ordered = static_cast<bool>(order);
  RunResult result;
  std::vector<Partial> acc(static_cast<std::size_t>(p * n));
  for (std::int64_t r = 0; r < p; ++r) {
    const std::int64_t at = ordered ? order(r) : 0;
    for (std::int64_t b = 0; b < n; ++b) acc[r * n + b] = Partial{at, at, false};
  }
  std::vector<ReduceRound> now(p);
  for (std::int64_t i = 0; i < rounds; ++i) {
    for (std::int64_t r = 0; r < p; ++r) now[r] = round_of(r, i);
    if (auto c = match(now, i, fail)) return {c, 0};
    for (std::int64_t r = 0; r < p; ++r) {  // all checks before any state changes
      for (const auto& t : {now[r].send, now[r].recv}) {
        if (t && (t->block < 0 || t->block >= n)) return {fail("block-out-of-range", r, i, n, t->block), 0};
      }
      if (const auto& snd = now[r].send) {
        if (r == root) return {fail("root-sends", r, i, -1, snd->block), 0};
        if (acc[r * n + snd->block].sent) return {fail("sent-twice", r, i, -1, snd->block), 0};
        if (now[r].recv && now[r].recv->block == snd->block) {
          return {fail("sent-while-receiving", r, i, -1, snd->block), 0};
        }
        result.rounds_used = i + 1;
      }
      if (const auto& rcv = now[r].recv) {
        const Partial& mine = acc[r * n + rcv->block];
        const Partial& theirs = acc[rcv->peer * n + rcv->block];
        if (mine.sent) return {fail("receive-after-send", r, i, -1, rcv->block), 0};
        const bool adjacent = now[r].recv_before_own ? theirs.hi + 1 == mine.lo
                                                     : mine.hi + 1 == theirs.lo;
        if (ordered && !adjacent) {
          return {fail("out-of-order", r, i, now[r].recv_before_own ? mine.lo - 1 : mine.hi + 1,
                       now[r].recv_before_own ? theirs.hi : theirs.lo),
                  0};
        }
      }
    }
    for (std::int64_t r = 0; r < p; ++r) {
      if (const auto& rcv = now[r].recv) {
        Partial& mine = acc[r * n + rcv->block];
        const Partial& theirs = acc[rcv->peer * n + rcv->block];
        if (!ordered) mine.hi += theirs.hi - theirs.lo + 1;
        else if (now[r].recv_before_own) mine.lo = theirs.lo;
        else mine.hi = theirs.hi;
      }
    }
    for (std::int64_t r = 0; r < p; ++r) {
      if (const auto& snd = now[r].send) acc[r * n + snd->block].sent = true;
    }
  }
  for (std::int64_t r = 0; r < p; ++r) {
    for (std::int64_t b = 0; b < n; ++b) {
      const Partial& a = acc[r * n + b];
      if (r == root && (a.lo != 0 || a.hi != p - 1)) return {fail("incomplete-result", r, rounds, p - 1, a.hi - a.lo), 0};
      if (r != root && !a.sent) return {fail("never-sent", r, rounds, b, -1), 0};
    }
  }
  return result;
}

}  // namespace rosched::sim
