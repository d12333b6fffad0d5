// ROSCHED_VECTORISED: for the branch-free loops over all ranks that must be vectorised (the
// all-ranks construction, the verifier's fast passes). The function is compiled for AVX-512
// (x86-64-v4), AVX2 and the baseline, and the loader picks the clone the CPU supports; GCC's
// dynamic vectoriser cost model is switched on for it, since at -O2 GCC 12 vectorises only loops
// its "very cheap" model accepts (a trip count known to be a multiple of the vector length).
#ifndef ROSCHED_SCHED_VECTORISE_H_
#define ROSCHED_SCHED_VECTORISE_H_

#define ROSCHED_VECTORISED                                            \
  __attribute__((target_clones("arch=x86-64-v4", "avx2", "default"), \
                 optimize("vect-cost-model=dynamic")))

#endif  // ROSCHED_SCHED_VECTORISE_H_
