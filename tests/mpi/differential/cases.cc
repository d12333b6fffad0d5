// The helpers shared by the case kinds of the differential test (cases.h): counts, layouts,
// type plans, descriptions and comparisons.
#include "tests/mpi/differential/cases.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <numeric>

namespace rosched::difftest {

const Kind kKinds[kKindCount] = {
    {"bcast", run_bcast},
    {"allgather", run_allgather},
    {"allgatherv", run_allgatherv},
    {"allreduce", run_allreduce},
    {"reduce", run_reduce},
    {"reduce_scatter_block", run_reduce_scatter_block},
    {"reduce_scatter", run_reduce_scatter},
    {"alltoall", run_alltoall},
    {"alltoallv", run_alltoallv},
    {"allmerge", run_allmerge},
};

int error_class(int rc) {
  if (rc == MPI_SUCCESS) return MPI_SUCCESS;
  int cls = MPI_SUCCESS;
  MPI_Error_class(rc, &cls);
  return cls;
}

void appendf(std::string& s, const char* format, ...) {
  va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  const int length = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::vector<char> text(length + 1);
  std::vsnprintf(text.data(), text.size(), format, again);
  va_end(again);
  s.append(text.data(), length);
}

std::string join(const std::vector<int>& values) {
  std::string s;
  for (size_t j = 0; j < values.size(); ++j) appendf(s, j == 0 ? "%d" : ",%d", values[j]);
  return s;
}

void before_call(const Case& c) {
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  if (!c.options->verbose || world_rank != 0) return;
  std::printf("run case=%ld comm=%s p=%d: %s\n", c.index, c.comm_name, c.p, c.description.c_str());
  std::fflush(stdout);
}

int draw_count(Case& c, int huge) {
  static const std::vector<int> kPrimes = {2,  3,   5,   7,   11,   13,   17,  31,
                                           61, 127, 257, 509, 1021, 4093, 8191};
  Rng& rng = *c.shared;
  const int x = rng.uniform(0, 99);
  if (c.options->big_counts && x < 40) return rng.uniform(huge / 2, huge * 2);
  if (x < 8) return 0;
  if (x < 38) return rng.uniform(1, 8);
  if (x < 58) return rng.pick(kPrimes);
  if (x < 88) return rng.uniform(9, 3000);
  if (x < 97) return rng.uniform(3000, std::max(3000, huge / 4));
  return rng.uniform(huge * 9 / 10, huge * 11 / 10);
}

std::vector<int> draw_counts(Case& c, int huge) {
  Rng& rng = *c.shared;
  std::vector<int> counts(c.p);
  const int shape = rng.uniform(0, 4);
  for (int& n : counts) {
    switch (shape) {
      case 0:
        n = rng.chance(40) ? 0 : rng.uniform(1, 10);
        break;
      case 1:
        n = draw_count(c, huge);
        break;
      case 2:
        n = rng.chance(50) ? 0 : rng.uniform(1, 300);
        break;
      case 3:
        n = 0;
        break;
      default:
        n = rng.uniform(0, 50);
        break;
    }
  }
  if (rng.chance(25)) {
    const int large = rng.uniform(huge / 2, huge);
    counts[rng.uniform(0, c.p - 1)] = large;
  }
  return counts;
}

std::vector<int> displacements_in_order(const std::vector<int>& counts, long* total) {
  std::vector<int> displacements(counts.size());
  long at = 0;
  for (size_t j = 0; j < counts.size(); ++j) {
    displacements[j] = static_cast<int>(at);
    at += counts[j];
  }
  *total = at;
  return displacements;
}

std::vector<int> draw_displacements(Rng& rng, const std::vector<int>& counts, bool in_order,
                                    long* total) {
  if (in_order) return displacements_in_order(counts, total);
  const int p = static_cast<int>(counts.size());
  std::vector<int> order(p), displacements(p);
  std::iota(order.begin(), order.end(), 0);
  for (int i = p - 1; i > 0; --i) std::swap(order[i], order[rng.next() % (i + 1)]);
  long at = 0;
  for (int j : order) {
    at += rng.uniform(0, 3);
    displacements[j] = static_cast<int>(at);
    at += counts[j];
  }
  *total = at;
  return displacements;
}

TypePlan draw_type_plan(Rng& rng) {
  TypePlan plan;
  plan.mixed = rng.chance(35);
  if (plan.mixed) {
    const int f = rng.uniform(0, 2);
    plan.family = f == 0 ? kIntFamily : f == 1 ? kDoubleFamily : kUint32Family;
    plan.fields_per_unit = plan.family.fields;
    plan.same_type = -1;
  } else {
    plan.same_type = rng.pick(kMovementTypes);
    plan.family = {{plan.same_type}, 1};
    plan.fields_per_unit = 1;
  }
  return plan;
}

void describe_types(Case& c, const TypePlan& plan, int units, const TypeInfo& st, int scount,
                    const TypeInfo& rt, int rcount) {
  if (plan.mixed) {
    appendf(c.description, " items_per_block=%d [rank%d: send %s x%d recv %s x%d]",
            units * plan.fields_per_unit, c.rank, st.name, scount, rt.name, rcount);
  } else {
    appendf(c.description, " count=%d type=%s", units, st.name);
  }
}

int rank_type(const TypePlan& plan, Rng& local) {
  return plan.mixed ? local.pick(plan.family.types) : plan.same_type;
}

int elements_for(const TypePlan& plan, const TypeInfo& t, long units) {
  return static_cast<int>(plan.mixed ? units * plan.fields_per_unit / t.field_count() : units);
}

void compare_into(Outcome& o, const Case& c, const char* what, const Buffer& got,
                  const Buffer& want) {
  if (o.rosched_class != MPI_SUCCESS || o.reference_class != MPI_SUCCESS) return;
  const Difference d = compare(what, got, want, c.rank);
  if (d.count == 0) return;
  appendf(o.differences, "%s: %ld bytes differ, the first at byte %ld (%s); ", what, d.count,
          d.first, d.first_is_data ? "data" : "gap/guard");
}

void compare_results(Outcome& o, const Case& c, const char* what, const Buffer& got,
                     const Buffer& want, const Buffer& send, const Buffer& send_before) {
  compare_into(o, c, what, got, want);
  compare_into(o, c, "sendbuf(modified!)", send, send_before);
}

}  // namespace rosched::difftest
