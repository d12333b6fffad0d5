#include "tables/kary_table.h"

#include <stdexcept>

#include "sim/kary_run.h"

namespace rosched::tables {
namespace {

std::string title(const KaryTable& t) {
  return "k-ary tree broadcast p = " + std::to_string(t.p) + ", k = " + std::to_string(t.degree) +
         ", M = " + std::to_string(t.blocks) + ", root = " + std::to_string(t.root) +
         "; a rank sends block b to its c-th child in round first_send + b k + c; blocks as "
         "block@round of arrival";
}

}  // namespace

void check_kary_table_args(std::int64_t p, std::int64_t blocks, std::int64_t degree,
                           std::int64_t root) {
  const KaryTreeBcastSchedule s(p, blocks, 0, root, degree);  // throws for bad arguments
  if (p > kMaxKaryTableRows || s.rounds() > kMaxKaryTableRankRounds / p) {
    throw std::invalid_argument("the k-ary table for p = " + std::to_string(p) +
                                " and M = " + std::to_string(blocks) + " exceeds the limit of " +
                                std::to_string(kMaxKaryTableRows) + " ranks or " +
                                std::to_string(kMaxKaryTableRankRounds) + " rank-rounds");
  }
}

KaryTable make_kary_table(std::int64_t p, std::int64_t blocks, std::int64_t degree,
                          std::int64_t root) {
  check_kary_table_args(p, blocks, degree, root);
  KaryTable t{p, blocks, degree, root, {}, std::nullopt};
  for (std::int64_t r = 0; r < p; ++r) t.ranks.emplace_back(p, blocks, r, root, degree);
  t.violation = sim::run_kary_tree(p, blocks, root, degree);
  return t;
}

Grid KaryTable::grid() const {
  Grid rows{{"rank", "virtual", "parent", "children", "first_send", "blocks"}};
  for (const KaryTreeBcastSchedule& s : ranks) {
    std::string children, arrivals;
    for (std::int64_t i = 0; i < s.rounds(); ++i) {
      const BcastRound r = s.round(i);
      if (r.recv) {
        arrivals +=
            (arrivals.empty() ? "" : " ") + std::to_string(r.recv->block) + "@" + std::to_string(i);
      }
      if (r.send && r.send->block == 0) {
        children += (children.empty() ? "" : " ") + std::to_string(r.send->peer);
      }
    }
    const bool root_rank = s.virtual_rank() == 0;
    rows.push_back({std::to_string(s.rank()), std::to_string(s.virtual_rank()),
                    root_rank ? "-" : std::to_string(s.parent()), children.empty() ? "-" : children,
                    s.children() == 0 ? "-" : std::to_string(s.start()),
                    arrivals.empty() ? "-" : arrivals});
  }
  return rows;
}

void render(const KaryTable& table, Format format, std::ostream& out) {
  render_titled(title(table), table.grid(), format, out, /*by_column=*/true);
}

std::string summary_line(const KaryTable& t) {
  const std::string head = "p=" + std::to_string(t.p) + " k=" + std::to_string(t.degree) +
                           " M=" + std::to_string(t.blocks) + " root=" + std::to_string(t.root) +
                           " family=kary: ";
  if (t.violation) return head + "INVALID " + t.violation->describe();
  const std::int64_t rounds = t.ranks[0].rounds();
  return head + "valid broadcast (every rank but the root receives every block once) in " +
         std::to_string(rounds) + " one-ported rounds = (M-1)k + the latest first round " +
         std::to_string(t.p == 1 ? 0 : kary_max_start(t.p, t.degree)) + "; depth " +
         std::to_string(kary_depth(t.p, t.degree)) +
         ", so about M - 1 + depth block times with k sends in flight";
}

}  // namespace rosched::tables
