// The two trees and their edge 2-colouring: Träff's lecture notes, "Two (pipelined) binary trees"
// through `EdgeColor` (Sanders, Speck, Träff 2009). See two_tree.h for the layout and the
// colouring.
#include "sched/two_tree/two_tree.h"

#include <stdexcept>
#include <string>

#include "sched/round.h"

namespace rosched {
namespace {

std::int64_t lowbit(std::int64_t x) { return x & -x; }
int floor_log2(std::int64_t x) { return 63 - __builtin_clzll(static_cast<unsigned long long>(x)); }

// Positions and ranks: the ranks other than the root in rank order at positions 1..p-1.
std::int64_t position_of(std::int64_t rank, std::int64_t root) {
  return rank < root ? rank + 1 : rank;
}
std::int64_t rank_at(std::int64_t position, std::int64_t root) {
  return position <= root ? position - 1 : position;
}

struct Layout {
  std::int64_t p, root, n, even_n;  // n = p - 1 ranks below the root, even_n of them in trees
  bool relay;                       // the rank at position n relays (n odd)
  std::int64_t relay_rank() const { return rank_at(n, root); }
  // The rank at position x of tree t, and the position of rank r (r in the trees) in tree t.
  std::int64_t rank_in(TreeId t, std::int64_t x) const {
    return rank_at(t == TreeId::upper ? x : even_n + 1 - x, root);
  }
  std::int64_t position_in(TreeId t, std::int64_t r) const {
    const std::int64_t x = position_of(r, root);
    return t == TreeId::upper ? x : even_n + 1 - x;
  }
  int colour_in(TreeId t, std::int64_t x) const {
    return position_colour(even_n, x) ^ static_cast<int>(t);
  }
  // The arrival round of the rank that feeds the tree root of t: the root, or the relay.
  std::int64_t feeder_arrival(TreeId t) const { return relay ? static_cast<int>(t) : -1; }
};

Layout layout(std::int64_t p, std::int64_t root) {
  Layout l;
  l.p = p;
  l.root = root;
  l.n = p - 1;
  l.even_n = l.n & ~std::int64_t{1};
  l.relay = (l.n & 1) != 0;
  return l;
}

// The walk from an interior position x up to the tree root, in one bottom-up pass (no path
// kept). EdgeColor(x) = 1 ^ (XOR of the steps' bits s = (n/2 mod 2) ^ (parent > child)), as the
// lecture's recursion unrolled. Down the tree an arrival grows by 1 per edge, plus 1 where an
// edge has the colour of the edge above it (then the child must wait a round), i.e. where
// s = 0; so arrival(x) = arrival(tree root) + steps + same. Also gives EdgeColor(mark) if mark
// is on the path. O(log p).
struct Climb {
  std::int64_t steps = 0, same = 0;
  int edge_color = 1;
  int mark_edge_color = -1;  // -1: mark is not on the path
};

Climb climb(std::int64_t n, std::int64_t x, std::int64_t mark) {
  const std::int64_t root = in_order_root(n);
  const int half_parity = static_cast<int>((n / 2) & 1);
  Climb c;
  int xor_below = 0, xor_at_mark = -1;
  for (std::int64_t v = x; v != root;) {
    const std::int64_t h = lowbit(v);  // in_order_parent without its root test
    const std::int64_t u = ((v & (h << 1)) != 0 || v + h > n) ? v - h : v + h;
    const int s = half_parity ^ (u > v ? 1 : 0);
    xor_below ^= s;
    c.same += s ^ 1;
    ++c.steps;
    v = u;
    if (v == mark) xor_at_mark = xor_below;
  }
  c.edge_color = 1 ^ xor_below;
  if (xor_at_mark >= 0) c.mark_edge_color = c.edge_color ^ xor_at_mark;
  return c;
}

void add_child(TreePlace& place, const TreeLink& child) {
  place.children[place.child_count++] = child;
  if (place.child_count == 2 && place.children[0].rank > place.children[1].rank) {
    std::swap(place.children[0], place.children[1]);
  }
}

// A rank in the trees: interior at the even one of its two positions (e, in tree a), a leaf at
// the other (m = N + 1 - e, in tree b). A leaf's in-order neighbours m - 1 and m + 1 are both
// ancestors of it (its parent and the nearest ancestor on the other side), so one climb from
// m's parent also yields the colours of e's leaf children e - 1 and e + 1 (the mirrors of m + 1
// and m - 1). Two climbs in all.
void place_member(const Layout& l, std::int64_t rank, TwoTreeNode& node) {
  const std::int64_t n = l.even_n;
  const int half_parity = static_cast<int>((n / 2) & 1);
  const std::int64_t x = l.position_in(TreeId::upper, rank);
  const TreeId a = (x & 1) == 0 ? TreeId::upper : TreeId::lower;
  const TreeId b = a == TreeId::upper ? TreeId::lower : TreeId::upper;
  const std::int64_t e = (x & 1) == 0 ? x : n + 1 - x;
  const std::int64_t m = n + 1 - e;
  const std::int64_t feeder = l.relay ? l.relay_rank() : l.root;
  const auto tree_root_arrival = [&](TreeId t) {
    return next_round(l.feeder_arrival(t), 1 ^ static_cast<int>(t));  // EdgeColor(root) = 1
  };

  // Interior place: position e of tree a.
  const Climb ce = climb(n, e, 0);
  const std::int64_t arrival_e = tree_root_arrival(a) + ce.steps + ce.same;
  const std::int64_t up_e = in_order_parent(n, e);
  TreePlace& pa = node.tree[static_cast<int>(a)];
  pa.parent = TreeLink{up_e == 0 ? feeder : l.rank_in(a, up_e), ce.edge_color ^ static_cast<int>(a),
                       arrival_e};

  // Leaf place: position m of tree b, below its (interior) parent u.
  const std::int64_t u = in_order_parent(n, m);
  const std::int64_t other = u == m - 1 ? m + 1 : m - 1;  // the other in-order neighbour
  const Climb cu = climb(n, u, other);
  const std::int64_t arrival_u = tree_root_arrival(b) + cu.steps + cu.same;
  const int colour_m = ce.edge_color ^ static_cast<int>(b);  // m takes its mirror e's colour
  TreePlace& pb = node.tree[static_cast<int>(b)];
  pb.parent = TreeLink{l.rank_in(b, u), colour_m, next_round(arrival_u, colour_m)};

  // Children of e in tree a.
  const InOrderChildren kids = in_order_children(n, e);
  for (const std::int64_t child : {kids.left, kids.right}) {
    if (child == 0) continue;
    int ec;
    if ((child & 1) == 0) {
      ec = ce.edge_color ^ half_parity ^ (e > child ? 1 : 0);
    } else {  // a leaf: the colour of its mirror n + 1 - child, which is m + 1 or m - 1
      const std::int64_t mirror = n + 1 - child;
      ec = mirror == u ? cu.edge_color : cu.mark_edge_color;
      if (ec < 0) ec = position_colour(n, child);  // not on the path (never seen; kept safe)
    }
    const int colour = ec ^ static_cast<int>(a);
    add_child(pa, TreeLink{l.rank_in(a, child), colour, next_round(arrival_e, colour)});
  }
}

}  // namespace

std::int64_t in_order_root(std::int64_t n) {
  return n < 1 ? 0 : std::int64_t{1} << floor_log2(n);
}

std::int64_t in_order_parent(std::int64_t n, std::int64_t x) {
  if (x == in_order_root(n)) return 0;
  const std::int64_t h = lowbit(x);
  return ((x & (h << 1)) != 0 || x + h > n) ? x - h : x + h;
}

InOrderChildren in_order_children(std::int64_t n, std::int64_t x) {
  InOrderChildren c;
  const std::int64_t h = lowbit(x) >> 1;
  if (h == 0) return c;  // odd positions are leaves
  c.left = x - h;
  for (std::int64_t step = h; step > 0; step >>= 1) {
    if (x + step <= n) {
      c.right = x + step;
      break;
    }
  }
  return c;
}

int edge_color(std::int64_t n, std::int64_t v) {
  const std::int64_t root = in_order_root(n);
  const int half_parity = static_cast<int>((n / 2) & 1);
  int colour = 1;  // EdgeColor(n, root, root, H) = 1; each step up XORs (n/2 mod 2) ^ (u > v)
  while (v != root) {
    const std::int64_t u = in_order_parent(n, v);
    colour ^= half_parity ^ (u > v ? 1 : 0);
    v = u;
  }
  return colour;
}

int position_colour(std::int64_t n, std::int64_t x) {
  return edge_color(n, (x & 1) == 0 ? x : n + 1 - x);
}

int tree_block_parity(std::int64_t p, TreeId t) {
  const bool relay = ((p - 1) & 1) != 0;
  return (relay ? 0 : 1) ^ static_cast<int>(t);
}

std::int64_t max_arrival_bound(std::int64_t p) {
  const Layout l = layout(p, 0);
  const std::int64_t levels = l.even_n == 0 ? 0 : floor_log2(l.even_n) + 1;
  return (l.relay ? 1 : -1) + 2 * levels;
}

TwoTreeNode two_tree_node(std::int64_t p, std::int64_t root, std::int64_t rank) {
  check_process_count(p, "two_tree_node: ");
  if (root < 0 || root >= p || rank < 0 || rank >= p) {
    throw std::invalid_argument("two_tree_node: root " + std::to_string(root) + " or rank " +
                                std::to_string(rank) + " is outside [0, " +
                                std::to_string(p) + ")");
  }
  const Layout l = layout(p, root);
  TwoTreeNode node;
  node.p = p;
  node.root = root;
  node.rank = rank;
  for (const TreeId t : {TreeId::upper, TreeId::lower}) {
    TreePlace& place = node.tree[static_cast<int>(t)];
    // The tree root's link, seen from the rank that feeds it.
    const auto tree_root = [&](std::int64_t feeder_arrival) {
      const std::int64_t x = in_order_root(l.even_n);
      const int colour = l.colour_in(t, x);
      return TreeLink{l.rank_in(t, x), colour, next_round(feeder_arrival, colour)};
    };
    // The relay's edge from the root has colour t: upper 0, lower 1.
    const TreeLink relay{l.relay ? l.relay_rank() : kNoRank, static_cast<int>(t),
                         static_cast<int>(t)};
    if (rank == root) {
      node.role = TwoTreeRole::root;
      place.parent = TreeLink{kNoRank, 0, -1};
      if (l.relay) add_child(place, relay);
      else if (l.even_n > 0) add_child(place, tree_root(-1));
    } else if (l.relay && rank == l.relay_rank()) {
      node.role = TwoTreeRole::relay;
      place.parent = TreeLink{root, relay.colour, relay.arrival};
      if (l.even_n > 0) add_child(place, tree_root(relay.arrival));
    } else {
      node.role = TwoTreeRole::member;
    }
  }
  if (node.role == TwoTreeRole::member) place_member(l, rank, node);
  return node;
}

}  // namespace rosched
