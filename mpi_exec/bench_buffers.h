// bench's message buffers (bench_ops.cc): made for each call (--buffers fresh, the default and
// what every committed bench figure until 2026-12-01 used), or kept from call to call
// (--buffers reuse), as an MPI program keeps its buffers and as the MPI libraries' own
// benchmarks time a collective.
//
// Why both: on this machine a fresh buffer's first touch costs more than the collective. An
// all-reduce of 1 MiB at p = 2 took 0.16 ms on kept buffers and 12-17 ms per call on buffers
// malloc'd for the call, whenever the allocator handed back pages the kernel had to map again
// (it did in runs of several sizes: glibc trims the heap's top, or maps large blocks anew): that
// figure times page faults, not the collective, and which algorithm pays them (the one that
// first writes the receive buffer, from which process) decides the ratio (docs/perf.md,
// "Buffers made per call"). Fresh stays the default, so that figures stay comparable with the
// committed ones, and so that an SMPI run with shared malloc behaves as before.
//
// With --check every call writes its inputs and overwrites its results with a value no
// collective delivers, in both modes: a kept (or recycled) buffer would otherwise still hold
// the previous call's right answer, and a call that delivered nothing would pass.
#ifndef ROSCHED_MPI_EXEC_BENCH_BUFFERS_H_
#define ROSCHED_MPI_EXEC_BENCH_BUFFERS_H_

#include <cstddef>
#include <string>

#include "mpi_exec/payload.h"

namespace rosched::mpi::bench {

enum class Buffers { kFresh, kReuse };

// --buffers fresh or reuse; std::invalid_argument for another word.
Buffers parse_buffers(const std::string& word);

// The mode for the calls from now on (bench sets it once, before the first call).
void set_buffers(Buffers mode);

// What a result element holds before a checked call: no operation of bench delivers it.
inline constexpr int kPoison = -1234567;

// n ints for one call, in slot `slot` (0..kSlots - 1; an operation's buffers each have their own):
// fresh, or the slot's kept buffer (grown where n is more than it holds). Where it is made, or
// where `check`, its elements are set to `value` (inputs) or to kPoison (results: the
// constructor without a value, which leaves a fresh unchecked buffer uninitialised, as malloc).
class CallBuffer {
 public:
  static constexpr int kSlots = 2;
  CallBuffer(int slot, std::size_t n, bool check);
  CallBuffer(int slot, std::size_t n, bool check, int value);
  CallBuffer(const CallBuffer&) = delete;
  CallBuffer& operator=(const CallBuffer&) = delete;

  int* data() const { return data_; }
  int& operator[](std::size_t i) const { return data_[i]; }
  // Whether the buffer was made for this call (always where fresh): an input whose elements
  // differ (a broadcast's message) is written where made() or checked.
  bool made() const { return made_; }

 private:
  PayloadArray<int> fresh_{0};
  int* data_ = nullptr;
  bool made_ = false;
};

// Frees the kept buffers; bench calls it before MPI_Finalize (under SMPI, payload memory must go
// back while the simulation still knows it: payload.h).
void release_buffers();

}  // namespace rosched::mpi::bench

#endif  // ROSCHED_MPI_EXEC_BENCH_BUFFERS_H_
