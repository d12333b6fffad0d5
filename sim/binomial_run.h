// Round-by-round run of the binomial-tree reduction (Träff's lecture notes, "Binomial tree
// reduction"; sched/binomial/binomial_reduce.h) over every rank's BinomialReduceSchedule.
#ifndef ROSCHED_SIM_BINOMIAL_RUN_H_
#define ROSCHED_SIM_BINOMIAL_RUN_H_

#include <cstdint>

#include "sim/round_run.h"

namespace rosched::sim {

// run_reduce_rounds (check "binomial-reduce-run") over BinomialReduceSchedule of every rank, in
// the combining order of the virtual ranks (rank - root) mod p; then the round count: the
// schedule has ceil(log2 p) rounds and the last transfer happens in the last of them (kind
// "round-count"). O(p log p).
RunResult run_binomial_reduce(std::int64_t p, std::int64_t root);

}  // namespace rosched::sim

#endif  // ROSCHED_SIM_BINOMIAL_RUN_H_
