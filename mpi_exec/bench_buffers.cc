#include "mpi_exec/bench_buffers.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace rosched::mpi::bench {
namespace {

Buffers mode = Buffers::kFresh;
std::array<PayloadArray<int>, CallBuffer::kSlots> kept = {PayloadArray<int>(0),
                                                          PayloadArray<int>(0)};

// The buffer for (slot, n) and whether it was made just now.
int* buffer_for(PayloadArray<int>& fresh, int slot, std::size_t n, bool* made) {
  if (slot < 0 || slot >= CallBuffer::kSlots) throw std::logic_error("CallBuffer: bad slot");
  *made = true;
  if (mode == Buffers::kFresh) {
    fresh = PayloadArray<int>(n);
    return fresh.data();
  }
  PayloadArray<int>& k = kept[static_cast<std::size_t>(slot)];
  if (k.size() < n) {
    k = PayloadArray<int>(0);  // the old one freed before the new one is made
    k = PayloadArray<int>(n);
  } else {
    *made = false;
  }
  return k.data();
}

}  // namespace

Buffers parse_buffers(const std::string& word) {
  if (word == "fresh") return Buffers::kFresh;
  if (word == "reuse") return Buffers::kReuse;
  throw std::invalid_argument("--buffers must be fresh or reuse, not " + word);
}

void set_buffers(Buffers m) { mode = m; }

CallBuffer::CallBuffer(int slot, std::size_t n, bool check) {
  data_ = buffer_for(fresh_, slot, n, &made_);
  if (check) std::fill(data_, data_ + n, kPoison);
}

CallBuffer::CallBuffer(int slot, std::size_t n, bool check, int value) {
  data_ = buffer_for(fresh_, slot, n, &made_);
  if (made_ || check) std::fill(data_, data_ + n, value);
}

void release_buffers() {
  for (PayloadArray<int>& k : kept) k = PayloadArray<int>(0);
}

}  // namespace rosched::mpi::bench
