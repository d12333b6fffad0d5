// Bin Jia's hypercube broadcast as a table: Träff's lecture notes, "The power of the hypercube:
// Optimal Broadcast" through the "Main Theorem". See hypercube_table.h.
#include "tables/hypercube_table.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "sim/hypercube_run.h"

namespace rosched::tables {
namespace {

// The hypercube rounds M - 1 + q (the rounds with an s(rep, j) and t(rep, j)); 0 for p = 1.
std::int64_t cube_rounds(std::int64_t p, std::int64_t blocks) {
  return p == 1 ? 0 : blocks - 1 + hypercube_dim(p);
}

std::int64_t row_count(std::int64_t p, std::int64_t blocks) {
  const std::int64_t cube = cube_rounds(p, blocks);
  const std::int64_t extra = p == 1 ? 0 : blocks - 1 + ceil_log2(p) - cube;
  return 4 + 2 * hypercube_dim(p) + 4 * cube + 2 * extra;
}

// The q lowest bits of v, most significant first (at least one digit).
std::string binary(std::int64_t v, int q) {
  std::string bits;
  for (int k = std::max(q, 1) - 1; k >= 0; --k) bits += (v >> k) & 1 ? '1' : '0';
  return bits;
}

// "b>r" (send block b to rank r) or "b<r" (receive block b from rank r), "-" for nothing.
std::string transfer_cell(const std::optional<Transfer>& t, char arrow) {
  return t ? std::to_string(t->block) + arrow + std::to_string(t->peer) : "-";
}

std::string title(const HypercubeTable& t) {
  return "hypercube p = " + std::to_string(t.p) + ", q = " + std::to_string(t.q) +
         ", M = " + std::to_string(t.blocks) + ", root = " + std::to_string(t.root) +
         "; unit = (rep - root) mod p in binary; NEXTBIT, SWITCH, s, t (unclamped) of the " +
         "unit; b>r: block b to rank r, b<r: block b from rank r";
}

}  // namespace

std::int64_t default_hypercube_blocks(std::int64_t p) { return hypercube_dim(p) + 1; }

void check_hypercube_table_args(std::int64_t p, std::int64_t blocks, std::int64_t root) {
  hypercube_dim(p);  // checks p
  if (root < 0 || root >= p) {
    throw std::invalid_argument("root " + std::to_string(root) + " is outside [0, " +
                                std::to_string(p) + ")");
  }
  if (blocks < 1) {
    throw std::invalid_argument("block count M = " + std::to_string(blocks) +
                                " must be at least 1");
  }
  if (blocks > kMaxHypercubeTableCells ||
      row_count(p, blocks) > kMaxHypercubeTableCells / (p + 1)) {
    throw std::invalid_argument("the hypercube table for p = " + std::to_string(p) +
                                " and M = " + std::to_string(blocks) + " would have more than " +
                                std::to_string(kMaxHypercubeTableCells) + " cells");
  }
}

HypercubeTable make_hypercube_table(std::int64_t p, std::int64_t blocks, std::int64_t root) {
  check_hypercube_table_args(p, blocks, root);
  HypercubeTable t{p, blocks, root, hypercube_dim(p), {}, std::nullopt};
  t.ranks.reserve(p);
  for (std::int64_t r = 0; r < p; ++r) t.ranks.emplace_back(p, blocks, r, root);
  t.violation = sim::run_hypercube(p, blocks, root);
  return t;
}

Grid HypercubeTable::grid() const {
  const std::int64_t cube = cube_rounds(p, blocks);
  Grid rows{{"rank"}, {"rep"}, {"co"}, {"unit"}};
  for (const char* name : {"NEXTBIT[", "SWITCH["}) {
    for (int k = 0; k < q; ++k) rows.push_back({name + std::to_string(k) + "]"});
  }
  for (std::int64_t j = 0; j < rounds(); ++j) {
    const std::string round = " " + std::to_string(j);
    if (j < cube) {
      rows.push_back({"s(rep)" + round});
      rows.push_back({"t(rep)" + round});
    }
    rows.push_back({"send" + round});
    rows.push_back({"recv" + round});
  }
  for (auto& row : rows) row.reserve(p + 1);
  const auto real = [this](std::int64_t v) { return std::to_string(real_rank(v, root, p)); };
  std::vector<std::string> column;
  column.reserve(rows.size());
  for (std::int64_t r = 0; r < p; ++r) {
    const HypercubeRank& me = ranks[r].virtual_rank();
    column = {std::to_string(r), real(me.rep()), real(me.co()), binary(me.rep(), q)};
    for (int k = 0; k < q; ++k) column.push_back(std::to_string(me.nextbit()[k]));
    for (int k = 0; k < q; ++k) column.push_back(std::to_string(me.switches()[k]));
    for (std::int64_t j = 0; j < rounds(); ++j) {
      if (j < cube) {
        const CubeRound cr = me.round(j);
        column.push_back(std::to_string(me.send_block(cr)));
        column.push_back(std::to_string(me.recv_block(cr)));
      }
      const BcastRound rd = ranks[r].round(j);
      column.push_back(transfer_cell(rd.send, '>'));
      column.push_back(transfer_cell(rd.recv, '<'));
    }
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i].push_back(std::move(column[i]));
  }
  return rows;
}

void render(const HypercubeTable& table, Format format, std::ostream& out) {
  render_titled(title(table), table.grid(), format, out);
}

std::string summary_line(const HypercubeTable& t) {
  const std::string m = std::to_string(t.blocks);
  std::string line = "p=" + std::to_string(t.p) + " q=" + std::to_string(t.q) + " M=" + m +
                     " root=" + std::to_string(t.root) + " family=hypercube: ";
  if (t.violation) return line + "INVALID " + t.violation->describe();
  line += "valid broadcast (every rank but the root receives every block once) in " +
          std::to_string(t.rounds()) + " rounds";
  if (t.p > 1) line += " = M-1+ceil(log2 p) = " + m + "-1+" + std::to_string(ceil_log2(t.p));
  return line + "; " + std::to_string(t.pairs()) + " cooperating pairs";
}

}  // namespace rosched::tables
