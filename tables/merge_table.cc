// Lang 2025, Algorithms 0-2 (sched/merge/) as a table; see merge_table.h.
#include "tables/merge_table.h"

#include <memory>
#include <stdexcept>

#include "sched/round.h"
#include "tables/table_family.h"

namespace rosched::tables {
namespace {

using merge::Piece;
using merge::Slot;

std::string range_cell(const merge::Range& r, std::int64_t p) {
  if (r.count == 0) return "()";
  if (r.count == 1) return std::to_string(r.first);
  return std::to_string(r.first) + ".." + std::to_string(merge::cyclic(r.first, r.count - 1, p));
}

std::string message_cell(const Piece& main, const Piece& partial, std::int64_t p) {
  if (!main) return "-";
  return range_cell(main.range, p) + (partial ? "+" + range_cell(partial.range, p) : "");
}

const char* slot_short(Slot s) {
  switch (s) {
    case Slot::kOwn: return "V";
    case Slot::kAcc: return "A";
    case Slot::kPartial: return "P";
    case Slot::kRecvMain: return "RM";
    case Slot::kRecvPartial: return "RP";
    case Slot::kNone: break;
  }
  return "?";
}

std::string op_cell(const merge::MergeOp& op) {
  std::string cell = op.dst == Slot::kNone ? "result" : slot_short(op.dst);
  cell += op.tree ? "=tree(" : "=";
  for (int j = 0; j < op.sources; ++j) {
    cell += (j ? (op.concat ? "|" : "+") : "") + std::string(slot_short(op.src[j]));
  }
  return cell + (op.tree ? ")" : "");
}

std::string title(const MergeTable& t) {
  return "merge p = " + std::to_string(t.plan.p) + ", algorithm " +
         merge::algorithm_name(t.plan.algorithm) +
         " (Lang 2025); sends/receives: ranks' blocks a..b (cyclic), main+partial part; "
         "slots V own block, A accumulated, P partial, RM/RP received main/partial; "
         "+ merge, | concatenate";
}

class MergeTables : public TableFamily {
 public:
  std::string name() const override { return "merge"; }
  std::string description() const override {
    return "merge: the merge-allreduce schedules of Lang 2025 (alg0 all-gather and merge tree, "
           "alg1 dissemination with partial data, alg2 circulant), one column per rank: "
           "partners, ranges sent and received, merges per round";
  }
  std::string layout_help() const override {
    return "Rows (merge): per round k: to k, sends k (ranks' blocks a..b, main+partial), "
           "from k, receives k, merges k (dst=src+src); result (the final merge).";
  }
  std::vector<TableParam> params() const override {
    return {{"algorithm", "A", "merge: alg0, alg1 (default), alg2 or alg1-printed"}};
  }
  void check_args(std::int64_t p, const TableOptions& o) const override {
    algorithm(o);
    check_merge_table_args(p);
  }
  Printed print(std::int64_t p, const TableOptions& o, Format format,
                std::ostream& out) const override {
    const MergeTable table = make_merge_table(algorithm(o), p);
    render(table, format, out);
    return Printed{!table.violation.has_value(), summary_line(table)};
  }

 private:
  static merge::Algorithm algorithm(const TableOptions& o) {
    const auto it = o.params.find("algorithm");
    return it == o.params.end() ? merge::Algorithm::kDissemination
                                : merge::parse_algorithm(it->second);
  }
};

}  // namespace

void check_merge_table_args(std::int64_t p) {
  check_process_count(p, "");
  const std::int64_t rows = 5 * ceil_log2(p) + 2;
  if (rows > kMaxMergeTableCells / (p + 1)) {
    throw std::invalid_argument("the merge table for p = " + std::to_string(p) +
                                " would have more than " + std::to_string(kMaxMergeTableCells) +
                                " cells");
  }
}

MergeTable make_merge_table(merge::Algorithm algorithm, std::int64_t p) {
  check_merge_table_args(p);
  MergeTable t{merge::make_plan(algorithm, p), std::nullopt, {}};
  const sim::MergeRunResult run = sim::run_merge(t.plan);
  t.violation = run.counterexample;
  t.stats = run.stats;
  return t;
}

Grid MergeTable::grid() const {
  const std::int64_t p = plan.p;
  const auto shared = std::make_shared<const merge::MergePlan>(plan);
  Grid rows{{"rank"}};
  for (std::size_t k = 0; k < plan.rounds.size(); ++k) {
    const std::string round = " " + std::to_string(k);
    for (const char* name : {"to", "sends", "from", "receives", "merges"}) {
      rows.push_back({name + round});
    }
  }
  rows.push_back({"result"});
  for (std::int64_t r = 0; r < p; ++r) {
    const merge::MergeSchedule me(shared, r);
    std::size_t row = 0;
    rows[row++].push_back(std::to_string(r));
    for (std::int64_t k = 0; k < me.rounds(); ++k) {
      const merge::MergeRound rd = me.round(k);
      rows[row++].push_back(std::to_string(rd.to));
      rows[row++].push_back(message_cell(rd.send_main, rd.send_partial, p));
      rows[row++].push_back(std::to_string(rd.from));
      rows[row++].push_back(message_cell(rd.recv_main, rd.recv_partial, p));
      std::string ops;
      for (int j = 0; j < rd.op_count; ++j) ops += (j ? ";" : "") + op_cell(rd.ops[j]);
      rows[row++].push_back(ops.empty() ? "-" : ops);
    }
    rows[row++].push_back(op_cell(me.final_op()));
  }
  return rows;
}

void render(const MergeTable& table, Format format, std::ostream& out) {
  render_titled(title(table), table.grid(), format, out);
}

std::string summary_line(const MergeTable& t) {
  const std::int64_t p = t.plan.p;
  std::string line = "p=" + std::to_string(p) + " family=merge algorithm=" +
                     merge::algorithm_name(t.plan.algorithm) + ": ";
  if (t.violation) return line + "INVALID " + t.violation->describe();
  return line + "valid (every rank ends with every rank's block once) in " +
         std::to_string(t.plan.rounds.size()) + " rounds = ceil(log2 p); blocks sent per rank " +
         std::to_string(t.stats.max_volume) + " (p-1 = " + std::to_string(p - 1) +
         "), largest message " + std::to_string(t.stats.max_message) +
         " blocks, merge work per rank " + std::to_string(t.stats.max_work) + " blocks";
}

std::unique_ptr<TableFamily> merge_tables() { return std::make_unique<MergeTables>(); }

}  // namespace rosched::tables
