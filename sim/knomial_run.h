// Round-by-round runs of the k-nomial tree reduction and broadcast (Träff's lecture notes,
// "Binomial tree reduction", "Binomial tree broadcast" and "Final remark: binomial and k-nomial
// trees"; sched/knomial/) over every rank's KnomialReduceSchedule or KnomialBcastSchedule.
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

// run_bcast_rounds (check "knomial-bcast-run") over KnomialBcastSchedule of every rank: every
// rank receives the one block once, from a rank that holds it; then the same depth as above,
// the first transfer in the first level (kind "round-count"). O(p ports log p / log(ports + 1)).
RunResult run_knomial_bcast(std::int64_t p, std::int64_t ports, std::int64_t root);

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_KNOMIAL_RUN_H_
