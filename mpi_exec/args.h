// Argument checks shared by the collectives, written once. Each local check throws Error with
// the MPI error class Open MPI's own collectives use and a message naming the argument and its
// value. In debug mode (Rosched_Set_debug, ROSCHED_DEBUG=1) check_arguments also compares what
// MPI requires to be the same on every rank, so that a mismatch, or an invalid argument on some
// ranks only, is an error on every rank instead of a hang.
#ifndef ROSCHED_MPI_EXEC_ARGS_H_
#define ROSCHED_MPI_EXEC_ARGS_H_

#include <mpi.h>

#include <climits>
#include <optional>
#include <string>
#include <vector>

#include "mpi_exec/datatype.h"
#include "mpi_exec/mpi_call.h"
#include "mpi_exec/settings.h"

namespace rosched::mpi {

// MPI_ERR_COUNT "<name> = <count> is negative" unless count >= 0; check_count_entry names
// name[index]. The checks run on every call, so the message is made only when one fails.
[[noreturn]] void fail_count(const char* name, int index, long long count);
inline void check_count(const char* name, long long count) {
  if (__builtin_expect(count < 0, 0)) fail_count(name, -1, count);
}
inline void check_count_entry(const char* name, int index, long long count) {
  if (__builtin_expect(count < 0, 0)) fail_count(name, index, count);
}

// MPI_ERR_ROOT "root = <root> is outside [0, p)" unless 0 <= root < p.
[[noreturn]] void fail_root(int root, int p);
inline void check_root(int root, int p) {
  if (__builtin_expect(root < 0 || root >= p, 0)) fail_root(root, p);
}

// MPI_ERR_BUFFER (the all-reduces) or MPI_ERR_ARG (a reduction's root), Open MPI's classes,
// "sendbuf and recvbuf are the same buffer; use MPI_IN_PLACE" where they are, count > 0 and
// sendbuf is not MPI_IN_PLACE: MPI forbids the aliasing, and a reduction that reads its input
// while it writes its result would deliver a wrong result without an error.
[[noreturn]] void fail_aliased(int mpi_class);
inline void check_not_aliased(const void* sendbuf, const void* recvbuf, long long count,
                              int mpi_class) {
  if (__builtin_expect(count > 0 && sendbuf == recvbuf && sendbuf != MPI_IN_PLACE, 0)) {
    fail_aliased(mpi_class);
  }
}

// MPI_ERR_TYPE for MPI_DATATYPE_NULL or a datatype that is not committed; else the type's
// size and extents.
TypeInfo check_type(const char* name, MPI_Datatype type);

// MPI_ERR_OP for MPI_OP_NULL or a predefined operation that is not defined on the datatype
// (MPI_SUM on MPI_C_BOOL; predefined operations on derived datatypes), as Open MPI decides.
// The datatype has passed check_type.
void check_op(MPI_Op op, MPI_Datatype type);

// The local rules of a reduction: count >= 0, a valid committed datatype, an operation defined
// on it (check_count, check_type, check_op). Returns the type.
TypeInfo check_reduction(int count, MPI_Datatype datatype, MPI_Op op);

// An all-reduce's arguments on every rank: count agreed across ranks (debug mode),
// check_not_aliased (MPI_ERR_BUFFER), check_reduction, and with commutative_for a commutative
// operation (else MPI_ERR_OP "<commutative_for> needs a commutative operation"). Returns the
// type.
TypeInfo check_agreed_reduction(MPI_Comm c, const void* sendbuf, const void* recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op,
                                const char* commutative_for = nullptr);

// MPI_ERR_TRUNCATE unless the bytes sent equal the bytes received (type signatures match); the
// message names the receive side as "<count_name> * size of recvtype", or
// "<count_name>[index] * size of recvtype" for index >= 0.
[[noreturn]] void fail_send_size(long long send_bytes, long long recv_bytes,
                                 const char* count_name, int index);
inline void check_send_size(long long send_bytes, long long recv_bytes, const char* count_name,
                            int index = -1) {
  if (__builtin_expect(send_bytes != recv_bytes, 0)) {
    fail_send_size(send_bytes, recv_bytes, count_name, index);
  }
}

// The send side of a collective in which a rank's send buffer is one block that the receivers
// take as recv_bytes (the all-gathers, the all-to-all): unless sendbuf is MPI_IN_PLACE,
// check_count("sendcount"), check_type("sendtype") and check_send_size against recv_bytes
// (naming the receive side count_name, or count_name[index] for index >= 0).
void check_send_side(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     long long recv_bytes, const char* count_name, int index = -1);

// count * size of the datatype, or nothing for MPI_DATATYPE_NULL: a value compared in debug
// mode, computed before the datatype is checked.
std::optional<long long> bytes_of(long long count, MPI_Datatype type);

// What MPI requires to be the same on every rank of the communicator. An unknown value (an
// argument that is itself invalid on this rank) takes part in no comparison: this rank reports
// its own error instead. Outside debug mode it records nothing (no cost per call). Names are
// string literals (kept by pointer).
class Agreement {
 public:
  Agreement& same(const char* what, std::optional<long long> value, int mpi_class) {
    return debug_checks() ? record(what, value, mpi_class) : *this;
  }
  // same() of count * size of type (bytes_of), asked of MPI only in debug mode.
  Agreement& same_bytes(const char* what, long long count, MPI_Datatype type, int mpi_class) {
    return debug_checks() ? record(what, bytes_of(count, type), mpi_class) : *this;
  }
  // values[0 .. n-1], reported per entry as name[j]; values may be null (unknown).
  Agreement& same_entries(const char* name, const int* values, int n, int mpi_class);
  // The same for values[j] * size of type (bytes: ranks may count in different datatypes of one
  // type signature), reported as "name[j] * size of <type_name>".
  Agreement& same_entry_bytes(const char* name, const int* values, int n, MPI_Datatype type,
                              const char* type_name, int mpi_class);

  // Collective over c: one MPI_Allreduce of the minimum and maximum of every value and the
  // largest error class of any rank's local checks. Returns if own_class != 0 (the caller throws
  // its own error); else throws Error for the first value that differs between ranks (naming
  // it, this rank's value and the range over the ranks), or, if another rank's checks failed,
  // Error with that rank's class.
  void compare(MPI_Comm c, int own_class) const;

 private:
  Agreement& record(const char* what, std::optional<long long> value, int mpi_class);
  struct Item {
    const char* what;
    int mpi_class;
    bool indexed;      // an entry of an array: reported as what[index]
    const char* suffix;  // after it in the report
    std::size_t first;  // its values' positions in values_
    std::size_t count;
  };
  std::vector<Item> items_;
  std::vector<std::optional<long long>> values_;
};

// Runs `local` (this rank's checks; throws Error, returns what the collective needs). Outside
// debug mode that is all. In debug mode every rank then runs agreement.compare, whether or not
// its local checks failed, so that every rank returns an error if any rank has one.
template <typename Local>
auto check_arguments(MPI_Comm c, const Agreement& agreement, Local&& local) -> decltype(local()) {
  if (!debug_checks()) return local();
  std::optional<Error> own;
  decltype(local()) result{};
  try {
    result = local();
  } catch (const Error& e) {
    own = e;
  }
  agreement.compare(c, own ? own->mpi_class() : 0);
  if (own) throw *own;
  return result;
}

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_ARGS_H_
