// The operations, operands and manual reference of the differential test (reductions.h).
#include "tests/mpi/differential/reductions.h"

#include <cstdint>
#include <cstring>

namespace rosched::difftest {
namespace {

MPI_Op g_ops[kOpCount];
const char* const kOpNames[kOpCount] = {"MPI_SUM",
                                        "MPI_MAX",
                                        "MPI_MIN",
                                        "MPI_PROD",
                                        "MPI_BXOR",
                                        "MPI_BAND",
                                        "MPI_BOR",
                                        "user_uadd(commutative)",
                                        "user_first_nonzero(noncomm)",
                                        "user_matmul2x2(noncomm)",
                                        "none"};
int g_unknown_type_calls = 0;

const TypeInfo* user_op_type(MPI_Datatype* handle) {
  const TypeInfo* t = find_type(*handle);
  if (t == nullptr) ++g_unknown_type_calls;
  return t;
}

uint32_t load32(const void* base, long at) {
  uint32_t v;
  std::memcpy(&v, static_cast<const char*>(base) + at, 4);
  return v;
}

void store32(void* base, long at, uint32_t v) { std::memcpy(static_cast<char*>(base) + at, &v, 4); }

// inout = in op inout for every 4-byte field of every element, combine(in, inout).
template <class Combine>
void combine_fields(void* in, void* inout, int* len, MPI_Datatype* handle, Combine combine) {
  const TypeInfo* t = user_op_type(handle);
  if (t == nullptr) return;
  for (long e = 0; e < *len; ++e) {
    for (const Field& f : t->fields) {
      const long at = e * t->extent + f.offset;
      store32(inout, at, combine(load32(in, at), load32(inout, at)));
    }
  }
}

void user_add(void* in, void* inout, int* len, MPI_Datatype* handle) {
  combine_fields(in, inout, len, handle, [](uint32_t a, uint32_t b) { return a + b; });
}

// `in` holds the lower ranks' part: its field wins unless it is 0.
void user_first_nonzero(void* in, void* inout, int* len, MPI_Datatype* handle) {
  combine_fields(in, inout, len, handle, [](uint32_t a, uint32_t b) { return a != 0 ? a : b; });
}

void user_matmul(void* in, void* inout, int* len, MPI_Datatype* handle) {
  const TypeInfo* t = user_op_type(handle);
  if (t == nullptr) return;
  for (long e = 0; e < *len; ++e) {
    uint32_t a[4], b[4];
    for (int k = 0; k < 4; ++k) {
      a[k] = load32(in, e * t->extent + t->fields[k].offset);
      b[k] = load32(inout, e * t->extent + t->fields[k].offset);
    }
    const uint32_t c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                           a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
    for (int k = 0; k < 4; ++k) store32(inout, e * t->extent + t->fields[k].offset, c[k]);
  }
}

// Sums (up to 1,000 in magnitude per int, 1,000,000 per double) and products (-2..2) stay
// exact; first-nonzero finds zeros often; the other operations get random values.
void fill_field(Rng& rng, Base base, int size, OpId op, unsigned char* dst) {
  const bool integer = base == Base::kInt32 || base == Base::kUint32;
  if (op == kNoOp || !(integer || base == Base::kDouble)) {
    for (int q = 0; q < size; ++q) dst[q] = static_cast<unsigned char>(rng.next());
    return;
  }
  int64_t v;
  if (op == kSum) {
    v = integer ? rng.uniform(-1000, 1000) : rng.uniform(-1000000, 1000000);
  } else if (op == kProd) {
    v = rng.uniform(-2, 2);
  } else if (!integer) {
    v = rng.uniform(-1000000000, 1000000000);
  } else if (op == kUserFirstNonzero && rng.chance(60)) {
    v = 0;
  } else {
    v = static_cast<int32_t>(rng.next());
  }
  if (integer) {
    const int32_t i = static_cast<int32_t>(v);
    std::memcpy(dst, &i, 4);
  } else {
    const double d = static_cast<double>(v);
    std::memcpy(dst, &d, 8);
  }
}

}  // namespace

void create_ops() {
  const MPI_Op predefined[] = {MPI_SUM, MPI_MAX, MPI_MIN, MPI_PROD, MPI_BXOR, MPI_BAND, MPI_BOR};
  for (int i = 0; i <= kBor; ++i) g_ops[i] = predefined[i];
  MPI_Op_create(user_add, 1, &g_ops[kUserAdd]);
  MPI_Op_create(user_first_nonzero, 0, &g_ops[kUserFirstNonzero]);
  MPI_Op_create(user_matmul, 0, &g_ops[kUserMatmul]);
  g_ops[kNoOp] = MPI_OP_NULL;
}

MPI_Op mpi_op(OpId op) { return g_ops[op]; }
const char* op_name(OpId op) { return kOpNames[op]; }
bool is_commutative(OpId op) { return op != kUserFirstNonzero && op != kUserMatmul; }
int unknown_type_calls() { return g_unknown_type_calls; }
void reset_unknown_type_calls() { g_unknown_type_calls = 0; }

ReductionPlan draw_reduction(Rng& rng, const ReductionScope& scope) {
  // Drawn uniformly (a repeated plan is drawn more often).
  static const std::vector<ReductionPlan> kPlans = {
      // MPI_INT: every predefined operation and the user's
      {kInt, kSum},
      {kInt, kMax},
      {kInt, kMin},
      {kInt, kProd},
      {kInt, kBxor},
      {kInt, kBand},
      {kInt, kBor},
      {kInt, kUserAdd},
      {kInt, kUserFirstNonzero},
      {kInt, kUserFirstNonzero},
      // derived int types, gaps and lower bounds of -8 and +8 among them
      {kIntVector, kSum},
      {kIntVector, kUserFirstNonzero},
      {kIntResized12, kMax},
      {kIntResized12, kUserAdd},
      {kIntResizedLbMinus8, kUserAdd},
      {kIntResizedLbMinus8, kUserFirstNonzero},
      {kIntContiguous3, kUserAdd},
      {kIntContiguous3, kUserFirstNonzero},
      {kIntHindexedLb8, kUserAdd},
      {kIntHindexedLb8, kUserFirstNonzero},
      {kIntVector, kUserAdd},
      {kIntContiguous3, kSum},
      {kUint32, kUserFirstNonzero},
      {kIntHindexedLbMinus8, kUserAdd},
      {kIntHindexedLbMinus8, kUserFirstNonzero},
      // doubles (MPI_BXOR is an error in both), bytes, uint32, 2x2 matrices, longs
      {kDouble, kSum},
      {kDouble, kMax},
      {kDouble, kProd},
      {kDouble, kBxor},
      {kDoubleVector, kSum},
      {kDoubleVector, kMin},
      {kByte, kBxor},
      {kByte, kBand},
      {kUint32, kSum},
      {kUint32, kBor},
      {kMatrix, kUserMatmul},
      {kMatrix, kUserMatmul},
      {kMatrixGaps, kUserMatmul},
      {kMatrixGaps, kUserMatmul},
      {kMatrixGaps, kUserAdd},
      {kMatrix, kSum},
      {kLong, kSum},
      {kLong, kMax}};
  if (scope.mostly_lower_bound && rng.chance(40)) {
    return {kIntHindexedLbMinus8, rng.chance(50) ? kUserAdd : kUserFirstNonzero};
  }
  ReductionPlan plan = rng.pick(kPlans);
  if (!scope.lower_bound_types && needs_manual_reference(plan)) plan.type = kIntVector;
  return plan;
}

bool needs_manual_reference(const ReductionPlan& plan) {
  const bool lower_bound = plan.type == kIntHindexedLbMinus8 || plan.type == kIntHindexedLb8 ||
                           plan.type == kIntResizedLbMinus8;
  return lower_bound && (plan.op == kUserAdd || plan.op == kUserFirstNonzero);
}

void fill_operands(Rng& rng, Buffer& b, const TypeInfo& t, long first, long n, OpId op) {
  for (long e = first; e < first + n; ++e) {
    for (int k = 0; k < t.field_count(); ++k) {
      fill_field(rng, t.base, t.fields[k].size, op, field_at(b, t, e, k));
    }
  }
  mark_data(b, t, first, n);
}

std::vector<unsigned char> manual_reduce(MPI_Comm comm, Buffer& input, const TypeInfo& t, long n,
                                         OpId op) {
  int p = 1;
  MPI_Comm_size(comm, &p);
  const std::vector<unsigned char> mine = pack(input, t, 0, n);
  const long bytes = static_cast<long>(mine.size());
  std::vector<unsigned char> all;
  allgather_bytes(mine, all, comm);
  std::vector<unsigned char> result(bytes);
  for (long i = 0; i + 4 <= bytes; i += 4) {
    uint32_t acc = 0;
    bool found = false;  // first-nonzero: a rank's nonzero field seen
    for (int q = 0; q < p; ++q) {
      const uint32_t v = load32(all.data(), q * bytes + i);
      if (op == kUserAdd) {
        acc += v;
      } else if (!found) {
        acc = v;
        found = v != 0;
      }
    }
    store32(result.data(), i, acc);
  }
  return result;
}

}  // namespace rosched::difftest
