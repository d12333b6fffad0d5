#include "sched/bruck/bruck_plan.h"

#include <stdexcept>

namespace rosched {
namespace {

using B = BruckBuffer;
using V = BruckVariant;

struct Named {
  V v;
  const char* name;
};
constexpr Named kNames[] = {{V::kBasic, "basic"},         {V::kModified, "modified"},
                            {V::kZeroRotation, "zerorot"}, {V::kZeroCopy, "zerocopy"},
                            {V::kPadded, "padded"},       {V::kTwoPhase, "twophase"},
                            {V::kZeroCopyPrinted, "zerocopy-printed"}};

}  // namespace

const std::vector<BruckVariant>& bruck_variants() {
  static const std::vector<BruckVariant> all = {V::kBasic,    V::kModified, V::kZeroRotation,
                                                V::kZeroCopy, V::kPadded,   V::kTwoPhase};
  return all;
}

std::string bruck_variant_name(BruckVariant v) {
  for (const Named& n : kNames)
    if (n.v == v) return n.name;
  return "unknown";
}

BruckVariant bruck_variant_from_name(const std::string& name) {
  std::string valid;
  for (const Named& n : kNames) {
    if (name == n.name) return n.v;
    valid += valid.empty() ? n.name : std::string(", ") + n.name;
  }
  throw std::invalid_argument("unknown Bruck variant '" + name + "' (valid: " + valid + ")");
}

bool bruck_nonuniform(BruckVariant v) { return v == V::kPadded || v == V::kTwoPhase; }

const char* bruck_buffer_name(BruckBuffer b) {
  switch (b) {
    case B::kSend: return "send";
    case B::kRecv: return "recv";
    case B::kWork: return "work";
    case B::kTemp: return "temp";
  }
  return "?";
}

void bruck_unknown_variant(const char* who) {
  throw std::logic_error(std::string(who) + ": unknown variant");
}

bool BruckPlan::uses(BruckBuffer b) const {
  switch (b) {
    case B::kSend:
    case B::kRecv: return true;
    case B::kWork: return v_ == V::kBasic || v_ == V::kPadded || v_ == V::kTwoPhase;
    case B::kTemp: return v_ == V::kZeroCopy || v_ == V::kZeroCopyPrinted;
  }
  return false;
}

std::int64_t BruckPlan::pre_copies() const {
  switch (v_) {
    case V::kBasic:
    case V::kModified:
    case V::kZeroCopyPrinted: return s_.p();  // a full rotation
    default: return 1;                        // the self block
  }
}

BruckCopy BruckPlan::pre_copy(std::int64_t k) const {
  switch (v_) {
    case V::kBasic: return {{B::kSend, k}, {B::kWork, k}};
    case V::kModified:
    case V::kZeroCopyPrinted: return {{B::kSend, -k}, {B::kRecv, k}};
    case V::kPadded: return {{B::kSend, 0}, {B::kWork, 0}};
    default: return {{B::kSend, 0}, {B::kRecv, 0}};
  }
}

std::int64_t BruckPlan::post_copies() const {
  return v_ == V::kBasic || v_ == V::kPadded ? s_.p() : 0;
}

BruckCopy BruckPlan::post_copy(std::int64_t k) const {
  if (v_ == V::kBasic) return {{B::kWork, k}, {B::kRecv, -k}};
  return {{B::kWork, k}, {B::kRecv, k}};  // padded: unpad in slot order
}

}  // namespace rosched
