// What every rank of an n-way dissemination allreduce over P ranks shares: the base b = n + 1,
// the number of rounds k = ceil(log_b P), W = b^(k-1), and what the chosen last-round rule needs
// (the paper's tuple, the base-b digits of P, or the n-port circulant skips). Built once per
// (P, n, rule); each rank's schedule (sched/nway/nway_schedule.h) is O(1) from it.
//
// Rules (the rounds before the last are End et al. 2015, Sec. III, for `paper` and `digits`):
//   paper     the last round of End et al. 2015, Sec. IV (Eq. 8, sched/nway/paper_tuple.h); only
//             where a tuple exists, otherwise the plan throws naming P and n;
//   digits    the paper's partners p + j b^(l-1); a second partial result of the r_l = P mod b^l
//             nearest contributions rides along in one message per round; every P;
//   circulant Träff's census (Träff 2022, Alg. 8) generalised to n ports: skips
//             s_i = ceil(P / b^(k-i)); one vector per message; every P.
#ifndef ROSCHED_SCHED_NWAY_NWAY_PLAN_H_
#define ROSCHED_SCHED_NWAY_NWAY_PLAN_H_

#include <array>
#include <cstdint>
#include <string>

#include "sched/nway/paper_tuple.h"
#include "sched/round.h"

namespace rosched {

enum class NwayRule { kPaper, kDigits, kCirculant };

inline constexpr std::int64_t kNwayMaxPorts = 64;

// "paper", "digits", "circulant".
const char* nway_rule_name(NwayRule rule);
// Every rule's name, for messages and help: "paper, digits or circulant".
std::string nway_rule_listing();
// The rule named `name`; throws std::invalid_argument naming it and the names taken otherwise.
NwayRule parse_nway_rule(const std::string& name);

// Throws std::invalid_argument naming the value unless 1 <= n <= 64.
void check_nway_ports(std::int64_t n, const char* who);

class NwayPlan {
 public:
  // Throws std::invalid_argument unless 1 <= p <= 2^31 - 1 and 1 <= n <= 64, and, for the paper
  // rule, unless Eq. (8) has a solution for (p, n) (the message names p and n). O(log p) for
  // digits and circulant, O(n^2 log^2 p) for paper.
  NwayPlan(std::int64_t p, std::int64_t n, NwayRule rule);

  std::int64_t p() const { return p_; }
  std::int64_t n() const { return n_; }
  std::int64_t base() const { return n_ + 1; }
  NwayRule rule() const { return rule_; }
  // k = ceil(log_{n+1} p): the same for all rules (0 for p = 1).
  int rounds() const { return k_; }
  // b^i for 0 <= i <= rounds().
  std::int64_t power(int i) const { return pow_[i]; }
  // W = b^(k-1) (1 for p = 1).
  std::int64_t w() const { return k_ == 0 ? 1 : pow_[k_ - 1]; }
  // Whether p = b^k: every rule is then the plain algorithm.
  bool full() const { return pow_[k_] == p_; }
  // The paper rule's tuple (meaningful for that rule only).
  const PaperTuple& tuple() const { return tuple_; }
  // Circulant skips s_i, 0 <= i <= rounds(): s_k = p, s_i = ceil(s_{i+1} / b), s_0 = 1.
  std::int64_t skip(int i) const { return skips_[i]; }

 private:
  std::int64_t p_, n_;
  NwayRule rule_;
  int k_ = 0;
  std::array<std::int64_t, kMaxQ + 1> pow_{}, skips_{};
  PaperTuple tuple_;
};

// n(k-1) + ceil(P/W) - 1 (0 for p = 1): the messages per rank of the digits and circulant rules.
std::int64_t nway_min_messages(std::int64_t p, std::int64_t n);

}  // namespace rosched

#endif  // ROSCHED_SCHED_NWAY_NWAY_PLAN_H_
