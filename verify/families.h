// The registry of schedule families the verifier knows (verify/family.h).
#ifndef ROSCHED_VERIFY_FAMILIES_H_
#define ROSCHED_VERIFY_FAMILIES_H_

#include <memory>
#include <string>
#include <vector>

#include "verify/family.h"

namespace rosched::verify {

// Every family, the default (circulant) first.
std::vector<std::unique_ptr<Family>> all_families();
// The family named `name`, or nullptr.
std::unique_ptr<Family> make_family(const std::string& name);

// One constructor per family (verify/<family>_family.cc).
std::unique_ptr<Family> circulant_family();
std::unique_ptr<Family> two_tree_family();
std::unique_ptr<Family> hypercube_family();
std::unique_ptr<Family> bruck_family();
std::unique_ptr<Family> merge_family();
std::unique_ptr<Family> nway_family();
std::unique_ptr<Family> knomial_family();
std::unique_ptr<Family> kary_family();

}  // namespace rosched::verify

#endif  // ROSCHED_VERIFY_FAMILIES_H_
