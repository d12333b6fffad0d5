#include "verify/two_tree_check.h"

#include <algorithm>
#include <string>

#include "sched/circulant/skips.h"
#include "sched/two_tree/two_tree.h"
#include "sched/two_tree/two_tree_schedule.h"
#include "sim/two_tree_run.h"

namespace rosched::verify {

std::int64_t two_tree_formula_rounds(std::int64_t p, std::int64_t n) {
  if (p == 1) return 0;
  return 2 * (ceil_log2(p + 1) - 1) + 2 * ((n + 1) / 2 - 1);
}

std::int64_t TwoTreeStructure::rounds(std::int64_t p, std::int64_t n) const {
  std::int64_t last = 0;
  for (const TreeId t : {TreeId::upper, TreeId::lower}) {
    const std::int64_t blocks = (n - tree_block_parity(p, t) + 1) / 2;
    const std::int64_t a = max_arrival[static_cast<int>(t)];
    if (blocks > 0 && a >= 0) last = std::max(last, a + 2 * (blocks - 1) + 1);
  }
  return last;
}

TwoTreeStructure check_two_tree_structure(std::int64_t p, std::int64_t root) {
  TwoTreeStructure out;
  const auto fail = [&](const char* kind, std::int64_t rank, std::int64_t tree,
                        std::int64_t expected, std::int64_t actual) {
    out.counterexample = Counterexample{"two-tree-structure", kind, p, rank, tree, expected,
                                        actual, "root=" + std::to_string(root) +
                                                    " (round field: tree, 0 upper 1 lower)"};
    return out;
  };
  std::vector<TwoTreeNode> nodes;
  nodes.reserve(p);
  for (std::int64_t r = 0; r < p; ++r) nodes.push_back(two_tree_node(p, root, r));

  for (std::int64_t r = 0; r < p; ++r) {
    const TwoTreeNode& v = nodes[r];
    int interior = 0;
    std::int64_t child_colours = 0;  // bit c set: an edge of colour c to a child
    for (int t = 0; t < 2; ++t) {
      const TreePlace& place = v.tree[t];
      if (place.child_count > 0) ++interior;
      const TreeLink& up = place.parent;
      if (r == root) {
        if (up.rank != kNoRank || up.arrival != -1) return fail("root-has-parent", r, t, kNoRank, up.rank);
      } else {
        if (up.rank < 0 || up.rank >= p || up.rank == r) return fail("bad-parent", r, t, -1, up.rank);
        const TreePlace& above = nodes[up.rank].tree[t];
        const auto it = std::find_if(above.children.begin(), above.children.begin() + above.child_count,
                                     [&](const TreeLink& c) { return c.rank == r; });
        if (it == above.children.begin() + above.child_count) return fail("parent-disowns", r, t, r, up.rank);
        if (it->colour != up.colour) return fail("colour-disagrees", r, t, it->colour, up.colour);
        if (it->arrival != up.arrival) return fail("arrival-disagrees", r, t, it->arrival, up.arrival);
        const std::int64_t expected = next_round(above.parent.arrival, up.colour);
        if (up.arrival != expected) return fail("arrival", r, t, expected, up.arrival);
        out.max_arrival[t] = std::max(out.max_arrival[t], up.arrival);
      }
      for (int c = 0; c < place.child_count; ++c) {
        const TreeLink& child = place.children[c];
        if (child.rank < 0 || child.rank >= p || nodes[child.rank].tree[t].parent.rank != r) {
          return fail("child-disowns", r, t, r, child.rank < 0 || child.rank >= p ? -1 : nodes[child.rank].tree[t].parent.rank);
        }
        if (child_colours & (1 << child.colour)) return fail("children-same-colour", r, t, 1 - child.colour, child.colour);
        child_colours |= 1 << child.colour;
      }
    }
    if (v.role == TwoTreeRole::member && interior > 1) return fail("interior-in-both", r, 1, 1, interior);
    if (r != root && v.tree[0].parent.colour == v.tree[1].parent.colour) {
      return fail("parents-same-colour", r, 1, 1 - v.tree[0].parent.colour, v.tree[1].parent.colour);
    }
  }

  // Reduction order: walk each tree bottom-up (decreasing arrival), growing intervals of the
  // combining order in the order children's partial results arrive (later arrival first).
  for (int t = 0; t < 2; ++t) {
    std::int64_t edges = 0;
    for (std::int64_t r = 0; r < p; ++r) edges += nodes[r].tree[t].child_count;
    if (edges != p - 1) return fail("edge-count", -1, t, p - 1, edges);
    // Counting sort by arrival, latest first (arrivals are small: at most ~2 log2 p + 3).
    const std::int64_t top = std::max<std::int64_t>(out.max_arrival[t], -1) + 2;
    std::vector<std::int64_t> start(top + 1, 0), by_arrival(p);
    for (std::int64_t r = 0; r < p; ++r) ++start[top - 1 - nodes[r].tree[t].parent.arrival];
    for (std::int64_t k = 0, sum = 0; k <= top; ++k) std::swap(start[k], sum), sum += start[k];
    for (std::int64_t r = 0; r < p; ++r) by_arrival[start[top - 1 - nodes[r].tree[t].parent.arrival]++] = r;
    std::vector<std::int64_t> lo(p), hi(p);
    for (const std::int64_t r : by_arrival) {
      const TreePlace& place = nodes[r].tree[t];
      lo[r] = hi[r] = sim::two_tree_order(p, root, r);
      std::array<TreeLink, 2> kids = place.children;
      if (place.child_count == 2 && kids[0].arrival < kids[1].arrival) std::swap(kids[0], kids[1]);
      for (int c = 0; c < place.child_count; ++c) {
        const std::int64_t k = kids[c].rank;
        const bool before = r == root ? root != 0 : k < r;  // as TwoTreeReduceSchedule combines
        if (before ? hi[k] + 1 != lo[r] : hi[r] + 1 != lo[k]) {
          return fail("reduction-order", r, t, before ? lo[r] - 1 : hi[r] + 1, before ? hi[k] : lo[k]);
        }
        if (before) lo[r] = lo[k];
        else hi[r] = hi[k];
      }
    }
    if (lo[root] != 0 || hi[root] != p - 1) return fail("reduction-incomplete", root, t, p - 1, hi[root] - lo[root]);
  }
  return out;
}

std::optional<Counterexample> run_two_tree(std::int64_t p, std::int64_t n, std::int64_t root,
                                           const TwoTreeStructure& structure) {
  const sim::RunResult run = sim::run_two_tree(p, n, root);
  if (run.counterexample) return run.counterexample;
  if (run.rounds_used != structure.rounds(p, n)) {
    return Counterexample{"two-tree-bcast-run", "round-count", p, -1,
                          TwoTreeBcastSchedule(p, n, 0, root).rounds(), structure.rounds(p, n),
                          run.rounds_used, "n=" + std::to_string(n) + " root=" + std::to_string(root)};
  }
  return std::nullopt;
}

}  // namespace rosched::verify
