// Round-by-round run of the k-nomial tree reduction (Träff's lecture notes, "Binomial tree
// reduction" and "Final remark: binomial and k-nomial trees"; sched/knomial/knomial_reduce.h)
// over every rank's KnomialReduceSchedule.
#ifndef ROSCHED_SIM_KNOMIAL_RUN_H_
#define ROSCHED_SIM_KNOMIAL_RUN_H_

#include <cstdint>

#include "sim/round_run.h"

namespace rosched::sim {

// run_reduce_rounds (check "knomial-reduce-run") over KnomialReduceSchedule of every rank, in
// the combining order of the virtual ranks (rank - root) mod p; then the depth: the schedule
// has ceil(log_{ports+1} p) levels (ceil_log, counted apart from the schedule: the levels a
// reduction over ports ports cannot do with fewer) of ports rounds, and the last transfer
// happens in the last level (kind "round-count"). O(p ports log p / log(ports + 1)).
RunResult run_knomial_reduce(std::int64_t p, std::int64_t ports, std::int64_t root);

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_KNOMIAL_RUN_H_
