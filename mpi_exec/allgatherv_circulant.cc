// Rosched_Allgatherv: the irregular all-gather of Träff 2022 (Sec. 2.4, Algorithm 9).
// Every rank j is the root of a broadcast of its own contribution, split into the same number n
// of blocks; all p broadcasts run in lockstep over the same circulant graph, so in every round
// each rank sends one combined message to r + skips[k] and receives one from r - skips[k]. The
// schedule of every virtual rank comes from sched/circulant/full_schedule.h (O(p log p)); for
// root j rank r plays virtual rank (r - j) mod p. The combined messages are described by derived datatypes
// over the user's receive buffer (block b of root j: elements b*c_j/n .. (b+1)*c_j/n - 1 at
// displs[j]), so no data is packed or unpacked: the paper's double pass over the data is gone.
// Number of blocks (Träff 2022, Sec. 3.2; block_count.h): about sqrt(m * ceil(log2 p)) / G for
// m bytes in all, at most the largest contribution's element count. G = 2000 by default:
// measured here (shared memory, p = 4, 8, G from 10 to 2,560) fewer, larger blocks were faster,
// best at G = 640..2,560; the paper used 40 on a cluster. The cost model's broadcast optimum
// (cost_model.h) is not used here: it leaves out the O(p) work of every round (one piece per
// root in the round's datatype), and in SimGrid SMPI (paper platform, p = 36) its 11-34 blocks
// were 1.3-2x slower than G = 2000's 1-5 at 64 KiB - 16 MiB. Set ROSCHED_ALLGATHERV_G to tune
// (read once, at the first call). Rounds run nonblocking, a window of them in flight
// (window_rounds): the receive of round v is posted early, its send once every earlier receive
// has arrived. The messages go eagerly (MPI_Isend): synchronous ones, as the pipelined broadcasts
// send where each rank's own link limits (cost_model.h, synchronous_sends), were tried and not
// kept (SimGrid SMPI, paper platform, 36 x 1, G = 2000's few blocks: the same to 0.1 us from
// 64 KiB to 16 MiB with bench's three distributions, except 173.1 against 160.8 us eager with
// the (r mod 3) counts at 1 MiB).
// Where the cost model's stream figures say a round's message moves faster as a stream of
// smaller parts than whole (stream_parts, cost_model.h: SimGrid SMPI moves 5,776-9,375 B
// messages at 1.09 of a link's bandwidth, large ones at 0.94, and a backbone shared by every rank
// at 1.03 / 1.12 of its nominal time, scripts/backbone_probe.sh), each round's two messages are
// cut into parts of whole elements and streamed (stream_round), the rounds then one after the
// other. ROSCHED_STREAM_PART sets the parts' size.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

#include "mpi_exec/allgatherv_circulant.h"
#include "mpi_exec/block_count.h"
#include "mpi_exec/cost_model.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"
#include "sched/circulant/full_schedule.h"

namespace rosched::mpi {
namespace {

// The pieces (one per root) of one round's message, as a datatype over the receive buffer.
class Message {
 public:
  void clear() {
    lengths_.clear();
    offsets_.clear();
    starts_.clear();
    elements_ = 0;
  }
  void add(MPI_Aint byte_offset, std::int64_t elements) {
    if (elements == 0) return;
    lengths_.push_back(static_cast<int>(elements));
    offsets_.push_back(byte_offset);
    starts_.push_back(elements_);
    elements_ += elements;
  }
  bool empty() const { return lengths_.empty(); }
  std::int64_t elements() const { return elements_; }
  // Where the message is and what it is for one MPI call from base: one piece as plain elements
  // (no datatype to build and commit, which costs more than a small piece's transfer), several
  // as a committed hindexed datatype kept in `owned` until the transfer completes.
  void describe(char* base, MPI_Datatype element, OwnedType& owned, char** at, int* count,
                MPI_Datatype* type) const {
    describe_pieces(lengths_, offsets_, base, element, owned, at, count, type);
  }
  // The same for the message's elements lo .. hi - 1 (0 <= lo < hi <= elements()), of extent
  // `extent` each: a part of the message.
  void describe_part(std::int64_t lo, std::int64_t hi, MPI_Aint extent, char* base,
                     MPI_Datatype element, OwnedType& owned, char** at, int* count,
                     MPI_Datatype* type) const {
    thread_local std::vector<int> lengths;
    thread_local std::vector<MPI_Aint> offsets;
    lengths.clear();
    offsets.clear();
    // The piece that holds element lo, then each piece up to element hi.
    auto i = static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), lo) -
                                      starts_.begin() - 1);
    for (; i < lengths_.size() && starts_[i] < hi; ++i) {
      const std::int64_t from = std::max(lo, starts_[i]);
      const std::int64_t to = std::min(hi, starts_[i] + lengths_[i]);
      lengths.push_back(static_cast<int>(to - from));
      offsets.push_back(offsets_[i] + static_cast<MPI_Aint>(from - starts_[i]) * extent);
    }
    describe_pieces(lengths, offsets, base, element, owned, at, count, type);
  }

 private:
  static void describe_pieces(const std::vector<int>& lengths, const std::vector<MPI_Aint>& offsets,
                              char* base, MPI_Datatype element, OwnedType& owned, char** at,
                              int* count, MPI_Datatype* type) {
    if (lengths.size() == 1) {
      *at = base + offsets[0], *count = lengths[0], *type = element;
      return;
    }
    owned = hindexed(static_cast<int>(lengths.size()), lengths.data(), offsets.data(), element);
    *at = base, *count = 1, *type = owned.get();
  }
  std::vector<int> lengths_;
  std::vector<MPI_Aint> offsets_;
  std::vector<std::int64_t> starts_;  // the message's element where each piece starts
  std::int64_t elements_ = 0;
};

// The number of parts a message of `elements` elements of `size` bytes goes in, streamed in
// parts of about part_bytes: ceil(bytes / part_bytes), at least 1, at most one a element.
std::int64_t part_count(std::int64_t elements, int size, double part_bytes) {
  const double bytes = static_cast<double>(elements) * size;
  const double parts = std::ceil(bytes / part_bytes);
  return std::clamp<std::int64_t>(static_cast<std::int64_t>(std::min(parts, 1e18)), 1,
                                  std::max<std::int64_t>(elements, 1));
}

// One round whose messages go as streams of parts (part_count; part k of a message of E
// elements is elements k E / K .. (k + 1) E / K - 1, so sender and receiver, which see the
// same message, cut it alike): every send posted at once, receives `window` ahead, so
// that a transport that moves a message once it is matched (SimGrid SMPI) has at most that
// many of a rank's parts on their way. Returns once every part has arrived and gone.
void stream_round(const Message& send, const Message& recv, char* base, MPI_Datatype element,
                  const TypeInfo& type, double part_bytes, int window, int to, int from,
                  MPI_Comm c) {
  struct Part {
    MPI_Request request = MPI_REQUEST_NULL;
    OwnedType type;
  };
  thread_local std::vector<Part> sends;
  thread_local std::vector<Part> recvs;
  recvs.resize(static_cast<std::size_t>(window));
  const auto post = [&](const Message& m, std::int64_t k, std::int64_t parts, Part& part,
                        bool is_send) {
    const std::int64_t e = m.elements();
    char* at = nullptr;
    int count = 0;
    MPI_Datatype t = element;
    const auto cut = [&](std::int64_t j) {  // k e / parts without overflow
      return static_cast<std::int64_t>(static_cast<__int128>(j) * e / parts);
    };
    m.describe_part(cut(k), cut(k + 1), type.extent, base, element, part.type, &at, &count, &t);
    if (is_send) {
      check(PMPI_Isend(at, count, t, to, tag::kAllgathervRound, c, &part.request), "MPI_Isend");
    } else {
      check(PMPI_Irecv(at, count, t, from, tag::kAllgathervRound, c, &part.request), "MPI_Irecv");
    }
  };
  const std::int64_t recv_parts =
      recv.empty() ? 0 : part_count(recv.elements(), type.size, part_bytes);
  const std::int64_t send_parts =
      send.empty() ? 0 : part_count(send.elements(), type.size, part_bytes);
  const std::int64_t ahead = std::min<std::int64_t>(recv_parts, window);
  for (std::int64_t k = 0; k < ahead; ++k) {
    post(recv, k, recv_parts, recvs[static_cast<std::size_t>(k)], false);
  }
  sends.resize(static_cast<std::size_t>(send_parts));
  for (std::int64_t k = 0; k < send_parts; ++k) {
    post(send, k, send_parts, sends[static_cast<std::size_t>(k)], true);
  }
  for (std::int64_t k = 0; k < recv_parts; ++k) {
    Part& part = recvs[static_cast<std::size_t>(k % window)];
    check(PMPI_Wait(&part.request, MPI_STATUS_IGNORE), "MPI_Wait");
    part.type = OwnedType();
    if (k + window < recv_parts) post(recv, k + window, recv_parts, part, false);
  }
  for (Part& part : sends) {
    check(PMPI_Wait(&part.request, MPI_STATUS_IGNORE), "MPI_Wait");
    part.type = OwnedType();
  }
}

}  // namespace

const rosched::Skips& skips_of(int p) {
  thread_local rosched::Skips last(1);
  if (last.p() != p) last = rosched::Skips(p);
  return last;
}

namespace {

// Every rank's schedule for p (Träff 2022, Algorithms 4 and 5), kept for this thread's next
// call with the same p: O(p log p) to build, more than a small all-gather's transfers.
const rosched::FullSchedule& full_schedule_of(const rosched::Skips& s) {
  thread_local std::unique_ptr<rosched::FullSchedule> last;
  thread_local std::int64_t last_p = 0;
  if (!last || last_p != s.p()) {
    last = std::make_unique<rosched::FullSchedule>(
        rosched::full_schedule(s, rosched::kDefaultConstruction));
    last_p = s.p();
  }
  return *last;
}

// Rounds in flight, each with its two requests and the datatypes they use (which must live
// until the requests complete). Receives complete in round order.
class RoundWindow {
 public:
  struct Slot {
    MPI_Request send = MPI_REQUEST_NULL, recv = MPI_REQUEST_NULL;
    OwnedType send_type, recv_type;
  };
  explicit RoundWindow(int size) : slots_(static_cast<std::size_t>(std::max(size, 1))) {}
  int size() const { return static_cast<int>(slots_.size()); }
  // The slot of the next round, after completing the round that used it `size` rounds ago.
  Slot& next() {
    Slot& slot = slots_[static_cast<std::size_t>(rounds_++ % size())];
    complete(slot);
    return slot;
  }
  // Waits for the receives of every round before the current one (those older than the window
  // were completed by next()).
  void arrive_before_current() {
    const std::int64_t current = rounds_ - 1;
    for (std::int64_t r = std::max(arrived_, current - size() + 1); r < current; ++r) {
      check(PMPI_Wait(&slots_[static_cast<std::size_t>(r % size())].recv, MPI_STATUS_IGNORE),
            "MPI_Wait");
    }
    arrived_ = current;
  }
  void finish() {
    for (Slot& slot : slots_) complete(slot);
  }

 private:
  static void complete(Slot& slot) {
    check(PMPI_Wait(&slot.recv, MPI_STATUS_IGNORE), "MPI_Wait");
    check(PMPI_Wait(&slot.send, MPI_STATUS_IGNORE), "MPI_Wait");
    slot.send_type = OwnedType();
    slot.recv_type = OwnedType();
  }
  std::vector<Slot> slots_;
  std::int64_t rounds_ = 0, arrived_ = 0;
};

}  // namespace

void circulant_allgatherv_on(const CommInfo& ci, const char* name, char* base,
                           const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                           const TypeInfo& rtype) {
  const int p = ci.p, rank = ci.rank;
  const MPI_Comm c = ci.c;
  const std::int64_t largest = *std::max_element(recvcounts, recvcounts + p);
  if (p == 1 || largest == 0 || rtype.size == 0) return;

  double total_bytes = 0;
  for (int j = 0; j < p; ++j) total_bytes += static_cast<double>(recvcounts[j]) * rtype.size;
  const rosched::Skips& s = skips_of(p);
  const int q = s.q();
  const rosched::FullSchedule& schedule = full_schedule_of(s);
  const std::int64_t n = block_count(total_bytes, p, settings().allgatherv_g, largest);
  // One block per root (small data): round k forwards what rounds 0 .. k-1 brought, so there is
  // nothing to overlap and each round is one blocking exchange, without requests or a window.
  const bool blocking = n == 1;
  // Pipelined, the rounds' messages (about total_bytes / n each once every rank has blocks to
  // pass on) streamed in parts where the cost model predicts that faster (stream_parts), which
  // runs the rounds one after the other; else whole, a window of rounds in flight.
  double part_bytes = 0;
  int parts_in_flight = 0;
  std::optional<RoundWindow> window;
  if (!blocking) {
    const CostModel& model = cost_model(ci);
    const double round_bytes = total_bytes / static_cast<double>(n);
    if (settings().stream_part > 0) {
      part_bytes = settings().stream_part;
    } else if (const std::int64_t k = stream_parts(model, round_bytes, 1, 1, kMaxPipelineBlocks, true);
               k > 1) {
      part_bytes = round_bytes / static_cast<double>(k);
    }
    if (part_bytes > 0) {
      parts_in_flight = stream_window(model, part_bytes);
    } else {
      window.emplace(window_rounds(model, round_bytes));
    }
  }
  char algorithm[64] = "pipelined";
  if (blocking) {
    std::snprintf(algorithm, sizeof algorithm, "one block");
  } else if (part_bytes > 0) {
    std::snprintf(algorithm, sizeof algorithm, "pipelined, rounds in parts of %.0f B", part_bytes);
  }
  tell_choice(ci, name, algorithm, n, window ? window->size() : part_bytes > 0 ? parts_in_flight : 1,
              total_bytes);
  const std::int64_t x = (q - (n - 1) % q) % q;  // virtual rounds done before the first
  const auto piece = [&](Message& m, int root, std::int64_t block) {
    if (block < 0) return;
    block = std::min(block, n - 1);
    const std::int64_t lo = block * recvcounts[root] / n, hi = (block + 1) * recvcounts[root] / n;
    m.add((static_cast<MPI_Aint>(displs[root]) + lo) * rtype.extent, hi - lo);
  };
  thread_local Message send, recv;  // their vectors' storage kept for the next call
  for (std::int64_t v = x; v < n - 1 + q + x; ++v) {
    const int k = static_cast<int>(v % q);
    const std::int64_t offset = (v / q) * q - x;  // block of entry e in this phase: e + offset
    const int to = static_cast<int>(s.to(rank, k)), from = static_cast<int>(s.from(rank, k));
    send.clear();
    recv.clear();
    for (int root = 0; root < p; ++root) {
      const std::int64_t me = s.mod(rank - root);
      if (s.mod(to - root) != 0) piece(send, root, schedule.send(me, k) + offset);
      if (me != 0) piece(recv, root, schedule.recv(me, k) + offset);
    }
    char *send_at = nullptr, *recv_at = nullptr;
    int send_elements = 0, recv_elements = 0;
    MPI_Datatype send_type = recvtype, recv_type = recvtype;
    if (blocking) {
      OwnedType send_owned, recv_owned;
      if (!send.empty()) send.describe(base, recvtype, send_owned, &send_at, &send_elements, &send_type);
      if (!recv.empty()) recv.describe(base, recvtype, recv_owned, &recv_at, &recv_elements, &recv_type);
      check(PMPI_Sendrecv(send_at, send_elements, send_type, send.empty() ? MPI_PROC_NULL : to,
                          tag::kAllgathervRound, recv_at, recv_elements, recv_type,
                          recv.empty() ? MPI_PROC_NULL : from, tag::kAllgathervRound, c,
                          MPI_STATUS_IGNORE),
            "MPI_Sendrecv");
      continue;
    }
    if (!window) {
      stream_round(send, recv, base, recvtype, rtype, part_bytes, parts_in_flight, to, from, c);
      continue;
    }
    RoundWindow::Slot& slot = window->next();
    if (!recv.empty()) {
      recv.describe(base, recvtype, slot.recv_type, &recv_at, &recv_elements, &recv_type);
      check(PMPI_Irecv(recv_at, recv_elements, recv_type, from, tag::kAllgathervRound, c,
                       &slot.recv),
            "MPI_Irecv");
    }
    window->arrive_before_current();  // this round sends what came in any earlier round
    if (!send.empty()) {
      send.describe(base, recvtype, slot.send_type, &send_at, &send_elements, &send_type);
      check(PMPI_Isend(send_at, send_elements, send_type, to, tag::kAllgathervRound, c,
                       &slot.send),
            "MPI_Isend");
    }
  }
  if (window) window->finish();
}

}  // namespace rosched::mpi
