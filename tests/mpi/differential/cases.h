// One case of the differential test: a Rosched_* collective and the reference for it, called
// with the same drawn arguments on a communicator, their error classes and every byte of their
// buffers compared. The reference is the MPI library's own collective, called as PMPI_* so that
// it stays the library's even under an interposition library; except where Open MPI 4.1.4 is
// known to be wrong: ranks of different datatypes of one type signature get the collective on
// packed bytes, and the user-defined reductions on types with a lower bound of -8 or +8 get
// manual_reduce. Rosched_Allmerge, which MPI lacks, is checked against an all-gather and a
// stable sort.
#ifndef ROSCHED_TESTS_MPI_DIFFERENTIAL_CASES_H_
#define ROSCHED_TESTS_MPI_DIFFERENTIAL_CASES_H_

#include <mpi.h>

#include <string>
#include <vector>

#include "tests/mpi/differential/reductions.h"
#include "tests/mpi/differential/types.h"

namespace rosched::difftest {

struct Case;
struct Outcome;

// The kinds of case, in the order a case's kind is drawn: name and function.
struct Kind {
  const char* name;
  Outcome (*run)(Case& c);
};
constexpr int kKindCount = 10;
extern const Kind kKinds[kKindCount];

struct Options {
  bool verbose = false;     // a line per case: its arguments before the call, "ok" after
  bool big_counts = false;  // --big: 40% of the counts huge / 2 .. 2 huge
  ReductionScope reductions;
};

struct Case {
  long index;
  MPI_Comm comm;
  const char* comm_name;
  int p, rank;
  const Options* options;
  Rng* shared;  // the same draws on every rank of comm: counts, roots, algorithms
  Rng* local;   // this rank's own draws: data, its datatype in mixed-type cases, layouts
  std::string description;  // the call and its arguments (with this rank's own ones)
};

struct Outcome {
  int rosched_class = 0, reference_class = 0;
  bool expect_rosched_class = false;  // rosched must return expected_class whatever MPI does
  int expected_class = 0;
  std::string differences;  // per buffer: bytes differing and the first one
};

Outcome run_bcast(Case& c);
Outcome run_allgather(Case& c);
Outcome run_allgatherv(Case& c);
Outcome run_allreduce(Case& c);
Outcome run_reduce(Case& c);
Outcome run_reduce_scatter_block(Case& c);
Outcome run_reduce_scatter(Case& c);
Outcome run_alltoall(Case& c);
Outcome run_alltoallv(Case& c);
Outcome run_allmerge(Case& c);

// Helpers of the case kinds.

int error_class(int rc);
void appendf(std::string& s, const char* format, ...) __attribute__((format(printf, 2, 3)));
// "IN_PLACE" or "", "mixed-types" or "".
inline const char* in_place_text(bool in_place) { return in_place ? "IN_PLACE" : ""; }
inline const char* mixed_text(bool mixed) { return mixed ? "mixed-types" : ""; }
// "a,b,c".
std::string join(const std::vector<int>& values);
// Called just before the rosched call: with --verbose, world rank 0 prints the case.
void before_call(const Case& c);

// A count from the shared stream: 0, 1..8, primes, up to 3,000, up to huge / 4, or about huge
// (with --big often huge / 2 .. 2 huge).
int draw_count(Case& c, int huge = 100000);
// p counts from the shared stream in one of five shapes (small with zeros, draw_count, up to
// 300, all zero, up to 50), a quarter of the time one of them huge / 2 .. huge.
std::vector<int> draw_counts(Case& c, int huge);
// Displacements (in elements) for blocks of `counts`: in rank order without gaps, or in a
// random order with gaps of 0..3 elements; *total is the elements spanned.
std::vector<int> draw_displacements(Rng& rng, const std::vector<int>& counts, bool in_order,
                                    long* total);

// The datatypes of a data-movement case: one type on every rank, or (35%) each rank its own
// from one family, counts in units of family.fields fields.
struct TypePlan {
  bool mixed;
  int same_type;  // not mixed
  TypeFamily family;
  int fields_per_unit;  // 1, or family.fields
};
TypePlan draw_type_plan(Rng& rng);
int rank_type(const TypePlan& plan, Rng& local);
// Appends the types and counts of an all-gather or all-to-all to the description.
void describe_types(Case& c, const TypePlan& plan, int units, const TypeInfo& st, int scount,
                    const TypeInfo& rt, int rcount);
// Elements of type t that hold `units` units.
int elements_for(const TypePlan& plan, const TypeInfo& t, long units);

// Displacements of blocks of `counts` one after the other in rank order; *total their sum.
std::vector<int> displacements_in_order(const std::vector<int>& counts, long* total);

// An entry point of a collective, by name; commutative_only: a non-commutative operation
// must be MPI_ERR_OP.
template <class Fn>
struct Algorithm {
  const char* name;
  Fn call;
  bool commutative_only = false;
};
template <class Fn, int N>
const Algorithm<Fn>& draw_algorithm(Rng& shared, const Algorithm<Fn> (&table)[N]) {
  return table[shared.uniform(0, N - 1)];
}

// Where both calls succeeded: compares got against want (the reference) into o.
void compare_into(Outcome& o, const Case& c, const char* what, const Buffer& got,
                  const Buffer& want);
// compare_into for the receive buffers, and the send buffer against its copy from before the
// calls: a collective must not write to its input.
void compare_results(Outcome& o, const Case& c, const char* what, const Buffer& got,
                     const Buffer& want, const Buffer& send, const Buffer& send_before);

}  // namespace rosched::difftest

#endif  // ROSCHED_TESTS_MPI_DIFFERENTIAL_CASES_H_
