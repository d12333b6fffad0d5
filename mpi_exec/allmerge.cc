// Rosched_Allmerge: merge-allreduce after Lang 2025 (Algorithms 0, 1 and 2; sched/merge/), walking
// the schedule descriptions the verifier checks (verify --family merge).
//
// Blocks have different sizes (recvcounts, known on every rank), so every message's size and
// the split of a message into its main and partial part follow from prefix sums of recvcounts
// over the cyclic rank ranges the schedule names: no probing.
//
// Ties are broken by origin rank, so every rank ends with the identical sequence. A run that
// holds a cyclic range of ranks [a, a + c) which wraps past rank p - 1 is kept as two sorted
// parts, the "low" part (origins 0 .. a + c - p - 1) before the "high" part (origins a .. p - 1);
// a merge of adjacent runs merges low parts with low parts and high with high, each stable with
// the lower origins first, and the final merge takes all low parts, then all high parts. The
// merge work stays O(n) per rank for Algorithms 1 and 2 (each element is written about 2-3
// times), also with unequal blocks, whose largest are kept apart (allmerge_layout.h); Algorithm
// 0 writes every element ceil(log2 p) times.
#include "mpi_exec/allmerge.h"

#include <algorithm>
#include <array>
#include <climits>
#include <memory>
#include <string>
#include <vector>

#include "mpi_exec/allmerge_layout.h"
#include "mpi_exec/args.h"
#include "mpi_exec/datatype.h"
#include "mpi_exec/merge_kernel.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/rosched_mpi.h"
#include "mpi_exec/tags.h"
#include "sched/merge/merge_plan.h"

namespace rosched::mpi {
namespace {

using merge::Range;
using merge::Slot;

using Counts = BlockCounts;

// One sorted part of a run (allmerge_layout.h): the merge of the blocks of `range`, low part
// first, at `data`, in a buffer of ours (owner) or the user's send buffer (owner null).
struct Part {
  std::shared_ptr<ElementBuffer> owner;
  const void* data = nullptr;
  Range range;
  std::int64_t n = 0, low = 0;
};

// At most N values, held in place: a call of Rosched_Allmerge on small blocks must not spend
// its time allocating.
template <typename T, int N>
class Few {
 public:
  void push_back(T value) {
    if (n_ == N) throw Error(MPI_ERR_INTERN, "allmerge: more parts than a run can have");
    values_[n_++] = std::move(value);
  }
  void clear() {  // also lets go of what the values refer to
    for (int i = 0; i < n_; ++i) values_[i] = T();
    n_ = 0;
  }
  int size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const T& operator[](int i) const { return values_[i]; }
  const T& front() const { return values_[0]; }
  const T& back() const { return values_[n_ - 1]; }
  const T* begin() const { return values_.data(); }
  const T* end() const { return values_.data() + n_; }

 private:
  std::array<T, N> values_{};
  int n_ = 0;
};

// A run has at most 3 parts (run_layout); a merge has at most 4 sources.
using Parts = Few<Part, 3>;
using PartRefs = Few<const Part*, 3 * 4>;

// What a slot holds: the blocks of `range` as the parts of run_layout(range), in range order.
struct Run {
  Range range;
  Parts parts;
  std::int64_t n = 0;
};

// Buffers for parts, reused once no part refers to them any more.
class BufferPool {
 public:
  explicit BufferPool(const TypeInfo& type) : type_(type) {}
  std::shared_ptr<ElementBuffer> take(std::int64_t n) {
    for (const auto& b : buffers_) {
      if (b.use_count() == 1) {
        b->resize(n);
        return b;
      }
    }
    buffers_.push_back(std::make_shared<ElementBuffer>(type_));
    buffers_.back()->resize(n);
    return buffers_.back();
  }

 private:
  TypeInfo type_;
  std::vector<std::shared_ptr<ElementBuffer>> buffers_;
};

// Writes the merge of spans to the user's receive buffer (through a buffer of ours and a typed
// copy if the datatype has gaps or a lower bound).
void merge_into_recvbuf(Merger& merger, const std::vector<Span>& spans, std::int64_t total,
                        void* recvbuf, MPI_Datatype datatype, const TypeInfo& type) {
  if (total == 0) return;
  if (contiguous(type)) return merger.merge(spans, recvbuf);
  ElementBuffer out(type);
  out.resize(total);
  merger.merge(spans, out.at(0));
  local_copy(out.at(0), recvbuf, static_cast<int>(total), datatype);
}

// Algorithms 1 and 2: the schedule's rounds over runs laid out by run_layout
// (allmerge_layout.h): a merge merges part by part and hands a part that is a whole part of the
// result (a heavy block) on without copying it; a run of several parts travels as one message
// (a datatype over the parts).
class PlanRun {
 public:
  PlanRun(const merge::MergeSchedule& me, const Counts& counts, const TypeInfo& type,
          MPI_Datatype datatype, Merger& merger, MPI_Comm c)
      : me_(me), counts_(counts), type_(type), datatype_(datatype), merger_(merger), c_(c),
        pool_(type) {}

  void run(const void* own, bool copy_own, void* recvbuf) {
    Run& v = slot(Slot::kOwn);
    v.range = me_.own();
    v.n = counts_.of(v.range);
    Part part{nullptr, own, v.range, v.n, counts_.low(v.range)};
    if (copy_own) {  // MPI_IN_PLACE: the block is in the receive buffer, which the result overwrites
      part.owner = pool_.take(v.n);
      merger_.merge({Span{own, v.n}}, part.owner->at(0));
      part.data = part.owner->at(0);
    }
    v.parts.clear();
    v.parts.push_back(part);
    for (std::int64_t i = 0; i < me_.rounds(); ++i) {
      const merge::MergeRound rd = me_.round(i);
      exchange(rd);
      for (int k = 0; k < rd.op_count; ++k) apply(rd.ops[k]);
    }
    PartRefs parts;
    const Range all = union_of(me_.final_op(), parts);
    std::vector<Span> low, high;
    split(all, parts, low, high);
    low.insert(low.end(), high.begin(), high.end());
    merge_into_recvbuf(merger_, low, counts_.of(all), recvbuf, datatype_, type_);
  }

 private:
  Run& slot(Slot s) { return runs_[static_cast<int>(s)]; }

  void exchange(const merge::MergeRound& rd) {
    std::array<MPI_Request, 4> req;
    std::array<OwnedType, 2> types;  // of the sends of several parts, alive until the wait
    int ntypes = 0, nreq = 0;
    const std::pair<const merge::Piece*, int> recvs[] = {{&rd.recv_main, tag::kAllmergeMain},
                                                         {&rd.recv_partial, tag::kAllmergePartial}};
    for (const auto& [piece, tag] : recvs) {
      if (!*piece) continue;
      Run& r = slot(piece->slot);
      r.parts.clear();  // frees its buffers for the pool
      r.range = piece->range;
      r.n = counts_.of(r.range);
      const std::shared_ptr<ElementBuffer> buffer = pool_.take(r.n);
      lay_out(r, buffer);
      check(PMPI_Irecv(buffer->at(0), static_cast<int>(r.n), datatype_, static_cast<int>(rd.from),
                      tag, c_, &req[nreq++]),
            "MPI_Irecv");
    }
    const std::pair<const merge::Piece*, int> sends[] = {{&rd.send_main, tag::kAllmergeMain},
                                                         {&rd.send_partial, tag::kAllmergePartial}};
    for (const auto& [piece, tag] : sends) {
      if (!*piece) continue;
      const Run& r = slot(piece->slot);
      if (r.n != counts_.of(piece->range) || r.range.count != piece->range.count) {
        throw Error(MPI_ERR_INTERN, "allmerge: slot " + std::string(merge::slot_name(piece->slot)) +
                                        " does not hold what the schedule sends");
      }
      // The non-empty parts: an empty one may have no storage (a null address, which MPI
      // forbids for a count above 0, as in a datatype over several parts).
      Few<const Part*, 3> full;
      for (const Part& q : r.parts) {
        if (q.n > 0) full.push_back(&q);
      }
      const void* data = full.empty() ? nullptr : full[0]->data;
      int count = static_cast<int>(r.n);
      MPI_Datatype type = datatype_;
      if (full.size() > 1) {
        types[ntypes] = parts_type(full);
        count = 1;
        type = types[ntypes++].get();
      }
      check(PMPI_Isend(data, count, type, static_cast<int>(rd.to), tag, c_, &req[nreq++]),
            "MPI_Isend");
    }
    check(PMPI_Waitall(nreq, req.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

  // r's parts, consecutive in buffer, as the sender laid them out.
  void lay_out(Run& r, const std::shared_ptr<ElementBuffer>& buffer) {
    const RunLayout layout = run_layout(r.range, counts_);
    std::int64_t at = 0;
    for (int k = 0; k < layout.parts; ++k) {
      const Range& q = layout.part[k];
      const std::int64_t n = counts_.of(q);
      r.parts.push_back(Part{buffer, buffer->at(at), q, n, counts_.low(q)});
      at += n;
    }
  }

  // Parts as one datatype: the elements of each, at its distance from the first.
  OwnedType parts_type(const Few<const Part*, 3>& parts) const {
    std::array<int, 3> lengths;
    std::array<MPI_Aint, 3> offsets;
    MPI_Aint base = 0;
    check(PMPI_Get_address(parts[0]->data, &base), "MPI_Get_address");
    for (int k = 0; k < parts.size(); ++k) {
      MPI_Aint address = 0;
      check(PMPI_Get_address(parts[k]->data, &address), "MPI_Get_address");
      lengths[k] = static_cast<int>(parts[k]->n);
      offsets[k] = address - base;
    }
    return hindexed(parts.size(), lengths.data(), offsets.data(), datatype_);
  }

  // The parts of op's sources in range order; returns the range they cover together.
  Range union_of(const merge::MergeOp& op, PartRefs& parts) {
    Range result{};
    for (int j = 0; j < op.sources; ++j) {
      const Run& s = slot(op.src[j]);
      if (s.range.count == 0) continue;
      if (result.count == 0) result.first = s.range.first;
      result.count += s.range.count;
      for (const Part& q : s.parts) parts.push_back(&q);
    }
    return result;
  }

  // The low and high spans of parts within the cyclic range `whole` (see the file comment).
  void split(const Range& whole, const PartRefs& parts, std::vector<Span>& low,
             std::vector<Span>& high) const {
    const std::int64_t p = me_.p();
    for (const Part* s : parts) {
      const auto* base = static_cast<const unsigned char*>(s->data);
      const std::int64_t linear = whole.first + merge::cyclic(s->range.first, -whole.first, p);
      if (linear >= p) {  // past the wrap of `whole`: all of it is low (it does not wrap itself)
        low.push_back(Span{base, s->n});
        continue;
      }
      low.push_back(Span{base, s->low});
      high.push_back(Span{base + s->low * static_cast<std::int64_t>(type_.extent), s->n - s->low});
    }
  }

  // The merge of parts into one new part over q.
  Part merged(const Range& q, const PartRefs& parts) {
    std::vector<Span> low, high;
    split(q, parts, low, high);
    std::int64_t low_n = 0, n = 0;
    for (const Span& s : low) low_n += s.n;
    for (const Span& s : high) n += s.n;
    n += low_n;
    Part out{pool_.take(n), nullptr, q, n, low_n};
    out.data = out.owner->at(0);
    merger_.merge(low, out.owner->at(0));
    merger_.merge(high, out.owner->at(low_n));
    return out;
  }

  void apply(const merge::MergeOp& op) {
    Run& dst = slot(op.dst);
    if (op.sources == 1 && (op.src[0] == Slot::kRecvMain || op.src[0] == Slot::kRecvPartial)) {
      std::swap(dst, slot(op.src[0]));  // take the received run as it is: no copy
      return;
    }
    PartRefs sources;
    Run out;
    out.range = union_of(op, sources);
    out.n = counts_.of(out.range);
    const RunLayout layout = run_layout(out.range, counts_);
    int next = 0;
    for (int k = 0; k < layout.parts; ++k) {
      const Range& q = layout.part[k];
      PartRefs in;
      std::int64_t blocks = 0;
      while (blocks < q.count && next < sources.size()) {
        in.push_back(sources[next++]);
        blocks += in.back()->range.count;
      }
      if (blocks != q.count || in.front()->range.first != q.first) {
        throw Error(MPI_ERR_INTERN, "allmerge: a source's part straddles a part of the merge");
      }
      out.parts.push_back(in.size() == 1 ? *in.front() : merged(q, in));  // one: handed on
    }
    dst = std::move(out);
  }

  const merge::MergeSchedule& me_;
  const Counts& counts_;
  const TypeInfo& type_;
  MPI_Datatype datatype_;
  Merger& merger_;
  MPI_Comm c_;
  BufferPool pool_;
  std::array<Run, merge::kSlotCount> runs_{};
};

// A datatype over a buffer of blocks in rank order: the blocks of the cyclic range r (one or
// two contiguous pieces).
OwnedType range_type(const Range& r, const Counts& counts, int p, MPI_Datatype datatype,
                     const TypeInfo& type) {
  std::vector<int> lengths;
  std::vector<MPI_Aint> offsets;
  const WrappedRange w = wrapped_range(r.first, r.count, p);
  const Range pieces[] = {{w.first, w.head}, {0, w.tail}};
  for (const Range& piece : pieces) {
    const std::int64_t n = counts.of(piece);
    if (piece.count == 0 || n == 0) continue;
    lengths.push_back(static_cast<int>(n));
    offsets.push_back(static_cast<MPI_Aint>(counts.before(piece.first)) * type.extent);
  }
  return hindexed(static_cast<int>(lengths.size()), lengths.data(), offsets.data(), datatype);
}

// The merge tree over the p blocks of `gathered` (rank order, rank j's at counts.before(j)):
// ceil(log2 p) levels of pairwise merges, the last into the receive buffer.
void merge_tree(ElementBuffer& gathered, const Counts& counts, void* recvbuf, MPI_Datatype datatype,
                const TypeInfo& type, Merger& merger) {
  const std::int64_t p = counts.p();
  if (p == 1) {
    merge_into_recvbuf(merger, {Span{gathered.at(0), counts.total()}}, counts.total(), recvbuf,
                       datatype, type);
    return;
  }
  ElementBuffer other(type);  // the levels before the last (none at p = 2)
  if (p > 2) other.resize(counts.total());
  ElementBuffer* from = &gathered;
  ElementBuffer* to = &other;
  for (std::int64_t width = 1; width < p; width *= 2) {
    const bool last = 2 * width >= p;
    for (std::int64_t a = 0; a < p; a += 2 * width) {
      const std::int64_t b = std::min(a + width, p), e = std::min(a + 2 * width, p);
      const std::vector<Span> pair = {
          Span{from->at(counts.before(a)), counts.before(b) - counts.before(a)},
          Span{from->at(counts.before(b)), counts.before(e) - counts.before(b)}};
      if (last) {
        merge_into_recvbuf(merger, pair, counts.before(e) - counts.before(a), recvbuf, datatype,
                           type);
      } else {
        merger.merge(pair, to->at(counts.before(a)));
      }
    }
    std::swap(from, to);
  }
}

// Algorithm 0: the schedule's all-gather rounds into a buffer in rank order, then the merge
// tree.
void allgather_merge(const merge::MergeSchedule& me, const Counts& counts, const void* own,
                     void* recvbuf, MPI_Datatype datatype, const TypeInfo& type, Merger& merger,
                     MPI_Comm c) {
  const int p = static_cast<int>(me.p()), rank = static_cast<int>(me.rank());
  ElementBuffer gathered(type);
  gathered.resize(counts.total());
  merger.merge({Span{own, counts.of(me.own())}}, gathered.at(counts.before(rank)));
  for (std::int64_t i = 0; i < me.rounds(); ++i) {
    const merge::MergeRound rd = me.round(i);
    const OwnedType send = range_type(rd.send_main.range, counts, p, datatype, type);
    const OwnedType recv = range_type(rd.recv_main.range, counts, p, datatype, type);
    check(PMPI_Sendrecv(gathered.at(0), 1, send.get(), static_cast<int>(rd.to), tag::kAllmergeMain,
                        gathered.at(0), 1, recv.get(), static_cast<int>(rd.from),
                        tag::kAllmergeMain, c, MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
  }
  merge_tree(gathered, counts, recvbuf, datatype, type, merger);
}

}  // namespace

void allmerge_by_schedule(merge::Algorithm algorithm, const CommInfo& ci, const BlockCounts& counts,
                          const void* own, bool own_in_recvbuf, void* recvbuf,
                          MPI_Datatype datatype, const TypeInfo& type, Merger& merger) {
  const merge::MergeSchedule me(algorithm, ci.p, ci.rank);
  if (algorithm == merge::Algorithm::kAllgather) {
    allgather_merge(me, counts, own, recvbuf, datatype, type, merger, ci.c);
  } else {
    PlanRun(me, counts, type, datatype, merger, ci.c).run(own, own_in_recvbuf, recvbuf);
  }
}

void library_allmerge(const CommInfo& ci, const int* recvcounts, const BlockCounts& counts,
                      const void* own, void* recvbuf, MPI_Datatype datatype, const TypeInfo& type,
                      Merger& merger) {
  if (counts.total() == 0) return;
  ElementBuffer gathered(type);
  gathered.resize(counts.total());
  std::vector<int> displs(ci.p);
  for (int j = 0; j < ci.p; ++j) displs[j] = static_cast<int>(counts.before(j));
  check_on(ci.user,
           PMPI_Allgatherv(own, recvcounts[ci.rank], datatype, gathered.at(0), recvcounts,
                           displs.data(), datatype, ci.user),
           "MPI_Allgatherv");
  merge_tree(gathered, counts, recvbuf, datatype, type, merger);
}

}  // namespace rosched::mpi
