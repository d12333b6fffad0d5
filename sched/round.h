// What every schedule family shares: the limits on process counts, the renumbering of ranks
// from the root, and the round description that the verifier simulates and the MPI executors
// run. A family's schedule object gives, per rank, rounds() and round(i); round(i) names at most
// one block to send and one to receive, each with the real rank of the other side.
#ifndef ROSCHED_SCHED_ROUND_H_
#define ROSCHED_SCHED_ROUND_H_

#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

namespace rosched {

// Largest supported process count is 2^31 - 1 (MPI ranks are int).
inline constexpr std::int64_t kMaxProcesses = (std::int64_t{1} << 31) - 1;
// ceil(log2 p) <= kMaxQ for every supported p.
inline constexpr int kMaxQ = 31;

// ceil(log2 x) for x >= 1.
int ceil_log2(std::int64_t x);
// ceil(log_base x) for x >= 1 and 2 <= base <= 2^31: the rounds of a tree or dissemination of
// radix `base` over x ranks.
int ceil_log(std::int64_t x, std::int64_t base);

// Throws std::invalid_argument "<who>p = <p> is outside [1, 2^31 - 1]" unless
// 1 <= p <= kMaxProcesses.
void check_process_count(std::int64_t p, const char* who);

// Renumbering from the root: a family builds its schedule for root 0 over virtual ranks
// v = (rank - root) mod p and maps peers back with real_rank. Preconditions (not checked):
// 0 <= rank, v, root < p. No division: these sit on per-round paths.
inline std::int64_t virtual_rank(std::int64_t rank, std::int64_t root, std::int64_t p) {
  return rank >= root ? rank - root : rank - root + p;
}
inline std::int64_t real_rank(std::int64_t v, std::int64_t root, std::int64_t p) {
  return v + root >= p ? v + root - p : v + root;
}

// One block moving to or from a peer in one round.
struct Transfer {
  std::int64_t peer = 0;   // real rank of the other side
  std::int64_t block = 0;  // 0 <= block < n
  bool operator==(const Transfer& o) const { return peer == o.peer && block == o.block; }
};

// A broadcast round of one rank.
struct BcastRound {
  std::optional<Transfer> send;  // nothing to send this round if empty
  std::optional<Transfer> recv;  // nothing to receive this round if empty
};

// A reduction round of one rank: a partial result of a block goes up, one comes in.
struct ReduceRound {
  std::optional<Transfer> send;  // this rank's partial result of a block, to its parent
  std::optional<Transfer> recv;  // a child's partial result of a block
  // Combine as recv op own (the child's ranks come first) rather than own op recv.
  bool recv_before_own = false;
};

// A broadcast's round run backwards as a reduction's (round i of the reduction being round
// rounds - 1 - i of the broadcast): what the broadcast receives is sent up, what it sends comes
// in. A rank receives every block once in a broadcast, and sends it on only after that, so
// backwards it sends each partial result once, after all those of the block that it combines.
inline ReduceRound reversed(const BcastRound& b) {
  ReduceRound r;
  r.send = b.recv;
  r.recv = b.send;
  return r;
}

// A reduction's round run backwards as a broadcast's, the converse of the above: what the
// reduction sends up is received, what comes in is sent down. A rank sends its partial result
// once, after combining all that come in, so backwards it receives the block once, before every
// send of it.
inline BcastRound reversed(const ReduceRound& r) {
  BcastRound b;
  b.send = r.recv;
  b.recv = r.send;
  return b;
}

// Throws std::out_of_range "<what> round <i> is outside [0, <rounds>)" unless 0 <= i < rounds.
// The comparison inline (schedules call it for every rank and round), the throw out of line.
[[noreturn]] void throw_round_outside(std::int64_t i, std::int64_t rounds, const char* what);
inline void check_round(std::int64_t i, std::int64_t rounds, const char* what) {
  if (i < 0 || i >= rounds) throw_round_outside(i, rounds, what);
}

// The kind of schedule whose rounds are R, for check_round's message.
constexpr const char* round_kind(const ReduceRound*) { return "reduction"; }
constexpr const char* round_kind(const BcastRound*) { return "broadcast"; }

// The schedule that runs the schedule Forward (rounds(), round(i), p(), n(), rank(), root())
// backwards, constructed from Forward's arguments: round i is Forward's round rounds() - 1 - i
// reversed(): a broadcast's run as a reduction (ReduceRounds, recv_before_own false: a family
// whose subtrees are rank ranges sets it in a schedule of its own on top of this one), or a
// reduction's as a broadcast (BcastRounds).
template <typename Forward>
class Backwards {
 public:
  using Round = decltype(reversed(std::declval<Forward>().round(0)));

  template <typename... Args,
            typename = std::enable_if_t<std::is_constructible_v<Forward, Args&&...>>>
  explicit Backwards(Args&&... args) : forward_(std::forward<Args>(args)...) {}

  std::int64_t p() const { return forward_.p(); }
  std::int64_t n() const { return forward_.n(); }
  std::int64_t rank() const { return forward_.rank(); }
  std::int64_t root() const { return forward_.root(); }
  std::int64_t rounds() const { return forward_.rounds(); }
  // The schedule it runs backwards.
  const Forward& forward() const { return forward_; }
  // What this rank does in round i, 0 <= i < rounds(); throws std::out_of_range otherwise.
  Round round(std::int64_t i) const {
    check_round(i, rounds(), round_kind(static_cast<const Round*>(nullptr)));
    return reversed(forward_.round(rounds() - 1 - i));
  }

 private:
  Forward forward_;
};

}  // namespace rosched

#endif  // ROSCHED_SCHED_ROUND_H_
