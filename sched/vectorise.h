// ROSCHED_VECTORISED: for the branch-free loops over all ranks that must be vectorised (the
// all-ranks construction, the verifier's fast passes).
//  * GCC on x86-64: the function is compiled for AVX-512 (x86-64-v4), AVX2 and the baseline, and
//    the loader picks the clone the CPU supports; GCC's dynamic vectoriser cost model is switched
//    on for it, since at -O2 GCC 12 vectorises only loops its "very cheap" model accepts (a trip
//    count known to be a multiple of the vector length).
//  * Clang on x86-64: the same three clones (Clang 14 has target_clones); Clang's loop vectoriser
//    runs at -O2 with its own cost model, and it has no optimize attribute.
//  * Any other compiler or architecture: plain code, vectorised as the compiler's options say.
#ifndef ROSCHED_SCHED_VECTORISE_H_
#define ROSCHED_SCHED_VECTORISE_H_

#if defined(__x86_64__) && defined(__clang__)
#define ROSCHED_VECTORISED \
  __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#elif defined(__x86_64__) && defined(__GNUC__)
#define ROSCHED_VECTORISED                                            \
  __attribute__((target_clones("arch=x86-64-v4", "avx2", "default"), \
                 optimize("vect-cost-model=dynamic")))
#else
#define ROSCHED_VECTORISED
#endif

namespace rosched {

// True if the CPU runs the AVX2 (or a wider) clone of a ROSCHED_VECTORISED function; false where
// there are no clones (not x86-64).
inline bool runs_avx2_clone() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

}  // namespace rosched

#endif  // ROSCHED_SCHED_VECTORISE_H_
