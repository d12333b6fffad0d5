// Rounds streamed in parts (round_stream.h).
#include "mpi_exec/round_stream.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "mpi_exec/mpi_call.h"
#include "mpi_exec/settings.h"

namespace rosched::mpi {
namespace {

// The fewest sends of a stream posted ahead: a message of at most this many parts has every send
// posted at once, as before the sends had a window (SimGrid SMPI then runs the same calls); a
// longer one keeps this many pending, where Open MPI's progress over 57,000 pending sends was
// what made parts of 7 B slow (round_stream.h).
constexpr int kStreamSendsAhead = 64;

void describe_pieces(const std::vector<int>& lengths, const std::vector<MPI_Aint>& offsets,
                     char* base, MPI_Datatype element, OwnedType& owned, char** at, int* count,
                     MPI_Datatype* type) {
  if (lengths.size() == 1) {
    *at = base + offsets[0], *count = lengths[0], *type = element;
    return;
  }
  owned = hindexed(static_cast<int>(lengths.size()), lengths.data(), offsets.data(), element);
  *at = base, *count = 1, *type = owned.get();
}

// stream_ports_round for a plan not streamed: each port's messages whole, every receive posted
// before any send, all awaited at once; cancelled and freed if an error ends the round early.
void whole_ports_round(const StreamPort* ports, int m, MPI_Datatype element, int tag, MPI_Comm c,
                       const std::function<void(int, std::int64_t, std::int64_t)>& arrived) {
  struct Requests {
    std::vector<MPI_Request> r;
    ~Requests() { cancel_requests(r.data(), static_cast<int>(r.size())); }
  };
  thread_local std::vector<OwnedType> types;  // each message's datatype, if it needs one
  Requests requests;
  requests.r.assign(2 * static_cast<std::size_t>(m), MPI_REQUEST_NULL);
  types.resize(2 * static_cast<std::size_t>(m));
  const auto post = [&](int j, bool is_send) {
    const StreamPort& port = ports[j];
    const RoundMessage& msg = is_send ? *port.send : *port.recv;
    if (msg.empty()) return;
    const std::size_t i = static_cast<std::size_t>(is_send ? m + j : j);
    char* at = nullptr;
    int count = 0;
    MPI_Datatype t = element;
    msg.describe(is_send ? port.send_base : port.recv_base, element, types[i], &at, &count, &t);
    if (is_send) {
      check(PMPI_Isend(at, count, t, port.to, tag, c, &requests.r[i]), "MPI_Isend");
    } else {
      check(PMPI_Irecv(at, count, t, port.from, tag, c, &requests.r[i]), "MPI_Irecv");
    }
  };
  for (int j = 0; j < m; ++j) post(j, false);
  for (int j = 0; j < m; ++j) post(j, true);
  check(PMPI_Waitall(2 * m, requests.r.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  for (OwnedType& t : types) t = OwnedType();
  if (!arrived) return;
  for (int j = 0; j < m; ++j) {
    if (!ports[j].recv->empty()) arrived(j, 0, ports[j].recv->elements());
  }
}

// The number of parts a message of `elements` elements of `size` bytes goes in, streamed in
// parts of about part_bytes: ceil(bytes / part_bytes), at least 1, at most one an element.
std::int64_t part_count(std::int64_t elements, int size, double part_bytes) {
  const double bytes = static_cast<double>(elements) * size;
  const double parts = std::ceil(bytes / part_bytes);
  return std::clamp<std::int64_t>(static_cast<std::int64_t>(std::min(parts, 1e18)), 1,
                                  std::max<std::int64_t>(elements, 1));
}

}  // namespace

void RoundMessage::clear() {
  lengths_.clear();
  offsets_.clear();
  starts_.clear();
  elements_ = 0;
}

void RoundMessage::add(MPI_Aint byte_offset, std::int64_t elements) {
  if (elements == 0) return;
  lengths_.push_back(static_cast<int>(elements));
  offsets_.push_back(byte_offset);
  starts_.push_back(elements_);
  elements_ += elements;
}

void add_cyclic_blocks(RoundMessage& m, const BlockCut& cut, std::int64_t b, std::int64_t c,
                       MPI_Aint extent) {
  const WrappedRange r = wrapped_range(cut.first(b), cut.elements(b, c), cut.n);
  m.add(static_cast<MPI_Aint>(r.first) * extent, r.head);
  m.add(0, r.tail);
}

void RoundMessage::describe(char* base, MPI_Datatype element, OwnedType& owned, char** at,
                            int* count, MPI_Datatype* type) const {
  describe_pieces(lengths_, offsets_, base, element, owned, at, count, type);
}

void RoundMessage::describe_part(std::int64_t lo, std::int64_t hi, MPI_Aint extent, char* base,
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

namespace {

// The plan of a round of round_bytes in `parts` parts (ROSCHED_STREAM_PART's instead, if set):
// whole for one part, else the window and the sends for the parts' size.
StreamPlan plan_of_parts(const CostModel& model, double round_bytes, std::int64_t parts,
                         bool messages_differ) {
  StreamPlan plan;
  if (settings().stream_part > 0) {
    plan.part_bytes = settings().stream_part;
  } else if (parts > 1) {
    plan.part_bytes = round_bytes / static_cast<double>(parts);
  }
  if (plan.streamed()) {
    plan.in_flight = stream_window(model, plan.part_bytes);
    plan.synchronous = messages_differ && synchronous_sends(model, plan.part_bytes);
  }
  return plan;
}

}  // namespace

StreamPlan stream_plan(const CostModel& model, double round_bytes, bool messages_differ) {
  return plan_of_parts(model, round_bytes,
                       stream_parts(model, round_bytes, 1, 1, kMaxPipelineBlocks, true),
                       messages_differ);
}

StreamPlan fan_stream_plan(const CostModel& model, double message_bytes, bool messages_differ) {
  return plan_of_parts(model, message_bytes, fan_parts(model, message_bytes, kMaxPipelineBlocks),
                       messages_differ);
}

bool rounds_could_stream(int p, double bytes) {
  return p > 1 && (settings().stream_part > 0 || bytes / 2 > kStreamSizes[0]);
}

const CostModel* round_stream_model(const CommInfo& comm, double bytes) {
  return rounds_could_stream(comm.p, bytes) ? &cost_model(comm) : nullptr;
}

void stream_round(const RoundMessage& send, char* send_base, const RoundMessage& recv,
                  char* recv_base, MPI_Datatype element, const TypeInfo& type,
                  const StreamPlan& plan, int to, int from, int tag, MPI_Comm c,
                  const std::function<void(std::int64_t, std::int64_t)>& arrived) {
  const StreamPort port{&send, send_base, &recv, recv_base, to, from};
  stream_ports_round(&port, 1, element, type, plan, tag, c,
                     arrived ? [&](int, std::int64_t lo, std::int64_t hi) { arrived(lo, hi); }
                             : std::function<void(int, std::int64_t, std::int64_t)>());
}

void stream_ports_round(const StreamPort* ports, int m, MPI_Datatype element, const TypeInfo& type,
                        const StreamPlan& plan, int tag, MPI_Comm c,
                        const std::function<void(int, std::int64_t, std::int64_t)>& arrived) {
  struct Part {
    MPI_Request request = MPI_REQUEST_NULL;
    OwnedType type;
  };
  // A port's stream: its parts, how many have arrived or gone, its windows' slots.
  struct Stream {
    std::int64_t recv_parts = 0, send_parts = 0, got = 0, sent = 0;
  };
  if (m <= 0) return;
  if (!plan.streamed()) return whole_ports_round(ports, m, element, tag, c, arrived);
  // The receiver's window shared out among the ports (round_stream.h).
  const int window = std::max((std::max(plan.in_flight, 1) + m - 1) / m, 1);
  // At least twice the receiver's window, at least kStreamSendsAhead over all ports.
  const int send_window = std::max(2 * window, (kStreamSendsAhead + m - 1) / m);
  thread_local std::vector<Part> sends;
  thread_local std::vector<Part> recvs;
  thread_local std::vector<Stream> streams;
  thread_local std::vector<MPI_Request> oldest;
  thread_local std::vector<std::pair<int, int>> oldest_of;  // (port, 0 receive / 1 send)
  recvs.resize(static_cast<std::size_t>(window) * m);
  sends.resize(static_cast<std::size_t>(send_window) * m);
  streams.assign(static_cast<std::size_t>(m), Stream{});
  // Element j parts' of a message of e elements cut into `parts`, without overflow.
  const auto cut = [](std::int64_t e, std::int64_t j, std::int64_t parts) {
    return static_cast<std::int64_t>(static_cast<__int128>(j) * e / parts);
  };
  const auto recv_slot = [&](int j, std::int64_t k) -> Part& {
    return recvs[static_cast<std::size_t>(j) * window + static_cast<std::size_t>(k % window)];
  };
  const auto send_slot = [&](int j, std::int64_t k) -> Part& {
    return sends[static_cast<std::size_t>(j) * send_window +
                 static_cast<std::size_t>(k % send_window)];
  };
  const auto post = [&](int j, std::int64_t k, bool is_send) {
    const StreamPort& port = ports[j];
    const RoundMessage& msg = is_send ? *port.send : *port.recv;
    const std::int64_t parts = is_send ? streams[j].send_parts : streams[j].recv_parts;
    Part& part = is_send ? send_slot(j, k) : recv_slot(j, k);
    const std::int64_t e = msg.elements();
    char* at = nullptr;
    int count = 0;
    MPI_Datatype t = element;
    msg.describe_part(cut(e, k, parts), cut(e, k + 1, parts), type.extent,
                      is_send ? port.send_base : port.recv_base, element, part.type, &at, &count,
                      &t);
    if (!is_send) {
      check(PMPI_Irecv(at, count, t, port.from, tag, c, &part.request), "MPI_Irecv");
    } else if (plan.synchronous) {
      check(PMPI_Issend(at, count, t, port.to, tag, c, &part.request), "MPI_Issend");
    } else {
      check(PMPI_Isend(at, count, t, port.to, tag, c, &part.request), "MPI_Isend");
    }
  };
  for (int j = 0; j < m; ++j) {
    Stream& s = streams[j];
    if (!ports[j].recv->empty()) {
      s.recv_parts = part_count(ports[j].recv->elements(), type.size, plan.part_bytes);
    }
    if (!ports[j].send->empty()) {
      s.send_parts = part_count(ports[j].send->elements(), type.size, plan.part_bytes);
    }
  }
  // The receives first, so that the first parts find them posted.
  for (int j = 0; j < m; ++j) {
    for (std::int64_t k = 0; k < std::min<std::int64_t>(streams[j].recv_parts, window); ++k) {
      post(j, k, false);
    }
  }
  for (int j = 0; j < m; ++j) {
    for (std::int64_t k = 0; k < std::min<std::int64_t>(streams[j].send_parts, send_window); ++k) {
      post(j, k, true);
    }
  }
  // Parts complete in order on each side of a port (MPI's order of messages between two ranks
  // with one tag). While sends are still to be posted, the oldest part of each side of every port
  // is waited for at once, so that no window stalls another; once every send is posted, the
  // oldest receive of every port, then the oldest send of every port.
  const auto receiving = [&](int j) { return streams[j].got < streams[j].recv_parts; };
  const auto sending = [&](int j) { return streams[j].sent < streams[j].send_parts; };
  for (;;) {
    bool posting = false, any_recv = false, any_send = false;
    for (int j = 0; j < m; ++j) {
      posting = posting || streams[j].sent + send_window < streams[j].send_parts;
      any_recv = any_recv || receiving(j);
      any_send = any_send || sending(j);
    }
    if (!any_recv && !any_send) break;
    oldest.clear();
    oldest_of.clear();
    for (int j = 0; j < m; ++j) {
      if (posting || any_recv) {
        oldest.push_back(receiving(j) ? recv_slot(j, streams[j].got).request : MPI_REQUEST_NULL);
        oldest_of.emplace_back(j, 0);
      }
      if ((posting || !any_recv) && sending(j)) {
        oldest.push_back(send_slot(j, streams[j].sent).request);
        oldest_of.emplace_back(j, 1);
      }
    }
    int which = 0;
    if (oldest.size() == 1) {
      check(PMPI_Wait(&oldest[0], MPI_STATUS_IGNORE), "MPI_Wait");
    } else {
      check(PMPI_Waitany(static_cast<int>(oldest.size()), oldest.data(), &which, MPI_STATUS_IGNORE),
            "MPI_Waitany");
      if (which == MPI_UNDEFINED) throw Error(MPI_ERR_INTERN, "stream_round: no part pending");
    }
    const auto [j, side] = oldest_of[static_cast<std::size_t>(which)];
    Stream& s = streams[j];
    if (side == 0) {
      Part& part = recv_slot(j, s.got);
      part.request = MPI_REQUEST_NULL;
      part.type = OwnedType();
      if (s.got + window < s.recv_parts) post(j, s.got + window, false);
      if (arrived) {
        const std::int64_t e = ports[j].recv->elements();
        arrived(j, cut(e, s.got, s.recv_parts), cut(e, s.got + 1, s.recv_parts));
      }
      ++s.got;
    } else {
      Part& part = send_slot(j, s.sent);
      part.request = MPI_REQUEST_NULL;
      part.type = OwnedType();
      if (s.sent + send_window < s.send_parts) post(j, s.sent + send_window, true);
      ++s.sent;
    }
  }
}

}  // namespace rosched::mpi
