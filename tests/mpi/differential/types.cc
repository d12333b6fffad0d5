// The datatypes, buffers and comparison of the differential test (types.h).
#include "tests/mpi/differential/types.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>

namespace rosched::difftest {
namespace {

std::vector<TypeInfo> g_types;
std::map<MPI_Datatype, int> g_type_ids;

void add_type(const char* name, MPI_Datatype handle, Base base, std::vector<Field> fields) {
  const bool predefined = handle == MPI_INT || handle == MPI_DOUBLE || handle == MPI_BYTE ||
                          handle == MPI_UINT32_T || handle == MPI_LONG;
  if (!predefined) MPI_Type_commit(&handle);
  TypeInfo t{name, handle, base, std::move(fields), 0, 0};
  MPI_Type_get_extent(handle, &t.lb, &t.extent);
  g_type_ids[handle] = static_cast<int>(g_types.size());
  g_types.push_back(std::move(t));
}

// A derived type from `make`, resized to [lb, lb + extent); the unresized one freed.
template <class Make>
MPI_Datatype resized(Make make, MPI_Aint lb, MPI_Aint extent) {
  MPI_Datatype inner, outer;
  make(&inner);
  MPI_Type_create_resized(inner, lb, extent, &outer);
  MPI_Type_free(&inner);
  return outer;
}

}  // namespace

Rng::Rng(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  state_ = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xBF58476D1CE4E5B9ull ^
           (c + 0x1234567ull) * 0x94D049BB133111EBull ^ (d + 0x77ull) * 0xD6E8FEB86659FD93ull;
  for (int i = 0; i < 4; ++i) next();
}

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

long TypeInfo::span_end() const {
  int end = 0;
  for (const Field& f : fields) end = std::max(end, f.offset + f.size);
  return end;
}

long TypeInfo::data_bytes() const {
  long bytes = 0;
  for (const Field& f : fields) bytes += f.size;
  return bytes;
}

const TypeFamily kIntFamily = {{kInt, kIntVector, kIntResized12, kIntResizedLbMinus8,
                                kIntContiguous3, kIntHindexedLb8, kIntHindexedLbMinus8},
                               6};
const TypeFamily kDoubleFamily = {{kDouble, kDoubleVector}, 6};
const TypeFamily kUint32Family = {{kUint32, kMatrix, kMatrixGaps}, 4};
const std::vector<int> kMovementTypes = [] {
  std::vector<int> types;
  for (int id = 0; id < kTypeCount; ++id) {
    if (id != kLong) types.push_back(id);
  }
  return types;
}();

void create_types() {
  MPI_Datatype t;
  add_type("MPI_INT", MPI_INT, Base::kInt32, {{0, 4}});
  add_type("MPI_DOUBLE", MPI_DOUBLE, Base::kDouble, {{0, 8}});
  add_type("MPI_BYTE", MPI_BYTE, Base::kByte, {{0, 1}});
  MPI_Type_vector(2, 1, 3, MPI_INT, &t);
  add_type("vec(2,1,3,INT)", t, Base::kInt32, {{0, 4}, {12, 4}});
  MPI_Type_create_resized(MPI_INT, 0, 12, &t);
  add_type("resized(INT,0,12)", t, Base::kInt32, {{0, 4}});
  MPI_Type_create_resized(MPI_INT, -8, 16, &t);
  add_type("resized(INT,-8,16)", t, Base::kInt32, {{0, 4}});
  MPI_Type_contiguous(3, MPI_INT, &t);
  add_type("contig(3,INT)", t, Base::kInt32, {{0, 4}, {4, 4}, {8, 4}});
  const int lengths12[2] = {1, 2};
  const MPI_Aint displacements8_20[2] = {8, 20};
  MPI_Type_create_hindexed(2, lengths12, displacements8_20, MPI_INT, &t);
  add_type("hindexed({1,2},{8,20},INT)", t, Base::kInt32, {{8, 4}, {20, 4}, {24, 4}});
  t = resized(
      [](MPI_Datatype* s) {
        const int lengths[3] = {1, 1, 1};
        const MPI_Aint displacements[3] = {0, 8, 16};
        const MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
        MPI_Type_create_struct(3, lengths, displacements, types, s);
      },
      0, 24);
  add_type("struct{int@0,double@8,char@16;24}", t, Base::kMixed, {{0, 4}, {8, 8}, {16, 1}});
  add_type("MPI_UINT32_T", MPI_UINT32_T, Base::kUint32, {{0, 4}});
  MPI_Type_contiguous(4, MPI_UINT32_T, &t);
  add_type("mat=contig(4,UINT32)", t, Base::kUint32, {{0, 4}, {4, 4}, {8, 4}, {12, 4}});
  t = resized([](MPI_Datatype* v) { MPI_Type_vector(4, 1, 2, MPI_UINT32_T, v); }, 0, 32);
  add_type("matgap=resized(vec(4,1,2,UINT32),0,32)", t, Base::kUint32,
           {{0, 4}, {8, 4}, {16, 4}, {24, 4}});
  MPI_Type_vector(3, 2, 3, MPI_DOUBLE, &t);
  add_type("vec(3,2,3,DOUBLE)", t, Base::kDouble,
           {{0, 8}, {8, 8}, {24, 8}, {32, 8}, {48, 8}, {56, 8}});
  add_type("MPI_LONG", MPI_LONG, Base::kLong, {{0, 8}});
  const int lengths11[2] = {1, 1};
  const MPI_Aint displacements_minus8_4[2] = {-8, 4};
  MPI_Type_create_hindexed(2, lengths11, displacements_minus8_4, MPI_INT, &t);
  add_type("hindexed({1,1},{-8,4},INT)[lb=-8]", t, Base::kInt32, {{-8, 4}, {4, 4}});

  // The field offsets above assume these extents.
  const long expected_extent[kTypeCount] = {4, 8, 1, 16, 12, 16, 12, 20, 24, 4, 16, 32, 64, 8, 16};
  for (int i = 0; i < kTypeCount; ++i) {
    if (g_types[i].extent != expected_extent[i]) {
      std::fprintf(stderr, "type %s extent %ld != %ld\n", g_types[i].name,
                   static_cast<long>(g_types[i].extent), expected_extent[i]);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }
}

const TypeInfo& type_info(int id) { return g_types[id]; }

const TypeInfo* find_type(MPI_Datatype handle) {
  auto it = g_type_ids.find(handle);
  return it == g_type_ids.end() ? nullptr : &g_types[it->second];
}

Buffer make_buffer(const TypeInfo& t, long elements, uint64_t salt) {
  Buffer b;
  const long span = elements > 0 ? (elements - 1) * t.extent + t.span_end() : 0;
  b.bytes.resize(kGuardBytes + span + kGuardBytes);
  b.is_data.assign(b.bytes.size(), 0);
  for (size_t j = 0; j < b.bytes.size(); ++j) {
    b.bytes[j] = static_cast<unsigned char>(0xA5 ^ (j * 31) ^ salt);
  }
  return b;
}

unsigned char* field_at(Buffer& b, const TypeInfo& t, long element, int field) {
  return b.data() + element * t.extent + t.fields[field].offset;
}

void mark_data(Buffer& b, const TypeInfo& t, long first, long n) {
  for (long e = first; e < first + n; ++e) {
    for (const Field& f : t.fields) {
      const long at = kGuardBytes + e * t.extent + f.offset;
      std::fill(b.is_data.begin() + at, b.is_data.begin() + at + f.size, 1);
    }
  }
}

void fill_random(Rng& rng, Buffer& b, const TypeInfo& t, long first, long n) {
  for (long e = first; e < first + n; ++e) {
    for (int k = 0; k < t.field_count(); ++k) {
      unsigned char* dst = field_at(b, t, e, k);
      for (int q = 0; q < t.fields[k].size; ++q) dst[q] = static_cast<unsigned char>(rng.next());
    }
  }
  mark_data(b, t, first, n);
}

std::vector<unsigned char> pack(Buffer& b, const TypeInfo& t, long first, long n) {
  std::vector<unsigned char> out;
  for (long e = first; e < first + n; ++e) {
    for (int k = 0; k < t.field_count(); ++k) {
      const unsigned char* src = field_at(b, t, e, k);
      out.insert(out.end(), src, src + t.fields[k].size);
    }
  }
  return out;
}

void unpack(const unsigned char* src, Buffer& b, const TypeInfo& t, long first, long n) {
  for (long e = first; e < first + n; ++e) {
    for (int k = 0; k < t.field_count(); ++k) {
      std::memcpy(field_at(b, t, e, k), src, t.fields[k].size);
      src += t.fields[k].size;
    }
  }
}

int allgather_bytes(const std::vector<unsigned char>& mine, std::vector<unsigned char>& all,
                    MPI_Comm comm) {
  int p = 1;
  MPI_Comm_size(comm, &p);
  const int bytes = static_cast<int>(mine.size());
  all.resize(static_cast<size_t>(bytes) * p + 1);
  return PMPI_Allgather(mine.data(), bytes, MPI_BYTE, all.data(), bytes, MPI_BYTE, comm);
}

void ignore_from(Buffer& a, Buffer& b, long end) {
  for (size_t j = kGuardBytes + end; j + kGuardBytes < a.bytes.size(); ++j) {
    a.bytes[j] = b.bytes[j] = 0;
  }
}

Difference compare(const char* what, const Buffer& got, const Buffer& want, int comm_rank) {
  Difference d;
  long first = -1, in_gaps = 0, in_guards = 0;
  const long size = static_cast<long>(got.bytes.size());
  for (long j = 0; j < size; ++j) {
    if (got.bytes[j] == want.bytes[j]) continue;
    ++d.count;
    if (first < 0) first = j;
    if (!want.is_data[j]) ++(j < kGuardBytes || j >= size - kGuardBytes ? in_guards : in_gaps);
  }
  if (d.count == 0) return d;
  d.first = first - kGuardBytes;
  d.first_is_data = want.is_data[first];
  std::string got_hex, want_hex;
  char hex[4];
  for (long j = first; j < std::min(first + 16, size); ++j) {
    std::snprintf(hex, sizeof hex, "%02x", got.bytes[j]);
    got_hex += hex;
    std::snprintf(hex, sizeof hex, "%02x", want.bytes[j]);
    want_hex += hex;
  }
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  std::printf(
      "  [world %d comm %d] %s: %ld bytes differ (gap %ld, guard %ld) of %ld; first at offset "
      "%ld from buffer start (%s)\n     rosched: %s\n     mpi:     %s\n",
      world_rank, comm_rank, what, d.count, in_gaps, in_guards, size - 2 * kGuardBytes, d.first,
      d.first_is_data ? "data byte" : "gap/guard byte", got_hex.c_str(), want_hex.c_str());
  return d;
}

}  // namespace rosched::difftest
