// The families the tables tool prints, each over its table builder (schedule_table.h,
// two_tree_table.h, hypercube_table.h).
#include <stdexcept>

#include "tables/bruck_table.h"
#include "tables/hypercube_table.h"
#include "tables/kary_table.h"
#include "tables/knomial_table.h"
#include "tables/nway_allgather_table.h"
#include "tables/nway_table.h"
#include "tables/table_family.h"
#include "tables/two_tree_table.h"

namespace rosched::tables {
namespace {

template <typename Table>
Printed render_checked(const Table& table, Format format, std::ostream& out) {
  render(table, format, out);
  return Printed{!table.violation.has_value(), summary_line(table)};
}

// The integer parameter `name` as given (the family checks its range), else `absent`.
std::int64_t int_param(const TableOptions& o, const std::string& name, std::int64_t absent) {
  const auto it = o.params.find(name);
  if (it == o.params.end()) return absent;
  std::size_t used = 0;
  std::int64_t v = 0;
  try {
    v = std::stoll(it->second, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != it->second.size()) {
    throw std::invalid_argument("--" + name + " '" + it->second + "' is not a number in [1, 64]");
  }
  return v;
}

class CirculantTables : public TableFamily {
 public:
  std::string name() const override { return "circulant"; }
  std::string description() const override {
    return "circulant (the default): receive and send schedules of the round-optimal circulant "
           "broadcast (Traff 2022), one column per rank";
  }
  std::string layout_help() const override {
    return "Rows (circulant): rank, baseblock (root: -), recv[0..q-1], send[0..q-1]; negative "
           "blocks belong to the previous phase.";
  }
  std::set<std::string> options() const override { return {"construction"}; }
  void check_args(std::int64_t, const TableOptions& o) const override {
    parse_construction(o.construction.c_str());
  }
  Printed print(std::int64_t p, const TableOptions& o, Format format,
                std::ostream& out) const override {
    return render_checked(make_table(p, o.root, parse_construction(o.construction.c_str())),
                          format, out);
  }
};

class TwoTreeTables : public TableFamily {
 public:
  std::string name() const override { return "twotree"; }
  std::string description() const override {
    return "twotree: the two trees of the two-tree broadcast and reduction (Sanders, Speck, "
           "Traff 2009), one row per rank: parents, children, edge colours and first arrival "
           "rounds in both trees";
  }
  std::string layout_help() const override {
    return "Columns (twotree): rank, role (root, relay, member), then per tree parent, colour "
           "(round parity of the edge from the parent), first arrival round, children as "
           "rank:colour.";
  }
  Printed print(std::int64_t p, const TableOptions& o, Format format,
                std::ostream& out) const override {
    return render_checked(make_two_tree_table(p, o.root), format, out);
  }
};

class HypercubeTables : public TableFamily {
 public:
  std::string name() const override { return "hypercube"; }
  std::string description() const override {
    return "hypercube: Bin Jia's M - 1 + ceil(log2 p) round hypercube broadcast of M blocks "
           "with cooperating pairs, one column per rank: units, NEXTBIT, SWITCH, and per round "
           "the blocks sent and received";
  }
  std::string layout_help() const override {
    return "Rows (hypercube): rank, rep and co (the unit's representative and cooperating "
           "processor, real ranks), unit (the representative's hypercube number in binary), "
           "NEXTBIT[0..q-1] and SWITCH[0..q-1] of the representative; per round j the "
           "lecture's s(rep) j and t(rep) j (unclamped; the root never receives), send j as "
           "b>r (block b to rank r) and recv j as b<r (block b from rank r), - for nothing; "
           "the last round (p not a power of two) is the exchange inside the pairs.";
  }
  std::set<std::string> options() const override { return {"blocks"}; }
  void check_args(std::int64_t p, const TableOptions& o) const override {
    check_hypercube_table_args(p, blocks(p, o), o.root);
  }
  Printed print(std::int64_t p, const TableOptions& o, Format format,
                std::ostream& out) const override {
    return render_checked(make_hypercube_table(p, blocks(p, o), o.root), format, out);
  }

 private:
  static std::int64_t blocks(std::int64_t p, const TableOptions& o) {
    return o.blocks ? *o.blocks : default_hypercube_blocks(p);
  }
};

class NwayTables : public TableFamily {
 public:
  std::string name() const override { return "nway"; }
  std::string description() const override {
    return "nway: the n-way dissemination allreduce (End et al. 2015) with the last-round rule "
           "--rule, one row per rank and round: partners and the ranges of contributions sent "
           "and received";
  }
  std::string layout_help() const override {
    return "Rows (nway): rank, round, distance unit (b^i; circulant: the skip), sends "
           "j>r:acc[a:b) (port j to rank r, offsets a..b-1 of the sender), receives "
           "j<r:[a:b)>acc (offsets of the receiver, folded into acc), copy; accumulators x own, "
           "F main, R/E/S second, T take-out.";
  }
  std::vector<TableParam> params() const override {
    return {{"n", "N", "ports per round, 1..64 (default 2)"},
            {"rule", "RULE", "last-round rule: " + nway_rule_listing() + " (default circulant)"}};
  }
  void check_args(std::int64_t p, const TableOptions& o) const override {
    if (o.root != 0) throw std::invalid_argument("--root does not apply to --family nway");
    check_nway_table_args(p, n(o), rule(o));
  }
  Printed print(std::int64_t p, const TableOptions& o, Format format,
                std::ostream& out) const override {
    return render_checked(make_nway_table(p, n(o), rule(o)), format, out);
  }

 private:
  static std::int64_t n(const TableOptions& o) { return int_param(o, "n", 2); }
  static NwayRule rule(const TableOptions& o) {
    const auto it = o.params.find("rule");
    return it == o.params.end() ? NwayRule::kCirculant : parse_nway_rule(it->second);
  }
};

class NwayAllgatherTables : public TableFamily {
 public:
  std::string name() const override { return "nway-allgather"; }
  std::string description() const override {
    return "nway-allgather: the n-port all-gather (Traff 2022's Algorithm 7 on the skips of "
           "--n ports), one row per rank and round: what the rank holds, its sends and receives";
  }
  std::string layout_help() const override {
    return "Rows (nway-allgather): rank, round, held (contributions of ranks rank .. rank + "
           "held - 1 at the round's start), sends j>r:[0:c) (port j to rank r, the first c), "
           "receives j<r:[a:b) (offsets a..b-1 of the receiver).";
  }
  std::vector<TableParam> params() const override {
    return {{"n", "N", "ports per round, 1..64 (default 2)"}};
  }
  void check_args(std::int64_t p, const TableOptions& o) const override {
    if (o.root != 0)
      throw std::invalid_argument("--root does not apply to --family nway-allgather");
    check_nway_allgather_table_args(p, int_param(o, "n", 2));
  }
  Printed print(std::int64_t p, const TableOptions& o, Format format,
                std::ostream& out) const override {
    return render_checked(make_nway_allgather_table(p, int_param(o, "n", 2)), format, out);
  }
};

class KnomialTables : public TableFamily {
 public:
  std::string name() const override { return "knomial"; }
  std::string description() const override {
    return "knomial: the k-nomial tree reduction of one block with --ports ports (one: the "
           "binomial tree; Traff's lecture notes) and the broadcast that runs it backwards, one "
           "row per rank: parent, send round and level, the broadcast's receive round, children "
           "with their rounds";
  }
  std::string layout_help() const override {
    return "Rows (knomial): rank, virtual rank (from the root), parent, send_round and "
           "send_level (level = round / ports), bcast_round (rounds - 1 - send_round), children "
           "as rank@round.";
  }
  std::vector<TableParam> params() const override {
    return {{"ports", "N", "k-nomial: ports per level, 1..64 (default 1: binomial)"}};
  }
  void check_args(std::int64_t p, const TableOptions& o) const override {
    check_knomial_table_args(p, ports(o), o.root);
  }
  Printed print(std::int64_t p, const TableOptions& o, Format format,
                std::ostream& out) const override {
    return render_checked(make_knomial_table(p, ports(o), o.root), format, out);
  }

 private:
  static std::int64_t ports(const TableOptions& o) { return int_param(o, "ports", 1); }
};

class KaryTables : public TableFamily {
 public:
  std::string name() const override { return "kary"; }
  std::string description() const override {
    return "kary: the pipelined broadcast of M blocks over a complete k-ary tree (Traff's "
           "lecture notes, fixed-degree trees), one row per rank: parent, children, first "
           "sending round and the rounds its blocks arrive in";
  }
  std::string layout_help() const override {
    return "Rows (kary): rank, virtual rank (from the root), parent, children (real ranks, in "
           "sending order), first_send (the round of its first send), blocks as block@round.";
  }
  std::set<std::string> options() const override { return {"blocks"}; }
  std::vector<TableParam> params() const override {
    return {{"degree", "K", "children per rank, 2..64 (default 2)"}};
  }
  void check_args(std::int64_t p, const TableOptions& o) const override {
    check_kary_table_args(p, blocks(o), degree(o), o.root);
  }
  Printed print(std::int64_t p, const TableOptions& o, Format format,
                std::ostream& out) const override {
    return render_checked(make_kary_table(p, blocks(o), degree(o), o.root), format, out);
  }

 private:
  static std::int64_t degree(const TableOptions& o) {
    const std::int64_t k = int_param(o, "degree", 2);
    if (k < 2 || k > 64) {
      throw std::invalid_argument("--degree " + std::to_string(k) + " is outside [2, 64]");
    }
    return k;
  }
  static std::int64_t blocks(const TableOptions& o) { return o.blocks ? *o.blocks : 3; }
};

class BruckTables : public TableFamily {
 public:
  std::string name() const override { return "bruck"; }
  std::string description() const override {
    return "bruck: the Bruck all-to-all (Bruck et al. 1997, Fan et al. 2022), one row per "
           "step: the relative indices moved and the partners";
  }
  std::string layout_help() const override {
    return "Rows (bruck): step, digit position, digit value, distance, send_to and recv_from "
           "of rank p, blocks moved, first and last hops among them, the relative indices.";
  }
  std::vector<TableParam> params() const override {
    return {{"radix", "R", "the radix of the Bruck schedule (default 2)"}};
  }
  void check_args(std::int64_t p, const TableOptions& o) const override { radix(p, o); }
  Printed print(std::int64_t p, const TableOptions& o, Format format,
                std::ostream& out) const override {
    return render_checked(make_bruck_table(p, radix(p, o)), format, out);
  }

 private:
  static std::int64_t radix(std::int64_t p, const TableOptions& o) {
    const auto r = o.params.find("radix");
    return check_bruck_table_args(p, r == o.params.end() ? "" : r->second);
  }
};

}  // namespace

std::unique_ptr<TableFamily> nway_tables() { return std::make_unique<NwayTables>(); }
std::unique_ptr<TableFamily> nway_allgather_tables() {
  return std::make_unique<NwayAllgatherTables>();
}
std::unique_ptr<TableFamily> bruck_tables() { return std::make_unique<BruckTables>(); }
std::unique_ptr<TableFamily> knomial_tables() { return std::make_unique<KnomialTables>(); }
std::unique_ptr<TableFamily> kary_tables() { return std::make_unique<KaryTables>(); }
std::unique_ptr<TableFamily> circulant_tables() { return std::make_unique<CirculantTables>(); }
std::unique_ptr<TableFamily> two_tree_tables() { return std::make_unique<TwoTreeTables>(); }
std::unique_ptr<TableFamily> hypercube_tables() { return std::make_unique<HypercubeTables>(); }

std::vector<std::unique_ptr<TableFamily>> table_families() {
  std::vector<std::unique_ptr<TableFamily>> out;
  out.push_back(circulant_tables());
  out.push_back(two_tree_tables());
  out.push_back(hypercube_tables());
  out.push_back(bruck_tables());
  out.push_back(merge_tables());
  out.push_back(nway_tables());
  out.push_back(nway_allgather_tables());
  out.push_back(knomial_tables());
  out.push_back(kary_tables());
  return out;
}

}  // namespace rosched::tables
