#include "sched/circulant/full_schedule.h"

#include <sys/mman.h>

#include <cstdlib>
#include <new>
#include <stdexcept>

#include "sched/circulant/fast_full_schedule.h"

namespace rosched {

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;
}  // namespace

// A table of p q bytes (1.7 MB at p = 100,000) takes a page fault per 4 KB page on first touch,
// which here costs more than building it (AllRanks/fast/100000 in bench/schedule_bench.cc;
// docs/perf.md). From 1 MB on, tables are rounded up to whole 2 MB pages
// (at most twice the memory) with MADV_HUGEPAGE, a hint for kernels whose transparent huge
// pages are set to "madvise": one fault per 2 MB.
std::int8_t* FullSchedule::NoInit::allocate(std::size_t n) {
  if (n < kHugePage / 2) return std::allocator<std::int8_t>::allocate(n);
  const std::size_t size = (n + kHugePage - 1) / kHugePage * kHugePage;
  void* at = std::aligned_alloc(kHugePage, size);
  if (!at) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  madvise(at, size, MADV_HUGEPAGE);
#endif
  return static_cast<std::int8_t*>(at);
}

void FullSchedule::NoInit::deallocate(std::int8_t* at, std::size_t n) noexcept {
  if (n < kHugePage / 2) {
    std::allocator<std::int8_t>::deallocate(at, n);
  } else {
    std::free(at);
  }
}

FullSchedule::FullSchedule(const Skips& s)
    : skips_(s),
      recv_(static_cast<std::size_t>(s.p()) * s.q(), 0),
      send_(static_cast<std::size_t>(s.p()) * s.q(), 0) {}

void FullSchedule::reset(const Skips& s) {
  skips_ = s;
  const std::size_t n = static_cast<std::size_t>(s.p()) * static_cast<std::size_t>(s.q());
  recv_.resize(n);
  send_.resize(n);
}

RankSchedule FullSchedule::rank(std::int64_t r) const {
  RankSchedule out;
  out.recv.q = out.send.q = q();
  for (int k = 0; k < q(); ++k) {
    out.recv[k] = recv(r, k);
    out.send[k] = send(r, k);
  }
  return out;
}

void FullSchedule::set_rank(std::int64_t r, const RankSchedule& sched) {
  for (int k = 0; k < q(); ++k) {
    recv(r, k) = static_cast<std::int8_t>(sched.recv[k]);
    send(r, k) = static_cast<std::int8_t>(sched.send[k]);
  }
}

void FullSchedule::derive_sends() {
  const std::int64_t n = p();
  for (int k = 0; k < q(); ++k) {
    const std::int8_t* in = recv_round(k);
    std::int8_t* out = &send_[index(0, k)];
    const std::int64_t shift = skips_[k] % n;
    // out[r] = in[(r + shift) mod p], as two contiguous copies.
    for (std::int64_t r = 0; r < n - shift; ++r) out[r] = in[r + shift];
    for (std::int64_t r = n - shift; r < n; ++r) out[r] = in[r + shift - n];
  }
}

void full_schedule(const Skips& s, Construction c, FullSchedule& f) {
  switch (c) {
    case Construction::fast:
      fast::build_full_schedule(s, f);
      return;
    case Construction::paper:
      f = full_schedule_from_receives(s, c);
      return;
  }
  throw std::invalid_argument("unknown construction");
}

FullSchedule full_schedule(const Skips& s, Construction c) {
  FullSchedule f(Skips(1));
  full_schedule(s, c, f);
  return f;
}

FullSchedule full_schedule_per_rank(const Skips& s, Construction c) {
  FullSchedule f(s);
  for (std::int64_t r = 0; r < s.p(); ++r) f.set_rank(r, rank_schedule(s, r, c));
  return f;
}

FullSchedule full_schedule_from_receives(const Skips& s, Construction c) {
  FullSchedule f(s);
  for (std::int64_t r = 0; r < s.p(); ++r) {
    const PhaseSchedule recv = recv_schedule(s, r, c);
    for (int k = 0; k < s.q(); ++k) f.recv(r, k) = static_cast<std::int8_t>(recv[k]);
  }
  f.derive_sends();
  return f;
}

}  // namespace rosched
