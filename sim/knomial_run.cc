#include "sim/knomial_run.h"

#include <string>
#include <vector>

#include "sched/knomial/knomial_bcast.h"
#include "sched/knomial/knomial_reduce.h"

namespace rosched::sim {
namespace {

std::string detail_of(std::int64_t ports, std::int64_t root) {
  return "ports=" + std::to_string(ports) + " root=" + std::to_string(root);
}

// Every rank's schedule of the family.
template <typename Schedule>
std::vector<Schedule> every_rank(std::int64_t p, std::int64_t ports, std::int64_t root) {
  std::vector<Schedule> ranks;
  ranks.reserve(static_cast<std::size_t>(p));
  for (std::int64_t r = 0; r < p; ++r) ranks.emplace_back(p, ports, r, root);
  return ranks;
}

// The depth check of both runs: `levels` levels of `ports` rounds each (counted apart from the
// schedule), and a transfer in the level `used` names (0-based: the last round used - 1 for the
// reduction, the first one unused for the broadcast). Returns a "round-count" counterexample.
std::optional<Counterexample> check_levels(const std::string& check, std::int64_t p,
                                           std::int64_t ports, std::int64_t schedule_levels,
                                           std::int64_t rounds, std::int64_t rounds_used,
                                           bool level_used, const std::string& detail) {
  const std::int64_t levels = ceil_log(p, ports + 1);
  if (schedule_levels == levels && rounds == levels * ports && level_used) return std::nullopt;
  return Counterexample{check, "round-count", p, -1, rounds, levels * ports, rounds_used, detail};
}

}  // namespace

RunResult run_knomial_reduce(std::int64_t p, std::int64_t ports, std::int64_t root) {
  const std::string detail = detail_of(ports, root);
  const std::vector<KnomialReduceSchedule> ranks =
      every_rank<KnomialReduceSchedule>(p, ports, root);
  const std::int64_t rounds = ranks[0].rounds();
  RunResult result = run_reduce_rounds(
      "knomial-reduce-run", detail, p, 1, root, rounds,
      [&](std::int64_t rank, std::int64_t t) { return ranks[rank].round(t); },
      [&](std::int64_t rank) { return virtual_rank(rank, root, p); });
  if (result.counterexample) return result;
  // The last level holds a transfer: rounds_used lies in it.
  const std::int64_t levels = ceil_log(p, ports + 1);
  const bool last_level_used = p == 1 ? result.rounds_used == 0
                                      : (result.rounds_used - 1) / ports == levels - 1;
  result.counterexample = check_levels("knomial-reduce-run", p, ports, ranks[0].levels(), rounds,
                                       result.rounds_used, last_level_used, detail);
  return result;
}

RunResult run_knomial_bcast(std::int64_t p, std::int64_t ports, std::int64_t root) {
  const std::string detail = detail_of(ports, root);
  const std::vector<KnomialBcastSchedule> ranks = every_rank<KnomialBcastSchedule>(p, ports, root);
  const std::int64_t rounds = ranks[0].rounds();
  std::int64_t first_used = -1;  // the first round in which anything moves
  RunResult result = run_bcast_rounds("knomial-bcast-run", detail, p, 1, root, rounds,
                                      [&](std::int64_t rank, std::int64_t t) {
                                        const BcastRound round = ranks[rank].round(t);
                                        if (first_used < 0 && (round.send || round.recv))
                                          first_used = t;
                                        return round;
                                      });
  if (result.counterexample) return result;
  // The first level holds a transfer (the root's first send), and the run ends in the last.
  const bool first_level_used = p == 1 ? first_used < 0 : first_used >= 0 && first_used < ports;
  const bool ends = result.rounds_used > rounds - ports;
  result.counterexample =
      check_levels("knomial-bcast-run", p, ports, ranks[0].forward().levels(), rounds,
                   result.rounds_used, first_level_used && (p == 1 || ends), detail);
  return result;
}

}  // namespace rosched::sim
