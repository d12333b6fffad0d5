#include "mpi_exec/bcast_rounds.h"

namespace rosched::mpi {

TypeInfo check_bcast_args(const CommInfo& comm, int count, MPI_Datatype datatype, int root) {
  Agreement agreement;
  agreement.same("root", root, MPI_ERR_ROOT)
      .same("message size in bytes (count * type size)", bytes_of(count, datatype),
            MPI_ERR_TRUNCATE);
  return check_arguments(comm.c, agreement, [&] {
    check_count("count", count);
    check_root(root, comm.p);
    return check_type("datatype", datatype);
  });
}

}  // namespace rosched::mpi
