// What the interposition library did, per collective and implementation: calls, bytes and time
// in this process; at MPI_Finalize, with ROSCHED_PMPI_REPORT set, the maxima over the ranks of
// MPI_COMM_WORLD as a table on rank 0's stderr (and, with ROSCHED_PMPI_REPORT_TSV=path, as TSV):
// per collective the largest of the ranks' totals, per implementation the largest of the ranks'
// counts (ranks in different groups of a split communicator may run one call differently, so
// these can add up to more than the total).
#ifndef ROSCHED_PMPI_REPORT_H_
#define ROSCHED_PMPI_REPORT_H_

#include <cstdint>
#include <string>

#include "pmpi/policy.h"

namespace rosched::pmpi {

// Adds one call of collective c that went to route r (kNative or a rosched algorithm, never
// kModel), `bytes` (as in CallFacts, alltoallv: this rank's send bytes) taking `seconds`.
void record(Collective c, Route r, std::int64_t bytes, double seconds);

// Collective over MPI_COMM_WORLD (by PMPI_ calls); call before PMPI_Finalize. Prints on rank 0
// when `print`, writes the TSV on rank 0 when tsv_path is not empty; `mode` names ROSCHED_PMPI's
// value in the heading.
void report(bool print, const std::string& tsv_path, const char* mode);

}  // namespace rosched::pmpi

#endif  // ROSCHED_PMPI_REPORT_H_
