#include "sched/nway/nway_plan.h"

#include <cstddef>
#include <stdexcept>

namespace rosched {

const char* nway_rule_name(NwayRule rule) {
  switch (rule) {
    case NwayRule::kPaper: return "paper";
    case NwayRule::kDigits: return "digits";
    case NwayRule::kCirculant: return "circulant";
  }
  return "?";
}

namespace {
constexpr NwayRule kRules[] = {NwayRule::kPaper, NwayRule::kDigits, NwayRule::kCirculant};
}  // namespace

std::string nway_rule_listing() {
  std::string listing;
  constexpr std::size_t kCount = sizeof(kRules) / sizeof(kRules[0]);
  for (std::size_t i = 0; i < kCount; ++i) {
    listing += i == 0 ? "" : i + 1 == kCount ? " or " : ", ";
    listing += nway_rule_name(kRules[i]);
  }
  return listing;
}

NwayRule parse_nway_rule(const std::string& name) {
  for (NwayRule r : kRules) {
    if (name == nway_rule_name(r)) return r;
  }
  throw std::invalid_argument("n-way rule '" + name + "' is not " + nway_rule_listing());
}

void check_nway_ports(std::int64_t n, const char* who) {
  if (n < 1 || n > kNwayMaxPorts) {
    throw std::invalid_argument(std::string(who) + "n = " + std::to_string(n) +
                                " is outside [1, 64]");
  }
}

NwayPlan::NwayPlan(std::int64_t p, std::int64_t n, NwayRule rule) : p_(p), n_(n), rule_(rule) {
  check_process_count(p, "n-way: ");
  check_nway_ports(n, "n-way: ");
  const std::int64_t b = n + 1;
  pow_[0] = 1;
  while (pow_[k_] < p) pow_[k_ + 1] = pow_[k_] * b, ++k_;  // b^k < b * 2^31: no overflow
  skips_[k_] = p;
  for (int i = k_ - 1; i >= 0; --i) skips_[i] = (skips_[i + 1] + b - 1) / b;
  if (rule == NwayRule::kPaper && p > 1) {
    const std::optional<PaperTuple> t = paper_tuple(p, n);
    if (!t) {
      throw std::invalid_argument(
          "n-way rule paper: no last-round correction (End et al. 2015, Eq. 8) exists for P = " +
          std::to_string(p) + ", n = " + std::to_string(n) + "; use rule digits or circulant");
    }
    tuple_ = *t;
  }
}

std::int64_t nway_min_messages(std::int64_t p, std::int64_t n) {
  const NwayPlan plan(p, n, NwayRule::kDigits);
  if (p == 1) return 0;
  return n * (plan.rounds() - 1) + (p + plan.w() - 1) / plan.w() - 1;
}

}  // namespace rosched
