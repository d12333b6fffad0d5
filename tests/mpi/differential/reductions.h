// The reductions of the differential test: the operations (MPI's predefined ones and three
// user-defined ones, two of them non-commutative), the type and operation each case draws,
// operand values that keep results exact, and the manual reference for the types with which
// Open MPI 4.1.4's own all-reduce writes outside its buffers.
#ifndef ROSCHED_TESTS_MPI_DIFFERENTIAL_REDUCTIONS_H_
#define ROSCHED_TESTS_MPI_DIFFERENTIAL_REDUCTIONS_H_

#include <mpi.h>

#include <vector>

#include "tests/mpi/differential/types.h"

namespace rosched::difftest {

enum OpId {
  kSum,
  kMax,
  kMin,
  kProd,
  kBxor,
  kBand,
  kBor,
  kUserAdd,           // commutative: wrapping uint32 addition, field by field
  kUserFirstNonzero,  // non-commutative: the lower rank's field unless it is 0
  kUserMatmul,        // non-commutative: 2x2 uint32 matrix product (kMatrix, kMatrixGaps)
  kNoOp,              // data movement: random bytes
  kOpCount
};

// Creates the user-defined operations (after create_types).
void create_ops();
MPI_Op mpi_op(OpId op);
const char* op_name(OpId op);
bool is_commutative(OpId op);

// How often a user-defined operation was called with a datatype this test did not create (a
// collective must hand the user's datatype to the user's function), since the last reset.
int unknown_type_calls();
void reset_unknown_type_calls();

struct ReductionPlan {
  int type;
  OpId op;
};

// Which reductions may take the types with a lower bound of -8 or +8: only where
// ROSCHED_ALLREDUCE=rosched forces rosched's algorithms (Open MPI 4.1.4's segmented-ring
// MPI_Allreduce writes outside its temporary buffer for them, and the choosing entry points
// may call it).
struct ReductionScope {
  bool lower_bound_types = false;   // ROSCHED_ALLREDUCE=rosched
  bool mostly_lower_bound = false;  // --lb-reductions: 40% of the cases on kIntHindexedLbMinus8
};

// A type and an operation: defined on the type but for MPI_BXOR on MPI_DOUBLE (an error in
// both), never MPI_SUM on MPI_BYTE (which Open MPI accepts and sums wrongly).
ReductionPlan draw_reduction(Rng& rng, const ReductionScope& scope);

// Whether the reference is manual_reduce: the user-defined sum and first-nonzero on the types
// with a lower bound of -8 or +8 (see ReductionScope).
bool needs_manual_reference(const ReductionPlan& plan);

// Operand values for op: small integers for sums and products (no overflow, doubles exact),
// often zero for first-nonzero, random bits otherwise. Marks the elements as data.
void fill_operands(Rng& rng, Buffer& b, const TypeInfo& t, long first, long n, OpId op);

// The reduction over comm of every rank's first n elements of `input` under kUserAdd or
// kUserFirstNonzero, in rank order, packed (t's fields concatenated): every rank's packed
// input all-gathered as bytes, then folded field by field.
std::vector<unsigned char> manual_reduce(MPI_Comm comm, Buffer& input, const TypeInfo& t, long n,
                                         OpId op);

}  // namespace rosched::difftest

#endif  // ROSCHED_TESTS_MPI_DIFFERENTIAL_REDUCTIONS_H_
