// The local merging of Rosched_Allmerge: buffers of elements of the user's datatype, and k-way
// merges of sorted runs, either with the user's 2-way merge function (pairwise) or, for
// MPI_INT, MPI_LONG and MPI_DOUBLE without one, a built-in merge (ascending) of up to three runs
// in one pass (more runs: the smallest adjacent pair first, into a temporary run).
// Every merge is stable: on equal keys the earlier run's elements come first, which is how
// Rosched_Allmerge breaks ties by origin rank. Counts the elements it writes ("moves").
#ifndef ROSCHED_MPI_EXEC_MERGE_KERNEL_H_
#define ROSCHED_MPI_EXEC_MERGE_KERNEL_H_

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "mpi_exec/datatype.h"
#include "mpi_exec/rosched_mpi.h"

namespace rosched::mpi {

// n elements of a datatype, element i at at(i) (stride: the extent; true lower bound kept).
class ElementBuffer {
 public:
  explicit ElementBuffer(const TypeInfo& type) : type_(type) {}
  // Makes room for n elements: grows the storage (uninitialised, not zeroed) if needed; the
  // contents are not kept.
  void resize(std::int64_t n);
  std::int64_t size() const { return n_; }
  void* at(std::int64_t i) {
    return storage_.get() - type_.true_lb + i * static_cast<std::int64_t>(type_.extent);
  }

 private:
  TypeInfo type_;
  std::unique_ptr<unsigned char[]> storage_;
  std::size_t capacity_ = 0;
  std::int64_t n_ = 0;
};

// A sorted run: n elements from data.
struct Span {
  const void* data;
  std::int64_t n;
};

class Merger {
 public:
  // fn null: the built-in ascending merge, which exists for MPI_INT, MPI_LONG and MPI_DOUBLE;
  // throws Error(MPI_ERR_OP) naming the datatype for any other. type has passed check_type.
  Merger(MPI_Datatype type, const TypeInfo& info, Rosched_Merge_fn* fn, void* state);

  // Writes the stable merge of the runs (earlier runs first on equal keys) to out; a single run
  // is copied, empty runs are skipped. out must not overlap the runs. (In a simulation that
  // charges kernels, compute_charge.h, every merge runs four times, the user's function too.)
  void merge(const std::vector<Span>& runs, void* out);
  // Elements written by merge so far (copies included).
  std::int64_t moves() const { return moves_; }
  // The first i with element i + 1 ordered before element i (by the merge), or -1: O(n) merges
  // of single elements with the user's function, or one pass with the built-in one.
  std::int64_t first_unsorted(const void* data, std::int64_t n);

 private:
  enum class Builtin { kNone, kInt, kLong, kDouble };
  void* element(const void* base, std::int64_t i) const {
    return static_cast<unsigned char*>(const_cast<void*>(base)) + i * static_cast<std::int64_t>(info_.extent);
  }
  void merge_pair(const Span& a, const Span& b, void* out);
  // merge without the count and the charge; returns the elements it wrote.
  std::int64_t merge_once(const std::vector<Span>& runs, void* out);
  // One pass over non-empty runs: at most three with the built-in merge, exactly two with the
  // user's function.
  void merge_few(const std::vector<Span>& runs, void* out);

  MPI_Datatype type_;
  TypeInfo info_;
  Rosched_Merge_fn* fn_;
  void* state_;
  Builtin builtin_ = Builtin::kNone;
  std::int64_t moves_ = 0;
  std::vector<ElementBuffer> temp_;  // temporary runs of one merge
};

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_MERGE_KERNEL_H_
