#include "sim/round_run.h"

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace rosched::sim {

namespace {

// Every send of round i meets the matching receive (peer and block) and vice versa; peers in
// range and not the rank itself. now[r]: rank r's move (BcastRun::Move or ReduceRun::Move, kNone
// for nothing); fail(kind, rank, round, expected, actual) makes the counterexample.
template <typename Move, typename Fail>
std::optional<Counterexample> match(const std::vector<Move>& now, std::int64_t i, Fail&& fail) {
  constexpr std::int64_t kNone = BcastRun::kNone;
  static_assert(ReduceRun::kNone == kNone, "both runs mark an empty transfer alike");
  const auto p = static_cast<std::int64_t>(now.size());
  for (std::int64_t r = 0; r < p; ++r) {
    const Move& m = now[r];
    if (m.send_peer != kNone) {
      if (m.send_peer < 0 || m.send_peer >= p || m.send_peer == r) return fail("bad-peer", r, i, -1, m.send_peer);
      const Move& to = now[m.send_peer];
      if (to.recv_peer != r) return fail("send-without-receive", r, i, m.send_peer, -1);
      if (to.recv_block != m.send_block) return fail("send-mismatch", r, i, to.recv_block, m.send_block);
    }
    if (m.recv_peer != kNone) {
      if (m.recv_peer < 0 || m.recv_peer >= p || m.recv_peer == r) return fail("bad-peer", r, i, -1, m.recv_peer);
      if (now[m.recv_peer].send_peer != r) return fail("receive-without-send", r, i, m.recv_peer, -1);
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
  if (std::optional<Counterexample> c = match(now, i, [this](auto... a) { return fail(a...); })) {
    return c;
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

ReduceRun::ReduceRun(std::string check, std::string detail, std::int64_t p, std::int64_t n,
                     std::int64_t root, const std::function<std::int64_t(std::int64_t)>& order)
    : check_(std::move(check)), detail_(std::move(detail)), p_(p), n_(n), root_(root),
      ordered_(static_cast<bool>(order)),
      lo_(static_cast<std::size_t>(p * n)),
      hi_(static_cast<std::size_t>(p * n)),
      sent_(static_cast<std::size_t>(p * n), 0) {
  for (std::int64_t r = 0; r < p; ++r) {
    const std::int64_t at = ordered_ ? order(r) : 0;
    for (std::int64_t b = 0; b < n; ++b) lo_[r * n + b] = hi_[r * n + b] = at;
  }
}

Counterexample ReduceRun::fail(const char* kind, std::int64_t rank, std::int64_t round,
                               std::int64_t expected, std::int64_t actual) const {
  return Counterexample{check_, kind, p_, rank, round, expected, actual, detail_};
}

std::optional<Counterexample> ReduceRun::step(std::int64_t i, const std::vector<Move>& now) {
  if (std::optional<Counterexample> c = match(now, i, [this](auto... a) { return fail(a...); })) {
    return c;
  }
  for (std::int64_t r = 0; r < p_; ++r) {  // all checks before any state changes
    const Move& m = now[r];
    if (m.send_peer != kNone && (m.send_block < 0 || m.send_block >= n_)) return fail("block-out-of-range", r, i, n_, m.send_block);
    if (m.recv_peer != kNone && (m.recv_block < 0 || m.recv_block >= n_)) return fail("block-out-of-range", r, i, n_, m.recv_block);
    if (m.send_peer != kNone) {
      if (r == root_) return fail("root-sends", r, i, -1, m.send_block);
      if (sent_[r * n_ + m.send_block]) return fail("sent-twice", r, i, -1, m.send_block);
      if (m.recv_peer != kNone && m.recv_block == m.send_block) {
        return fail("sent-while-receiving", r, i, -1, m.send_block);
      }
      rounds_used_ = i + 1;
    }
    if (m.recv_peer != kNone) {
      const std::int64_t mine = r * n_ + m.recv_block, theirs = m.recv_peer * n_ + m.recv_block;
      if (sent_[mine]) return fail("receive-after-send", r, i, -1, m.recv_block);
      const bool adjacent = m.recv_before_own ? hi_[theirs] + 1 == lo_[mine]
                                              : hi_[mine] + 1 == lo_[theirs];
      if (ordered_ && !adjacent) {
        return fail("out-of-order", r, i, m.recv_before_own ? lo_[mine] - 1 : hi_[mine] + 1,
                    m.recv_before_own ? hi_[theirs] : lo_[theirs]);
      }
    }
  }
  for (std::int64_t r = 0; r < p_; ++r) {
    const Move& m = now[r];
    if (m.recv_peer == kNone) continue;
    const std::int64_t mine = r * n_ + m.recv_block, theirs = m.recv_peer * n_ + m.recv_block;
    if (!ordered_) hi_[mine] += hi_[theirs] - lo_[theirs] + 1;
    else if (m.recv_before_own) lo_[mine] = lo_[theirs];
    else hi_[mine] = hi_[theirs];
  }
  for (std::int64_t r = 0; r < p_; ++r) {
    if (now[r].send_peer != kNone) sent_[r * n_ + now[r].send_block] = 1;
  }
  return std::nullopt;
}

std::optional<Counterexample> ReduceRun::finish(std::int64_t rounds) const {
  for (std::int64_t r = 0; r < p_; ++r) {
    for (std::int64_t b = 0; b < n_; ++b) {
      const std::int64_t at = r * n_ + b;
      if (r == root_ && (lo_[at] != 0 || hi_[at] != p_ - 1)) {
        return fail("incomplete-result", r, rounds, p_ - 1, hi_[at] - lo_[at]);
      }
      if (r != root_ && !sent_[at]) return fail("never-sent", r, rounds, b, -1);
    }
  }
  return std::nullopt;
}

}  // namespace rosched::sim
