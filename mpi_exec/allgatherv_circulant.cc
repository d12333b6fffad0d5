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
// has arrived. Whole messages go eagerly (MPI_Isend): synchronous ones, as the pipelined
// broadcasts send where each rank's own link limits (cost_model.h, synchronous_sends), were
// tried and not kept (SimGrid SMPI, paper platform, 36 x 1, G = 2000's few blocks: the same to
// 0.1 us from 64 KiB to 16 MiB with bench's three distributions, except 173.1 against 160.8 us
// eager with the (r mod 3) counts at 1 MiB).
// Where the cost model's stream figures say a round's message moves faster as a stream of
// smaller parts than whole (stream_parts, cost_model.h: SimGrid SMPI moves 5,776-9,375 B
// messages at 1.09 of a link's bandwidth, large ones at 0.94, and a backbone shared by every rank
// at 1.03 / 1.12 of its nominal time, scripts/backbone_probe.sh), each round's two messages are
// cut into parts of whole elements and streamed (stream_round), the rounds then one after the
// other; with unequal counts the parts go synchronously where the cost model says a rank's own
// link limits (stream_plan: an eager part sent late shares its sender's link with the next
// round's and slows the critical path; 36 x 1, 16 MiB in all, (r mod 3) counts: 902.5 against
// 1,023.4 us). ROSCHED_STREAM_PART sets the parts' size.
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
#include "mpi_exec/round_stream.h"
#include "mpi_exec/settings.h"
#include "mpi_exec/tags.h"
#include "sched/circulant/full_schedule.h"

namespace rosched::mpi {

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
  bool counts_differ = false;
  for (int j = 0; j < p; ++j) {
    total_bytes += static_cast<double>(recvcounts[j]) * rtype.size;
    counts_differ = counts_differ || recvcounts[j] != recvcounts[0];
  }
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
  StreamPlan plan;
  std::optional<RoundWindow> window;
  // One block per root: round k carries the blocks of skips[k+1] - skips[k] roots, streamed in
  // parts where the cost model says that is faster for the round's nominal size (those roots'
  // share of the data, the same on every rank, as the all-gather's rounds in
  // circulant_rounds.cc).
  const CostModel* round_model = blocking ? round_stream_model(ci, total_bytes) : nullptr;
  if (!blocking) {
    const CostModel& model = cost_model(ci);
    const double round_bytes = total_bytes / static_cast<double>(n);
    plan = stream_plan(model, round_bytes, counts_differ);
    if (!plan.streamed()) window.emplace(window_rounds(model, round_bytes));
  }
  char algorithm[96] = "pipelined";
  if (blocking) {
    std::snprintf(algorithm, sizeof algorithm,
                  round_model != nullptr ? "one block, rounds in parts where streamed faster"
                                         : "one block");
  } else if (plan.streamed()) {
    std::snprintf(algorithm, sizeof algorithm, "pipelined, rounds in parts of %.0f B%s",
                  plan.part_bytes, plan.synchronous ? ", sent synchronously" : "");
  }
  tell_choice(ci, name, algorithm, n,
              window ? window->size() : plan.streamed() ? plan.in_flight : 1, total_bytes);
  const std::int64_t x = (q - (n - 1) % q) % q;  // virtual rounds done before the first
  const auto piece = [&](RoundMessage& m, int root, std::int64_t block) {
    if (block < 0) return;
    block = std::min(block, n - 1);
    const std::int64_t lo = block * recvcounts[root] / n, hi = (block + 1) * recvcounts[root] / n;
    m.add((static_cast<MPI_Aint>(displs[root]) + lo) * rtype.extent, hi - lo);
  };
  thread_local RoundMessage send, recv;  // their vectors' storage kept for the next call
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
      if (round_model != nullptr) {
        const StreamPlan round_plan =
            stream_plan(*round_model, total_bytes * static_cast<double>(s[k + 1] - s[k]) / p,
                        counts_differ);
        if (round_plan.streamed()) {
          stream_round(send, base, recv, base, recvtype, rtype, round_plan, to, from,
                       tag::kAllgathervRound, c);
          continue;
        }
      }
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
      stream_round(send, base, recv, base, recvtype, rtype, plan, to, from, tag::kAllgathervRound,
                   c);
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
