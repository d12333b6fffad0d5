// The receive and send schedules of all p ranks, stored compactly (one byte per entry, laid out
// round-major so that a round of all ranks is contiguous). What the verifier checks, the table
// generator prints, and the irregular all-gather walks.
#ifndef ROSCHED_SCHED_CIRCULANT_FULL_SCHEDULE_H_
#define ROSCHED_SCHED_CIRCULANT_FULL_SCHEDULE_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "sched/circulant/phase_schedule.h"
#include "sched/circulant/skips.h"

namespace rosched {

class FullSchedule {
 public:
  // All entries 0. Memory: 2 * p * q bytes.
  explicit FullSchedule(const Skips& s);
  // Re-shapes for s, keeping the storage if it is large enough. The entries are unspecified
  // until written (no zeroing: builders write every entry).
  void reset(const Skips& s);

  const Skips& skips() const { return skips_; }
  std::int64_t p() const { return skips_.p(); }
  int q() const { return skips_.q(); }

  // Entry k of rank r (unchecked: 0 <= r < p, 0 <= k < q).
  std::int8_t recv(std::int64_t r, int k) const { return recv_[index(r, k)]; }
  std::int8_t send(std::int64_t r, int k) const { return send_[index(r, k)]; }
  std::int8_t& recv(std::int64_t r, int k) { return recv_[index(r, k)]; }
  std::int8_t& send(std::int64_t r, int k) { return send_[index(r, k)]; }
  // Round k of all ranks: p consecutive entries.
  const std::int8_t* recv_round(int k) const { return &recv_[index(0, k)]; }
  const std::int8_t* send_round(int k) const { return &send_[index(0, k)]; }

  RankSchedule rank(std::int64_t r) const;
  void set_rank(std::int64_t r, const RankSchedule& sched);
  // send[k] of every rank from the receive schedules: send(r, k) = recv((r + skips[k]) mod p, k)
  // (Algorithm 9 of Träff 2022, lines 4-9). Ranks sending to the root get the root's dummy.
  void derive_sends();

 private:
  std::size_t index(std::int64_t r, int k) const {
    return static_cast<std::size_t>(k) * static_cast<std::size_t>(skips_.p()) +
           static_cast<std::size_t>(r);
  }
  // Like std::allocator, but resize() leaves new bytes uninitialised, and large tables get huge
  // pages where the kernel offers them (full_schedule.cc).
  struct NoInit : std::allocator<std::int8_t> {
    template <class U>
    struct rebind {
      using other = NoInit;
    };
    std::int8_t* allocate(std::size_t n);
    void deallocate(std::int8_t* at, std::size_t n) noexcept;
    template <class U, class... A>
    void construct(U* at, A&&... a) {
      if constexpr (sizeof...(A) > 0) ::new (static_cast<void*>(at)) U(std::forward<A>(a)...);
    }
  };
  Skips skips_;
  std::vector<std::int8_t, NoInit> recv_, send_;
};

// The schedules of all p ranks under construction c, computed the fastest way known:
//  * fast: fast_full_schedule.h (the local send rule level by level over all ranks). O(p log p).
//  * paper: full_schedule_from_receives (O(p log^2 p)).
// This is what an irregular all-gather uses, and what the verifier checks for a construction.
FullSchedule full_schedule(const Skips& s, Construction c);
// The same into f, reusing its storage (f is reset to s first).
void full_schedule(const Skips& s, Construction c, FullSchedule& f);

// Every rank's schedule built independently, with rank_schedule (as each process would).
FullSchedule full_schedule_per_rank(const Skips& s, Construction c);

// Every rank's receive schedule under c, sends derived with derive_sends() (Algorithm 9 of the
// paper, lines 1-9): O(p log^2 p) for the paper's construction.
FullSchedule full_schedule_from_receives(const Skips& s, Construction c);

}  // namespace rosched

#endif  // ROSCHED_SCHED_CIRCULANT_FULL_SCHEDULE_H_
