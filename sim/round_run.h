// Round-by-round symbolic runs of any broadcast or reduction schedule description (one
// BcastRound or ReduceRound per rank and round, sched/round.h), the descriptions the MPI
// executors walk. Every family's runner (sim/*_run.h) is one of these over its schedules.
#ifndef ROSCHED_SIM_ROUND_RUN_H_
#define ROSCHED_SIM_ROUND_RUN_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sched/round.h"
#include "sim/counterexample.h"

namespace rosched::sim {

struct RunResult {
  std::optional<Counterexample> counterexample;
  std::int64_t rounds_used = 0;  // 1 + the last round in which anything moved
};

// The state of a broadcast of n blocks from root: which rank holds which block (a bit each).
// step() checks one round of every rank's BcastRound and then applies it: every send meets the
// matching receive (peer and block) and vice versa, blocks and peers are in range, a rank sends
// only blocks it holds, never receives one it holds, and the root receives nothing.
// finish() checks that every rank holds every block. Counterexamples carry `check` and `detail`.
class BcastRun {
 public:
  // A rank's round in compact form (kNone: nothing), what step() works on.
  static constexpr std::int64_t kNone = -1;
  struct Move {
    std::int64_t send_peer = kNone, send_block = 0, recv_peer = kNone, recv_block = 0;
  };
  static Move move_of(const BcastRound& r) {
    Move m;
    if (r.send) m.send_peer = r.send->peer, m.send_block = r.send->block;
    if (r.recv) m.recv_peer = r.recv->peer, m.recv_block = r.recv->block;
    return m;
  }

  BcastRun(std::string check, std::string detail, std::int64_t p, std::int64_t n,
           std::int64_t root);

  std::int64_t p() const { return p_; }
  std::int64_t n() const { return n_; }
  bool holds(std::int64_t rank, std::int64_t block) const {
    return (held_[rank * words_ + (block >> 6)] >> (block & 63)) & 1;
  }
  // now[r] is rank r's round i.
  std::optional<Counterexample> step(std::int64_t i, const std::vector<Move>& now);
  std::optional<Counterexample> finish(std::int64_t rounds) const;
  // 1 + the last round in which a block was sent.
  std::int64_t rounds_used() const { return rounds_used_; }
  Counterexample fail(const char* kind, std::int64_t rank, std::int64_t round,
                      std::int64_t expected, std::int64_t actual) const;

 private:
  std::string check_, detail_;
  std::int64_t p_, n_, root_, words_, rounds_used_ = 0;
  std::vector<std::uint64_t> held_;  // words_ 64-bit words per rank
};

// Runs `rounds` rounds of a broadcast: round_of(rank, round) gives each rank's BcastRound
// (the description an MPI executor walks). before_round(run, round), if given, may check what
// the ranks hold before each round and return a counterexample. O(p (n / 64 + rounds)).
template <typename RoundOf, typename BeforeRound>
RunResult run_bcast_rounds(BcastRun& run, std::int64_t rounds, RoundOf&& round_of,
                           BeforeRound&& before_round) {
  std::vector<BcastRun::Move> now(static_cast<std::size_t>(run.p()));
  for (std::int64_t i = 0; i < rounds; ++i) {
    if (std::optional<Counterexample> c = before_round(run, i)) return {c, 0};
    for (std::int64_t r = 0; r < run.p(); ++r) now[r] = BcastRun::move_of(round_of(r, i));
    if (std::optional<Counterexample> c = run.step(i, now)) return {c, 0};
  }
  return {run.finish(rounds), run.rounds_used()};
}

// The same with no check before rounds, from the run's parameters.
template <typename RoundOf>
RunResult run_bcast_rounds(const std::string& check, const std::string& detail, std::int64_t p,
                           std::int64_t n, std::int64_t root, std::int64_t rounds,
                           RoundOf&& round_of) {
  BcastRun run(check, detail, p, n, root);
  return run_bcast_rounds(run, rounds, round_of,
                          [](const BcastRun&, std::int64_t) -> std::optional<Counterexample> {
                            return std::nullopt;
                          });
}

// The state of a reduction of n blocks to root. Every rank starts with its own contribution to
// each block, at index order(rank) of the combining order (a permutation of 0..p-1). step()
// checks one round of every rank's ReduceRound and then applies it: sends and receives match; a
// rank sends each block once and then neither sends nor receives it again; a received partial
// result (an interval of the order) is adjacent to the receiver's on the side recv_before_own
// names. finish() checks that the root holds, for every block, the interval [0, p) and every
// other rank has sent every block: each contribution combined exactly once, in that order. An
// empty `order` is the check for commutative operations: no adjacency, each rank's partial
// result counts the contributions in it, and the root's must count p.
class ReduceRun {
 public:
  // A rank's round in compact form (kNone: nothing), what step() works on.
  static constexpr std::int64_t kNone = -1;
  struct Move {
    std::int64_t send_peer = kNone, send_block = 0, recv_peer = kNone, recv_block = 0;
    bool recv_before_own = false;
  };
  static Move move_of(const ReduceRound& r) {
    Move m;
    if (r.send) m.send_peer = r.send->peer, m.send_block = r.send->block;
    if (r.recv) m.recv_peer = r.recv->peer, m.recv_block = r.recv->block;
    m.recv_before_own = r.recv_before_own;
    return m;
  }

  ReduceRun(std::string check, std::string detail, std::int64_t p, std::int64_t n,
            std::int64_t root, const std::function<std::int64_t(std::int64_t)>& order);

  std::int64_t p() const { return p_; }
  // now[r] is rank r's round i.
  std::optional<Counterexample> step(std::int64_t i, const std::vector<Move>& now);
  std::optional<Counterexample> finish(std::int64_t rounds) const;
  // 1 + the last round in which a partial result was sent.
  std::int64_t rounds_used() const { return rounds_used_; }

 private:
  Counterexample fail(const char* kind, std::int64_t rank, std::int64_t round,
                      std::int64_t expected, std::int64_t actual) const;

  std::string check_, detail_;
  std::int64_t p_, n_, root_, rounds_used_ = 0;
  bool ordered_;
  // Per rank and block (index rank * n + block): the interval of the combining order held
  // (without order: 0 .. count - 1), and whether it was sent.
  std::vector<std::int64_t> lo_, hi_;
  std::vector<std::uint8_t> sent_;
};

// Runs `rounds` rounds of a reduction: round_of(rank, round) gives each rank's ReduceRound (the
// description an MPI executor walks). O(p (n + rounds)).
template <typename RoundOf>
RunResult run_reduce_rounds(const std::string& check, const std::string& detail, std::int64_t p,
                            std::int64_t n, std::int64_t root, std::int64_t rounds,
                            RoundOf&& round_of,
                            const std::function<std::int64_t(std::int64_t)>& order) {
  ReduceRun run(check, detail, p, n, root, order);
  std::vector<ReduceRun::Move> now(static_cast<std::size_t>(p));
  for (std::int64_t i = 0; i < rounds; ++i) {
    for (std::int64_t r = 0; r < p; ++r) now[r] = ReduceRun::move_of(round_of(r, i));
    if (std::optional<Counterexample> c = run.step(i, now)) return {c, 0};
  }
  return {run.finish(rounds), run.rounds_used()};
}

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_ROUND_RUN_H_
