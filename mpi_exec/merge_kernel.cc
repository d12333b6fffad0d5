#include "mpi_exec/merge_kernel.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "mpi_exec/mpi_call.h"

namespace rosched::mpi {
namespace {

// Single-pass stable k-way merge of built-in values (k is small: at most 8 runs); the runs stay
// in order, so the strict comparison lets the earlier run win ties.
template <typename T>
void kway(const std::vector<Span>& runs, void* out) {
  constexpr int kMaxRuns = 8;
  const T* at[kMaxRuns];
  const T* end[kMaxRuns];
  int k = 0;
  for (const Span& s : runs) {
    if (s.n == 0) continue;
    if (k == kMaxRuns) throw Error(MPI_ERR_INTERN, "allmerge: more than 8 runs in one merge");
    at[k] = static_cast<const T*>(s.data);
    end[k++] = static_cast<const T*>(s.data) + s.n;
  }
  T* o = static_cast<T*>(out);
  while (k > 2) {
    int best = 0;
    T v = *at[0];
    for (int j = 1; j < k; ++j) {  // branch-free selection (conditional moves)
      const T x = *at[j];
      const bool less = x < v;
      v = less ? x : v;
      best = less ? j : best;
    }
    *o++ = v;
    if (++at[best] == end[best]) {  // drop the run, keeping the others' order
      for (int j = best; j + 1 < k; ++j) at[j] = at[j + 1], end[j] = end[j + 1];
      --k;
    }
  }
  if (k == 2) o = std::merge(at[0], end[0], at[1], end[1], o);
  if (k == 1) std::copy(at[0], end[0], o);
}

}  // namespace

bool contiguous(const TypeInfo& t) {
  return t.size == t.extent && t.true_lb == 0 && t.true_extent == t.extent && t.lb == 0;
}

void ElementBuffer::resize(std::int64_t n) {
  n_ = n;
  const std::size_t bytes =
      n == 0 ? 0 : static_cast<std::size_t>(type_.true_extent + (n - 1) * type_.extent);
  if (bytes > capacity_) {
    storage_.reset(new unsigned char[bytes]);  // default-initialised: no pass over the memory
    capacity_ = bytes;
  }
}

Merger::Merger(MPI_Datatype type, const TypeInfo& info, Rosched_Merge_fn* fn, void* state)
    : type_(type), info_(info), fn_(fn), state_(state), temp_{ElementBuffer(info), ElementBuffer(info)} {
  if (fn_) return;
  if (type == MPI_INT) builtin_ = Builtin::kInt;
  else if (type == MPI_LONG) builtin_ = Builtin::kLong;
  else if (type == MPI_DOUBLE) builtin_ = Builtin::kDouble;
  else throw Error(MPI_ERR_OP, "merge_fn is NULL and the datatype has no built-in merge (only MPI_INT, MPI_LONG and MPI_DOUBLE do): pass a merge function");
}

void Merger::merge_pair(const Span& a, const Span& b, void* out) {
  fn_(a.data, static_cast<int>(a.n), b.data, static_cast<int>(b.n), out, type_, state_);
}

void Merger::merge(const std::vector<Span>& runs, void* out) {
  std::vector<Span> live;
  std::int64_t total = 0;
  for (const Span& s : runs) {
    if (s.n > 0) live.push_back(s), total += s.n;
  }
  if (live.empty()) return;
  if (live.size() == 1 && (builtin_ != Builtin::kNone || contiguous(info_))) {
    std::memcpy(element(out, 0), live[0].data, static_cast<std::size_t>(total * info_.extent));
    moves_ += total;
    return;
  }
  switch (builtin_) {
    case Builtin::kInt: kway<int>(live, out); moves_ += total; return;
    case Builtin::kLong: kway<long>(live, out); moves_ += total; return;
    case Builtin::kDouble: kway<double>(live, out); moves_ += total; return;
    case Builtin::kNone: break;
  }
  if (live.size() == 1) {  // a type with gaps: merge with nothing copies only what the type holds
    merge_pair(live[0], Span{nullptr, 0}, out);
    moves_ += total;
    return;
  }
  // Pairwise from the left with the user's function, the last merge into out.
  Span acc = live[0];
  for (std::size_t j = 1; j < live.size(); ++j) {
    const bool last = j + 1 == live.size();
    ElementBuffer& t = temp_[j % 2];
    if (!last) t.resize(acc.n + live[j].n);
    void* dst = last ? out : t.at(0);
    merge_pair(acc, live[j], dst);
    moves_ += acc.n + live[j].n;
    acc = Span{dst, acc.n + live[j].n};
  }
}

std::int64_t Merger::first_unsorted(const void* data, std::int64_t n) {
  switch (builtin_) {
    case Builtin::kInt: {
      const int* x = static_cast<const int*>(data);
      const std::int64_t i = std::is_sorted_until(x, x + n) - x;
      return i == n ? -1 : i - 1;
    }
    case Builtin::kLong: {
      const long* x = static_cast<const long*>(data);
      const std::int64_t i = std::is_sorted_until(x, x + n) - x;
      return i == n ? -1 : i - 1;
    }
    case Builtin::kDouble: {
      const double* x = static_cast<const double*>(data);
      const std::int64_t i = std::is_sorted_until(x, x + n) - x;
      return i == n ? -1 : i - 1;
    }
    case Builtin::kNone: break;
  }
  // Merging element i + 1 before element i must leave element i first: compare packed bytes.
  ElementBuffer two(info_);
  two.resize(2);
  std::vector<char> merged(info_.size), first(info_.size);
  for (std::int64_t i = 0; i + 1 < n; ++i) {
    merge_pair(Span{element(data, i), 1}, Span{element(data, i + 1), 1}, two.at(0));
    int pos = 0;
    check(MPI_Pack(two.at(0), 1, type_, merged.data(), info_.size, &pos, MPI_COMM_SELF), "MPI_Pack");
    pos = 0;
    check(MPI_Pack(element(data, i), 1, type_, first.data(), info_.size, &pos, MPI_COMM_SELF), "MPI_Pack");
    if (merged != first) return i;
  }
  return -1;
}

}  // namespace rosched::mpi
