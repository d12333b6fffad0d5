// Rounds streamed in parts (round_stream.h).
#include "mpi_exec/round_stream.h"

#include <algorithm>
#include <cmath>

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

StreamPlan stream_plan(const CostModel& model, double round_bytes, bool messages_differ) {
  StreamPlan plan;
  if (settings().stream_part > 0) {
    plan.part_bytes = settings().stream_part;
  } else if (const std::int64_t k =
                 stream_parts(model, round_bytes, 1, 1, kMaxPipelineBlocks, true);
             k > 1) {
    plan.part_bytes = round_bytes / static_cast<double>(k);
  }
  if (plan.streamed()) {
    plan.in_flight = stream_window(model, plan.part_bytes);
    plan.synchronous = messages_differ && synchronous_sends(model, plan.part_bytes);
  }
  return plan;
}

const CostModel* round_stream_model(const CommInfo& comm, double bytes) {
  return comm.p > 1 && (settings().stream_part > 0 || bytes / 2 > kStreamSizes[0])
             ? &cost_model(comm)
             : nullptr;
}

void stream_round(const RoundMessage& send, char* send_base, const RoundMessage& recv,
                  char* recv_base, MPI_Datatype element, const TypeInfo& type,
                  const StreamPlan& plan, int to, int from, int tag, MPI_Comm c,
                  const std::function<void(std::int64_t, std::int64_t)>& arrived) {
  struct Part {
    MPI_Request request = MPI_REQUEST_NULL;
    OwnedType type;
  };
  const int window = std::max(plan.in_flight, 1);
  // At least twice the receiver's window (round_stream.h), at least kStreamSendsAhead.
  const int send_window = std::max(2 * window, kStreamSendsAhead);
  thread_local std::vector<Part> sends;
  thread_local std::vector<Part> recvs;
  recvs.resize(static_cast<std::size_t>(window));
  sends.resize(static_cast<std::size_t>(send_window));
  // Element j parts' of a message of e elements cut into `parts`, without overflow.
  const auto cut = [](std::int64_t e, std::int64_t j, std::int64_t parts) {
    return static_cast<std::int64_t>(static_cast<__int128>(j) * e / parts);
  };
  const auto post = [&](const RoundMessage& m, std::int64_t k, std::int64_t parts, Part& part,
                        bool is_send) {
    const std::int64_t e = m.elements();
    char* at = nullptr;
    int count = 0;
    MPI_Datatype t = element;
    m.describe_part(cut(e, k, parts), cut(e, k + 1, parts), type.extent,
                    is_send ? send_base : recv_base, element, part.type, &at, &count, &t);
    if (is_send) {
      if (plan.synchronous) {
        check(PMPI_Issend(at, count, t, to, tag, c, &part.request), "MPI_Issend");
      } else {
        check(PMPI_Isend(at, count, t, to, tag, c, &part.request), "MPI_Isend");
      }
    } else {
      check(PMPI_Irecv(at, count, t, from, tag, c, &part.request), "MPI_Irecv");
    }
  };
  const std::int64_t recv_parts =
      recv.empty() ? 0 : part_count(recv.elements(), type.size, plan.part_bytes);
  const std::int64_t send_parts =
      send.empty() ? 0 : part_count(send.elements(), type.size, plan.part_bytes);
  const auto recv_slot = [&](std::int64_t k) -> Part& {
    return recvs[static_cast<std::size_t>(k % window)];
  };
  const auto send_slot = [&](std::int64_t k) -> Part& {
    return sends[static_cast<std::size_t>(k % send_window)];
  };
  // The receives first, so that the first parts find them posted.
  for (std::int64_t k = 0; k < std::min<std::int64_t>(recv_parts, window); ++k) {
    post(recv, k, recv_parts, recv_slot(k), false);
  }
  for (std::int64_t k = 0; k < std::min<std::int64_t>(send_parts, send_window); ++k) {
    post(send, k, send_parts, send_slot(k), true);
  }
  // Parts complete in order on each side (MPI's order of messages between two ranks with one
  // tag). While sends are still to be posted, the oldest part of each side is waited for at once,
  // so that neither window stalls the other; once every send is posted, the receives in order,
  // then the sends.
  std::int64_t got = 0, sent = 0;
  while (got < recv_parts || sent < send_parts) {
    int which = got < recv_parts ? 0 : 1;
    if (sent + send_window < send_parts) {
      MPI_Request oldest[2] = {got < recv_parts ? recv_slot(got).request : MPI_REQUEST_NULL,
                               send_slot(sent).request};
      check(PMPI_Waitany(2, oldest, &which, MPI_STATUS_IGNORE), "MPI_Waitany");
      if (which == MPI_UNDEFINED) throw Error(MPI_ERR_INTERN, "stream_round: no part pending");
    } else {
      Part& part = which == 0 ? recv_slot(got) : send_slot(sent);
      check(PMPI_Wait(&part.request, MPI_STATUS_IGNORE), "MPI_Wait");
    }
    if (which == 0) {
      Part& part = recv_slot(got);
      part.request = MPI_REQUEST_NULL;
      part.type = OwnedType();
      if (got + window < recv_parts) post(recv, got + window, recv_parts, part, false);
      if (arrived) {
        arrived(cut(recv.elements(), got, recv_parts), cut(recv.elements(), got + 1, recv_parts));
      }
      ++got;
    } else {
      Part& part = send_slot(sent);
      part.request = MPI_REQUEST_NULL;
      part.type = OwnedType();
      if (sent + send_window < send_parts) post(send, sent + send_window, send_parts, part, true);
      ++sent;
    }
  }
}

}  // namespace rosched::mpi
