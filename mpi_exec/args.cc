#include "mpi_exec/args.h"

#include <utility>

#include "mpi_exec/tags.h"

namespace rosched::mpi {
namespace {

// The predefined operations and their names.
struct NamedOp {
  MPI_Op op;
  const char* name;
};
const NamedOp* predefined_op(MPI_Op op) {
  static const NamedOp predefined[] = {
      {MPI_MAX, "MPI_MAX"},       {MPI_MIN, "MPI_MIN"},       {MPI_SUM, "MPI_SUM"},
      {MPI_PROD, "MPI_PROD"},     {MPI_LAND, "MPI_LAND"},     {MPI_BAND, "MPI_BAND"},
      {MPI_LOR, "MPI_LOR"},       {MPI_BOR, "MPI_BOR"},       {MPI_LXOR, "MPI_LXOR"},
      {MPI_BXOR, "MPI_BXOR"},     {MPI_MAXLOC, "MPI_MAXLOC"}, {MPI_MINLOC, "MPI_MINLOC"},
      {MPI_REPLACE, "MPI_REPLACE"}, {MPI_NO_OP, "MPI_NO_OP"}};
  for (const NamedOp& named : predefined)
    if (op == named.op) return &named;
  return nullptr;
}

std::string op_name(MPI_Op op) {
  const NamedOp* named = predefined_op(op);
  return named ? named->name : "a user-defined operation";
}

std::string type_name(MPI_Datatype type) {
  char name[MPI_MAX_OBJECT_NAME];
  int length = 0;
  if (PMPI_Type_get_name(type, name, &length) != MPI_SUCCESS || length == 0) {
    return "a derived datatype";
  }
  return std::string(name, length);
}

// The last pair of a predefined operation and a predefined datatype this thread found valid:
// both handles are never freed, so the answer stands (the check costs a collective call on
// MPI_COMM_SELF, more than a small all-reduce's own work at p = 2).
thread_local MPI_Op last_op = MPI_OP_NULL;
thread_local MPI_Datatype last_op_type = MPI_DATATYPE_NULL;

// Largest value of MPI_MAX: takes part in no comparison.
constexpr long long kNeutral = LLONG_MIN;

}  // namespace

void fail_count(const char* name, int index, long long count) {
  const std::string what =
      index < 0 ? std::string(name) : std::string(name) + "[" + std::to_string(index) + "]";
  throw Error(MPI_ERR_COUNT, what + " = " + std::to_string(count) + " is negative");
}

void fail_aliased(int mpi_class) {
  throw Error(mpi_class, "sendbuf and recvbuf are the same buffer; use MPI_IN_PLACE");
}

void fail_root(int root, int p) {
  throw Error(MPI_ERR_ROOT,
              "root = " + std::to_string(root) + " is outside [0, " + std::to_string(p) + ")");
}

TypeInfo check_type(const char* name, MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) {
    throw Error(MPI_ERR_TYPE, std::string(name) + " is MPI_DATATYPE_NULL");
  }
  if (is_remembered_predefined(type)) return type_info(type);
  // A predefined datatype is always committed (and asking costs a call per collective).
  int integers = 0, addresses = 0, types = 0, combiner = 0;
  check(PMPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner),
        "MPI_Type_get_envelope");
  if (combiner == MPI_COMBINER_NAMED) return remember_predefined(type);
  // MPI has no query for "committed"; a zero-count transfer with nobody reports it (MPI's
  // parameter checks), on a communicator that returns errors.
  const int rc = PMPI_Sendrecv(nullptr, 0, type, MPI_PROC_NULL, tag::kLocalCopy, nullptr, 0, type,
                              MPI_PROC_NULL, tag::kLocalCopy, self_comm(), MPI_STATUS_IGNORE);
  int error_class = MPI_SUCCESS;
  if (rc != MPI_SUCCESS) PMPI_Error_class(rc, &error_class);
  if (error_class == MPI_ERR_TYPE) {
    throw Error(MPI_ERR_TYPE, std::string(name) + " (" + type_name(type) + ") is not committed");
  }
  check(rc, "MPI_Sendrecv (datatype check)");
  return type_info(type);
}

void check_op(MPI_Op op, MPI_Datatype type) {
  if (op == MPI_OP_NULL) throw Error(MPI_ERR_OP, "op is MPI_OP_NULL");
  if (op == last_op && type == last_op_type) return;
  // MPI_Reduce_local reports a bad pair to MPI_COMM_WORLD's handler; a zero-count all-reduce on
  // a communicator that returns errors reports it here, with Open MPI's own rule.
  char unused[1];
  const int rc = PMPI_Allreduce(unused, unused + 0, 0, type, op, self_comm());
  int error_class = MPI_SUCCESS;
  if (rc != MPI_SUCCESS) PMPI_Error_class(rc, &error_class);
  if (error_class == MPI_ERR_OP) {
    throw Error(MPI_ERR_OP,
                "op " + op_name(op) + " is not defined on datatype " + type_name(type));
  }
  check(rc, "MPI_Allreduce (operation check)");
  if (predefined_op(op) != nullptr && is_remembered_predefined(type)) last_op = op, last_op_type = type;
}

TypeInfo check_reduction(int count, MPI_Datatype datatype, MPI_Op op) {
  check_count("count", count);
  const TypeInfo type = check_type("datatype", datatype);
  check_op(op, datatype);
  return type;
}

TypeInfo check_agreed_reduction(MPI_Comm c, const void* sendbuf, const void* recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op, const char* commutative_for) {
  Agreement agreement;
  agreement.same("count", count, MPI_ERR_COUNT);
  return check_arguments(c, agreement, [&] {
    check_not_aliased(sendbuf, recvbuf, count, MPI_ERR_BUFFER);
    const TypeInfo type = check_reduction(count, datatype, op);
    if (commutative_for != nullptr) {
      int commutative = 0;
      check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
      if (!commutative) {
        throw Error(MPI_ERR_OP, std::string(commutative_for) + " needs a commutative operation");
      }
    }
    return type;
  });
}

void fail_send_size(long long send_bytes, long long recv_bytes, const char* count_name,
                    int index) {
  const std::string recv_what =
      std::string(count_name) + (index >= 0 ? "[" + std::to_string(index) + "]" : "");
  throw Error(MPI_ERR_TRUNCATE, "sendcount * size of sendtype = " + std::to_string(send_bytes) +
                                    " bytes differs from " + recv_what + " * size of recvtype = " +
                                    std::to_string(recv_bytes) + " bytes");
}

void check_send_side(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     long long recv_bytes, const char* count_name, int index) {
  if (sendbuf == MPI_IN_PLACE) return;
  check_count("sendcount", sendcount);
  const TypeInfo stype = check_type("sendtype", sendtype);
  check_send_size(static_cast<long long>(sendcount) * stype.size, recv_bytes, count_name, index);
}

std::optional<long long> bytes_of(long long count, MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) return std::nullopt;
  if (is_remembered_predefined(type)) return count * type_info(type).size;
  int size = 0;
  check(PMPI_Type_size(type, &size), "MPI_Type_size");
  return count * size;
}

Agreement& Agreement::record(const char* what, std::optional<long long> value, int mpi_class) {
  items_.push_back({what, mpi_class, false, "", values_.size(), 1});
  values_.push_back(value);
  return *this;
}

Agreement& Agreement::same_entries(const char* name, const int* values, int n, int mpi_class) {
  if (!debug_checks()) return *this;
  items_.push_back({name, mpi_class, true, "", values_.size(), static_cast<std::size_t>(n)});
  for (int j = 0; j < n; ++j) {
    values_.push_back(values ? std::optional<long long>(values[j]) : std::nullopt);
  }
  return *this;
}

Agreement& Agreement::same_entry_bytes(const char* name, const int* values, int n,
                                       MPI_Datatype type, const char* type_name, int mpi_class) {
  if (!debug_checks()) return *this;
  same_entries(name, values, n, mpi_class);
  Item& item = items_.back();
  item.suffix = type_name;
  const std::optional<long long> size = bytes_of(1, type);
  for (std::size_t k = 0; k < item.count; ++k) {
    std::optional<long long>& v = values_[item.first + k];
    v = v && size ? std::optional<long long>(*v * *size) : std::nullopt;
  }
  return *this;
}

void Agreement::compare(MPI_Comm c, int own_class) const {
  // Per value: its maximum and the maximum of its negation (minus the minimum); then the
  // largest error class.
  const std::size_t n = values_.size();
  std::vector<long long> in(2 * n + 1, kNeutral), out(2 * n + 1);
  for (std::size_t i = 0; i < n; ++i) {
    if (values_[i]) {
      in[2 * i] = *values_[i];
      in[2 * i + 1] = -*values_[i];
    }
  }
  in[2 * n] = own_class;
  check(PMPI_Allreduce(in.data(), out.data(), static_cast<int>(in.size()), MPI_LONG_LONG, MPI_MAX,
                      c),
        "MPI_Allreduce (debug check)");
  if (own_class != 0) return;  // this rank reports its own error; its values are all known
  for (const Item& item : items_) {
    for (std::size_t k = 0; k < item.count; ++k) {
      const std::size_t i = item.first + k;
      const long long hi = out[2 * i], lo = -out[2 * i + 1];
      if (hi == lo) continue;
      const std::string what =
          (item.indexed ? std::string(item.what) + "[" + std::to_string(k) + "]" : item.what) +
          item.suffix;
      const std::string mine = values_[i] ? std::to_string(*values_[i]) : "unknown";
      throw Error(item.mpi_class, what + " differs between ranks (this rank: " + mine +
                                      ", range over the ranks: " +
                                      std::to_string(lo) + ".." + std::to_string(hi) + ")");
    }
  }
  if (out[2 * n] != 0) {
    throw Error(static_cast<int>(out[2 * n]),
                "the arguments of another rank are invalid (error class " +
                    std::to_string(out[2 * n]) + "; see that rank's message)");
  }
}

}  // namespace rosched::mpi
