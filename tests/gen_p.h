// rapidcheck generators for process counts, biased toward the cases where circulant schedules
// are most likely to break: 1, 2, 3, powers of two and their neighbours, primes, and
// (where a property is local to one rank) large values up to 2^31 - 1.
// Every generated p is recorded, so each test binary can report how many distinct p it covered.
#ifndef ROSCHED_TESTS_GEN_P_H_
#define ROSCHED_TESTS_GEN_P_H_

#include <rapidcheck.h>

#include <cstdint>

namespace rosched_test {

// A p in [1, max_p], biased as described above.
rc::Gen<std::int64_t> gen_p(std::int64_t max_p);

// Smallest prime >= x (trial division; x < 2^31).
std::int64_t next_prime(std::int64_t x);

// Records p as covered by a property (gen_p does this itself).
void note_p(std::int64_t p);
// Number of distinct p recorded so far in this process.
std::size_t distinct_p_covered();

}  // namespace rosched_test

#endif  // ROSCHED_TESTS_GEN_P_H_
