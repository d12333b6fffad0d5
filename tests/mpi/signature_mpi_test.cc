// Different datatypes of matching type signatures on different ranks (MPI 4.0, Sec. 6.1: a
// collective needs the same sequence of basic types on both sides of each transfer, not the
// same datatype and count): each rank describes the same ints as plain MPI_INTs, as pairs, or
// as vectors of five pairs with gaps (10 ints over 14 places, 40 bytes: the parts of 24 B that
// --many-blocks streams rounds in cut such an element), so one rank's element is ten of
// another's. Every broadcast, all-gather and allgatherv by name, the all-to-all's variants; the
// allgathervs also with blocks in reverse order on odd ranks (displacements differ too).
// Before the collectives moved bytes (mpi_exec/message_bytes.h), five of the seven broadcasts
// failed or hung here, and on nodes the all-gathers and allgathervs.
#include <mpi.h>

#include <climits>
#include <string>
#include <utility>
#include <vector>

#include "mpi_exec/rosched_mpi.h"
#include "tests/mpi/mpi_test_util.h"

namespace rosched_mpi_test {
namespace {

// One way to describe ints: `ints` of them per element, an element spanning `stride` ints of
// the buffer, its int j at place at(j) (the vector: two of every three places).
struct Layout {
  const char* name;
  MPI_Datatype type;
  int ints, stride;
  int at(int j) const { return stride == ints ? j : (j / 2) * 3 + j % 2; }
};

class Layouts {
 public:
  Layouts() {
    MPI_Type_contiguous(2, MPI_INT, &pair_);
    MPI_Type_commit(&pair_);
    MPI_Type_vector(5, 2, 3, MPI_INT, &vector_);
    MPI_Type_commit(&vector_);
    all_ = {{"MPI_INT", MPI_INT, 1, 1}, {"pairs", pair_, 2, 2}, {"vectors", vector_, 10, 14}};
  }
  ~Layouts() {
    MPI_Type_free(&pair_);
    MPI_Type_free(&vector_);
  }
  // The layout rank r uses in a test where the ranks' choices are turned by `turn`.
  const Layout& of(int r, int turn) const { return all_[(r + turn) % all_.size()]; }

 private:
  MPI_Datatype pair_ = MPI_DATATYPE_NULL, vector_ = MPI_DATATYPE_NULL;
  std::vector<Layout> all_;
};

// `ints` ints (a multiple of l.ints) in layout l, int i equal to value(i), every gap and one
// guard place after the end -1.
template <typename Value>
std::vector<int> laid_out(const Layout& l, int ints, Value value) {
  std::vector<int> buf(ints / l.ints * l.stride + 1, -1);
  for (int i = 0; i < ints; ++i) buf[i / l.ints * l.stride + l.at(i % l.ints)] = value(i);
  return buf;
}
std::vector<int> empty(const Layout& l, int ints) {
  return laid_out(l, ints, [](int) { return -1; });
}

void test_broadcasts(const Layouts& layouts, MPI_Comm comm) {
  for (int ints : {0, 10, 30, 10 * 999, 10 * 12000}) {
    for (int turn = 0; turn < 3; ++turn) {
      const int root = (turn * 7) % p;
      const Layout& mine = layouts.of(rank, turn);
      const auto want = laid_out(mine, ints, [&](int i) { return pattern(root, i); });
      for (const auto& [name, bcast] : named_broadcasts()) {
        auto buf = rank == root ? want : empty(mine, ints);
        const int rc = bcast(buf.data(), ints / mine.ints, mine.type, root, comm);
        expect(rc == MPI_SUCCESS && buf == want, std::string(name) + " into " + mine.name +
                                                     ", root " + std::to_string(root) + ", " +
                                                     std::to_string(ints) + " ints");
      }
    }
  }
}

using Allgather = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm);
using Allgatherv = int (*)(const void*, int, MPI_Datatype, void*, const int*, const int*,
                           MPI_Datatype, MPI_Comm);

// Rank r sends its ints as one layout and receives all as another; the allgathervs with rank r
// contributing (r mod 3 + 1) times as many, in rank order or (odd ranks) in reverse order.
void test_allgathers(const Layouts& layouts, MPI_Comm comm) {
  const std::vector<std::pair<const char*, Allgather>> allgathers = {
      {"Rosched_Allgather", Rosched_Allgather},
      {"Rosched_Allgather_circulant", Rosched_Allgather_circulant},
      {"Rosched_Allgather_nway", Rosched_Allgather_nway},
      {"Rosched_Allgather_node_aware", Rosched_Allgather_node_aware}};
  const std::vector<std::pair<const char*, Allgatherv>> allgathervs = {
      {"Rosched_Allgatherv", Rosched_Allgatherv},
      {"Rosched_Allgatherv_circulant", Rosched_Allgatherv_circulant},
      {"Rosched_Allgatherv_node_aware", Rosched_Allgatherv_node_aware},
      {"Rosched_Allgatherv_largest", Rosched_Allgatherv_largest},
      {"Rosched_Allgatherv_nway", Rosched_Allgatherv_nway}};
  for (int ints : {0, 10, 10 * 999, 10 * 3000}) {
    for (int turn = 0; turn < 3; ++turn) {
      const Layout& in = layouts.of(rank, turn);
      const Layout& out = layouts.of(rank, turn + 1);
      const std::string what = std::string(" from ") + in.name + " into " + out.name + ", " +
                               std::to_string(ints) + " ints";
      // The regular all-gather: block j holds rank j's ints.
      const auto mine = laid_out(in, ints, [&](int i) { return pattern(rank, i); });
      const auto want = laid_out(out, ints * p, [&](int i) { return pattern(i / ints, i % ints); });
      for (const auto& [name, fn] : allgathers) {
        auto got = empty(out, ints * p);
        const int rc =
            fn(mine.data(), ints / in.ints, in.type, got.data(), ints / out.ints, out.type, comm);
        expect(rc == MPI_SUCCESS && got == want, name + what);
      }
      // The irregular ones.
      const auto share = [&](int r) { return (r % 3 + 1) * ints; };
      for (bool reversed : {false, true}) {
        std::vector<int> order(p), counts(p), displs(p), all;
        for (int j = 0; j < p; ++j) order[j] = reversed && rank % 2 == 1 ? p - 1 - j : j;
        int total = 0;
        for (int j : order) {  // blocks placed in this order
          displs[j] = total / out.ints;
          counts[j] = share(j) / out.ints;
          total += share(j);
          for (int i = 0; i < share(j); ++i) all.push_back(pattern(j, i));
        }
        const auto own = laid_out(in, share(rank), [&](int i) { return pattern(rank, i); });
        const auto whole = laid_out(out, total, [&](int i) { return all[i]; });
        for (const auto& [name, fn] : allgathervs) {
          auto got = empty(out, total);
          const int rc = fn(own.data(), share(rank) / in.ints, in.type, got.data(), counts.data(),
                            displs.data(), out.type, comm);
          expect(rc == MPI_SUCCESS && got == whole,
                 name + what + " (r mod 3)" + (reversed ? ", odd ranks in reverse order" : ""));
        }
      }
    }
  }
}

// Rank r sends `ints` ints to each rank in one layout and receives in another; the all-to-allv
// varies the counts.
void test_alltoalls(const Layouts& layouts, MPI_Comm comm) {
  for (int ints : {10, 10 * 257}) {
    for (int turn = 0; turn < 3; ++turn) {
      const Layout& in = layouts.of(rank, turn);
      const Layout& out = layouts.of(rank, turn + 2);
      // Int i of the block from rank s to rank d.
      const auto value = [&](int s, int d, int i) { return pattern(s * p + d, i); };
      const auto send =
          laid_out(in, ints * p, [&](int i) { return value(rank, i / ints, i % ints); });
      const auto want =
          laid_out(out, ints * p, [&](int i) { return value(i / ints, rank, i % ints); });
      for (const char* v :
           {"auto", "basic", "modified", "zerorot", "zerocopy", "padded", "twophase", "linear"}) {
        auto got = empty(out, ints * p);
        const int rc = Rosched_Alltoall_variant(v, send.data(), ints / in.ints, in.type, got.data(),
                                                ints / out.ints, out.type, comm);
        expect(rc == MPI_SUCCESS && got == want, std::string("Rosched_Alltoall ") + v + " from " +
                                                     in.name + " into " + out.name + ", " +
                                                     std::to_string(ints) + " ints");
      }
      // The irregular one: ints * (1 + (s + d) mod 2) from rank s to rank d.
      const auto n = [&](int s, int d) { return ints * (1 + (s + d) % 2); };
      std::vector<int> scounts(p), sdispls(p), rcounts(p), rdispls(p), sent, wanted;
      for (int j = 0, at_s = 0, at_r = 0; j < p; ++j) {
        scounts[j] = n(rank, j) / in.ints;
        sdispls[j] = at_s / in.ints;
        rcounts[j] = n(j, rank) / out.ints;
        rdispls[j] = at_r / out.ints;
        at_s += n(rank, j);
        at_r += n(j, rank);
        for (int i = 0; i < n(rank, j); ++i) sent.push_back(value(rank, j, i));
        for (int i = 0; i < n(j, rank); ++i) wanted.push_back(value(j, rank, i));
      }
      const int sent_ints = static_cast<int>(sent.size());
      const int wanted_ints = static_cast<int>(wanted.size());
      const auto sendv = laid_out(in, sent_ints, [&](int i) { return sent[i]; });
      const auto wantv = laid_out(out, wanted_ints, [&](int i) { return wanted[i]; });
      for (const char* v : {"auto", "padded", "twophase", "linear"}) {
        auto got = empty(out, wanted_ints);
        const int rc = Rosched_Alltoallv_variant(v, sendv.data(), scounts.data(), sdispls.data(),
                                                 in.type, got.data(), rcounts.data(),
                                                 rdispls.data(), out.type, comm);
        expect(rc == MPI_SUCCESS && got == wantv, std::string("Rosched_Alltoallv ") + v +
                                                      " from " + in.name + " into " + out.name +
                                                      ", " + std::to_string(ints) + " ints");
      }
    }
  }
}

// More than INT_MAX bytes go in units of a power of two bytes that counts them in an int and
// divides every block (mpi_exec/message_bytes.h). Where none does, rosched's forced all-gathers
// return MPI_ERR_COUNT before they touch a byte (in place, into a 16-byte buffer): the
// allgathervs of blocks of INT_MAX and 1 chars (2^31 bytes, which units of 2 would count, but
// not the block of INT_MAX: before, the allgathervs counted it as INT_MAX / 2 units and wrote
// far beyond the buffer, or into a large one wrong bytes without an error), and
// Rosched_Allgather_circulant of INT_MAX chars per rank.
void test_no_unit_beyond_int_max(MPI_Comm comm) {
  if (p < 2) return;
  std::vector<char> tiny(16);
  std::vector<int> counts(p, 0), displs(p, INT_MAX);
  counts[0] = INT_MAX;
  counts[1] = 1;
  displs[0] = 0;
  using Allgatherv = int (*)(const void*, int, MPI_Datatype, void*, const int*, const int*,
                             MPI_Datatype, MPI_Comm);
  const std::pair<const char*, Allgatherv> entries[] = {
      {"Rosched_Allgatherv_circulant", Rosched_Allgatherv_circulant},
      {"Rosched_Allgatherv_node_aware", Rosched_Allgatherv_node_aware},
      {"Rosched_Allgatherv_largest", Rosched_Allgatherv_largest},
      {"Rosched_Allgatherv_nway", Rosched_Allgatherv_nway}};
  for (const auto& [name, run] : entries) {
    const int rc =
        run(MPI_IN_PLACE, 0, MPI_CHAR, tiny.data(), counts.data(), displs.data(), MPI_CHAR, comm);
    expect(error_class(rc) == MPI_ERR_COUNT,
           std::string(name) + ": blocks of INT_MAX and 1 chars give MPI_ERR_COUNT");
  }
  const int rc =
      Rosched_Allgather_circulant(MPI_IN_PLACE, 0, MPI_CHAR, tiny.data(), INT_MAX, MPI_CHAR, comm);
  expect(error_class(rc) == MPI_ERR_COUNT,
         "Rosched_Allgather_circulant: p blocks of INT_MAX chars give MPI_ERR_COUNT");
  expect(tiny == std::vector<char>(16), "the all-gathers beyond INT_MAX leave the buffer alone");
}

}  // namespace

void test_matching_signatures() {
  const Layouts layouts;
  MPI_Comm comm = errors_return_comm();  // a wrong message size fails a check, not the run
  test_broadcasts(layouts, comm);
  test_allgathers(layouts, comm);
  test_alltoalls(layouts, comm);
  test_no_unit_beyond_int_max(comm);
  // Debug mode compares what MPI wants equal across ranks: message sizes and every recvcounts
  // entry in bytes, not in each rank's own elements, so this legal program is no error there.
  Rosched_Set_debug(1);
  test_broadcasts(layouts, comm);
  test_allgathers(layouts, comm);
  Rosched_Set_debug(0);
  MPI_Comm_free(&comm);
}

}  // namespace rosched_mpi_test
