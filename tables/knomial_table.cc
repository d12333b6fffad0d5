#include "tables/knomial_table.h"

#include <stdexcept>

#include "sim/knomial_run.h"

namespace rosched::tables {
namespace {

std::string title(const KnomialTable& t) {
  return "k-nomial reduction p = " + std::to_string(t.p) + ", " + std::to_string(t.ports) +
         " port(s) (radix " + std::to_string(t.ports + 1) + "), root = " + std::to_string(t.root) +
         "; children as rank@round, combined after the rank's own in that order; the broadcast "
         "runs it backwards (round t is the reduction's " +
         std::to_string(t.ranks.empty() ? 0 : t.ranks[0].rounds()) +
         " - 1 - t), bcast_round the round it receives in";
}

}  // namespace

void check_knomial_table_args(std::int64_t p, std::int64_t ports, std::int64_t root) {
  KnomialReduceSchedule(p, ports, 0, root);  // throws for a bad p, ports or root
  if (p > kMaxKnomialTableRows) {
    throw std::invalid_argument("p = " + std::to_string(p) + " exceeds the table limit of " +
                                std::to_string(kMaxKnomialTableRows) + " ranks");
  }
}

KnomialTable make_knomial_table(std::int64_t p, std::int64_t ports, std::int64_t root) {
  check_knomial_table_args(p, ports, root);
  KnomialTable t{p, ports, root, {}, std::nullopt};
  for (std::int64_t r = 0; r < p; ++r) t.ranks.emplace_back(p, ports, r, root);
  t.violation = sim::run_knomial_reduce(p, ports, root).counterexample;
  if (!t.violation) t.violation = sim::run_knomial_bcast(p, ports, root).counterexample;
  return t;
}

Grid KnomialTable::grid() const {
  Grid rows{{"rank", "virtual", "parent", "send_round", "send_level", "bcast_round", "children"}};
  for (const KnomialReduceSchedule& s : ranks) {
    std::string children;
    for (std::int64_t t = 0; t < s.rounds(); ++t) {
      if (const auto recv = s.round(t).recv) {
        children += (children.empty() ? "" : " ") + std::to_string(recv->peer) + "@" +
                    std::to_string(t);
      }
    }
    const bool root_rank = s.send_round() < 0;
    rows.push_back({std::to_string(s.rank()), std::to_string(virtual_rank(s.rank(), root, p)),
                    root_rank ? "-" : std::to_string(s.parent()),
                    root_rank ? "-" : std::to_string(s.send_round()),
                    root_rank ? "-" : std::to_string(s.send_round() / ports),
                    root_rank ? "-" : std::to_string(s.rounds() - 1 - s.send_round()),
                    children.empty() ? "-" : children});
  }
  return rows;
}

void render(const KnomialTable& table, Format format, std::ostream& out) {
  render_titled(title(table), table.grid(), format, out, /*by_column=*/true);
}

std::string summary_line(const KnomialTable& t) {
  const std::string head = "p=" + std::to_string(t.p) + " ports=" + std::to_string(t.ports) +
                           " root=" + std::to_string(t.root) + " family=knomial: ";
  if (t.violation) return head + "INVALID " + t.violation->describe();
  const std::int64_t levels = t.ranks[0].levels();
  return head + "reduction and broadcast runs ok, " + std::to_string(levels) +
         " levels = ceil(log_" + std::to_string(t.ports + 1) + " p), " +
         std::to_string(t.ranks[0].rounds()) + " rounds of one transfer per rank";
}

}  // namespace rosched::tables
