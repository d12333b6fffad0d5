#include "verify/families.h"

namespace rosched::verify {

std::vector<std::unique_ptr<Family>> all_families() {
  std::vector<std::unique_ptr<Family>> out;
  out.push_back(circulant_family());
  out.push_back(two_tree_family());
  out.push_back(hypercube_family());
  out.push_back(bruck_family());
  out.push_back(merge_family());
  out.push_back(nway_family());
  out.push_back(knomial_family());
  out.push_back(kary_family());
  return out;
}

std::unique_ptr<Family> make_family(const std::string& name) {
  for (auto& f : all_families()) {
    if (f->name() == name) return std::move(f);
  }
  return nullptr;
}

}  // namespace rosched::verify
