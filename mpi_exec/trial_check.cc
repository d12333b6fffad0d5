#include "mpi_exec/trial_check.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "mpi_exec/settings.h"

namespace rosched::mpi {
namespace {

// This rank's result parts, packed one after the other.
std::vector<char> packed(const CommInfo& ci, const std::vector<ResultPart>& parts) {
  std::vector<char> bytes;
  for (const ResultPart& part : parts) {
    int size = 0;
    check(PMPI_Pack_size(part.count, part.datatype, ci.c, &size), "MPI_Pack_size");
    const std::size_t at = bytes.size();
    bytes.resize(at + static_cast<std::size_t>(size));
    int position = 0;
    check(PMPI_Pack(part.data, part.count, part.datatype, bytes.data() + at, size, &position,
                    ci.c),
          "MPI_Pack");
    bytes.resize(at + static_cast<std::size_t>(position));
  }
  return bytes;
}

// The parts' elements (not the gaps of a derived datatype) set from `bytes`, packed as above.
void unpack(const CommInfo& ci, const std::vector<ResultPart>& parts,
            const std::vector<char>& bytes) {
  int position = 0;
  for (const ResultPart& part : parts) {
    check(PMPI_Unpack(bytes.data(), static_cast<int>(bytes.size()), &position, part.data,
                      part.count, part.datatype, ci.c),
          "MPI_Unpack");
  }
}

}  // namespace

int time_checked_choices(const CommInfo& ci, const char* name, Decided which, int count, int size,
                         std::vector<Candidate> candidates, const std::vector<ResultPart>& result,
                         const std::function<void()>& reference_run) {
  if (!debug_checks() || (!reference_run && (candidates.empty() || !candidates[0].run))) {
    return time_choices(ci, name, which, count, size, candidates);
  }
  if (reference_run) {
    reference_run();
  } else {
    candidates[0].run();
  }
  const std::vector<char> reference = packed(ci, result);
  std::vector<char> unlike(reference.size());
  std::transform(reference.begin(), reference.end(), unlike.begin(),
                 [](char b) { return static_cast<char>(~b); });
  for (Candidate& c : candidates) {
    if (!c.run) continue;
    c.run = [&, what = c.name, run = std::move(c.run)] {
      unpack(ci, result, unlike);
      run();
      const int mine = packed(ci, result) != reference ? ci.rank : ci.p;
      int first = ci.p;
      check(PMPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, ci.c), "MPI_Allreduce");
      if (first < ci.p) {
        throw Error(MPI_ERR_INTERN, std::string(name) + "'s trial: candidate \"" + what +
                                        "\" delivered wrong bytes (rank " + std::to_string(first) +
                                        " first; ROSCHED_DEBUG check)");
      }
    };
  }
  return time_choices(ci, name, which, count, size, candidates);
}

bool exact_reduction(MPI_Datatype datatype, MPI_Op op) {
  static const std::array<MPI_Op, 10> any_type = {MPI_MAX,  MPI_MIN,  MPI_LAND,   MPI_BAND,
                                                  MPI_LOR,  MPI_BOR,  MPI_LXOR,   MPI_BXOR,
                                                  MPI_MAXLOC, MPI_MINLOC};
  if (std::find(any_type.begin(), any_type.end(), op) != any_type.end()) return true;
  if (op != MPI_SUM && op != MPI_PROD) return false;
  static const std::array<MPI_Datatype, 18> integers = {
      MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_SHORT,     MPI_UNSIGNED_SHORT,
      MPI_INT,         MPI_UNSIGNED,      MPI_LONG,      MPI_UNSIGNED_LONG,
      MPI_LONG_LONG,   MPI_UNSIGNED_LONG_LONG, MPI_INT8_T, MPI_INT16_T,
      MPI_INT32_T,     MPI_INT64_T,       MPI_UINT8_T,   MPI_UINT16_T,
      MPI_UINT32_T,    MPI_UINT64_T};
  return std::find(integers.begin(), integers.end(), datatype) != integers.end();
}

}  // namespace rosched::mpi
