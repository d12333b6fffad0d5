/* The C ABI of a foreign schedule construction, version 1.
 *
 * A construction written outside this project (an MPI library's, say) can be checked by the
 * verifier (`bazel run -c opt //verify -- --plugin PATH.so ...`) if it is built as a shared
 * object that exports the functions below with C linkage.
 *
 * Conventions (Träff 2022, Sec. 2): p processes, q = ceil(log2 p) rounds per phase,
 * broadcast root 0, skips[] as in Algorithm 1. In round k of every phase rank r receives block
 * recv[k] from (r - skips[k]) mod p and sends block send[k] to (r + skips[k]) mod p. Blocks are
 * relative to the phase: 0..q-1 this phase, -q..-1 the previous one (b - q is block b of the
 * previous phase). The root's receive schedule is never used; entries of ranks that send to
 * the root are never used either. Functions are called concurrently from several threads.
 */
#ifndef ROSCHED_VERIFY_CONSTRUCTION_ABI_H_
#define ROSCHED_VERIFY_CONSTRUCTION_ABI_H_

#include <stdint.h>

#define ROSCHED_CONSTRUCTION_ABI_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

/* Returns ROSCHED_CONSTRUCTION_ABI_VERSION. */
int rosched_abi_version(void);

/* A short name for reports, e.g. "mpich-circ". Static storage. */
const char* rosched_construction_name(void);

/* Writes recv[0..q-1] (resp. send[0..q-1]) of rank r, 0 <= r < p, 1 <= p < 2^31, to out,
 * which has room for 32 entries. Returns 0 on success, non-zero on error. */
int rosched_recv_schedule(int64_t p, int64_t r, int32_t* out);
int rosched_send_schedule(int64_t p, int64_t r, int32_t* out);

#ifdef __cplusplus
}
#endif

#endif /* ROSCHED_VERIFY_CONSTRUCTION_ABI_H_ */
