// The differential test's random numbers, datatypes and buffers. Every case draws from Rng
// streams seeded by (seed, case, stream), so a seed and a case number reproduce a case. The
// datatypes are the predefined ones and derived ones with gaps, a stride, lower bounds of -8
// and +8 and mixed fields, each described by its fields (offset and size within an element) so
// that a buffer can be packed, unpacked and compared without MPI. A Buffer has guard bytes
// before and after the data and knows which of its bytes are data: a collective must write
// exactly the data bytes it is given and leave gaps and guards as they were.
#ifndef ROSCHED_TESTS_MPI_DIFFERENTIAL_TYPES_H_
#define ROSCHED_TESTS_MPI_DIFFERENTIAL_TYPES_H_

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace rosched::difftest {

// SplitMix64 (Steele, Lea, Flood 2014), seeded by mixing up to four numbers.
class Rng {
 public:
  explicit Rng(uint64_t a, uint64_t b = 0, uint64_t c = 0, uint64_t d = 0);
  uint64_t next();
  // Uniform in [lo, hi].
  int uniform(int lo, int hi) {
    return lo + static_cast<int>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  bool chance(int percent) { return uniform(0, 99) < percent; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[next() % v.size()];
  }

 private:
  uint64_t state_;
};

// What a datatype's fields hold, for the values the reductions are given.
enum class Base { kInt32, kDouble, kByte, kUint32, kMixed, kLong };

// One primitive field of an element: its byte offset from the element's start, and size.
struct Field {
  int offset, size;
};

struct TypeInfo {
  const char* name;
  MPI_Datatype handle;
  Base base;
  std::vector<Field> fields;
  MPI_Aint lb, extent;
  // One past the last byte of an element's fields, from the element's start.
  long span_end() const;
  int field_count() const { return static_cast<int>(fields.size()); }
  // Bytes of data in one element (the type's size).
  long data_bytes() const;
};

enum TypeId {
  kInt,
  kDouble,
  kByte,
  kIntVector,           // vector(2, 1, 3, MPI_INT): two ints 12 bytes apart, extent 16
  kIntResized12,        // MPI_INT resized to extent 12
  kIntResizedLbMinus8,  // MPI_INT resized to lb -8, extent 16
  kIntContiguous3,
  kIntHindexedLb8,  // hindexed({1, 2}, {8, 20}, MPI_INT): lb 8, extent 20
  kStruct,          // {int@0, double@8, char@16}, extent 24
  kUint32,
  kMatrix,        // a 2x2 matrix of uint32: contiguous(4, MPI_UINT32_T)
  kMatrixGaps,    // the same with a 4-byte gap after each entry, extent 32
  kDoubleVector,  // vector(3, 2, 3, MPI_DOUBLE)
  kLong,
  kIntHindexedLbMinus8,  // hindexed({1, 1}, {-8, 4}, MPI_INT): lb -8, extent 16
  kTypeCount
};

// Creates and commits every datatype (after MPI_Init); aborts if an extent is not as expected.
void create_types();
const TypeInfo& type_info(int id);
// The TypeInfo of a handle this test created, or nullptr.
const TypeInfo* find_type(MPI_Datatype handle);

// Types of one base whose field counts all divide `fields`: every rank of a mixed-type case
// draws its own type from one family, with count = units * fields / its field count, so that
// the type signatures of all ranks match.
struct TypeFamily {
  std::vector<int> types;
  int fields;
};
extern const TypeFamily kIntFamily, kDoubleFamily, kUint32Family;
// Every type the data-movement collectives are given: all but MPI_LONG, in TypeId order.
extern const std::vector<int> kMovementTypes;

constexpr long kGuardBytes = 64;

struct Buffer {
  std::vector<unsigned char> bytes;
  std::vector<unsigned char> is_data;  // per byte: 1 a data byte of the call, 0 gap or guard
  unsigned char* data() { return bytes.data() + kGuardBytes; }
};

// Room for `elements` elements of t between guards, every byte a pattern that depends on salt.
Buffer make_buffer(const TypeInfo& t, long elements, uint64_t salt);
unsigned char* field_at(Buffer& b, const TypeInfo& t, long element, int field);
// Marks elements [first, first + n) as data (the bytes the collective is to write or read).
void mark_data(Buffer& b, const TypeInfo& t, long first, long n);
// Random bytes in every field of elements [first, first + n), marked as data.
void fill_random(Rng& rng, Buffer& b, const TypeInfo& t, long first, long n);
// The fields of elements [first, first + n), concatenated (what MPI would send), and back.
std::vector<unsigned char> pack(Buffer& b, const TypeInfo& t, long first, long n);
void unpack(const unsigned char* src, Buffer& b, const TypeInfo& t, long first, long n);
// MPI_Allgather (the library's, PMPI) of every rank's `mine`, all of one size, into `all`;
// returns MPI's return code.
int allgather_bytes(const std::vector<unsigned char>& mine, std::vector<unsigned char>& all,
                    MPI_Comm comm);
// Zeroes the bytes of both buffers from `end` bytes past the data start to the trailing
// guard: what MPI leaves unspecified there (an in-place reduce-scatter's other blocks).
void ignore_from(Buffer& a, Buffer& b, long end);

// The differing bytes of got against want: how many, and the first one's offset from the data
// start (or nothing when there are none).
struct Difference {
  long count = 0, first = 0;
  bool first_is_data = false;
};
// Compares, and prints a line with the first 16 bytes of both from the first difference.
Difference compare(const char* what, const Buffer& got, const Buffer& want, int comm_rank);

}  // namespace rosched::difftest

#endif  // ROSCHED_TESTS_MPI_DIFFERENTIAL_TYPES_H_
