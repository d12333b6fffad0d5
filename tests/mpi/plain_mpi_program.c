/* An MPI program that knows nothing of rosched (only mpi.h): the interposition library's test.
 *
 *   plain_mpi_program [--seed S] [--calls N]   N random collective calls (bcast, allgather,
 *       allgatherv, reduce, allreduce, alltoall, alltoallv, reduce_scatter(_block): random roots and sizes incl. 0 and
 *       over 1 MiB, MPI_IN_PLACE, a datatype with gaps, predefined and user-defined operations,
 *       one non-commutative), each result checked element by element against what the program
 *       computes itself; prints one line per call with a hash of every rank's receive buffer
 *       (gaps included); then a broadcast and an allreduce on sub-communicators split four ways
 *       and freed (line "split"); then "plain mpi program p=P: N calls, F failed". Exit 1 on a
 *       failure.
 *   plain_mpi_program --errors   with MPI_ERRORS_RETURN, calls each collective with an invalid
 *       argument (on every rank) and prints the error class returned.
 * Run with and without librosched_pmpi.so, the outputs must be identical. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SENTINEL (-7)

static int p, me;

/* The call sequence: the same generator on every rank. */
static uint64_t rng_state;
static uint64_t next(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static int pick(int n) { return (int)(next() % (uint64_t)n); }

/* Element i of rank r's data in call k: small, so sums over 9 ranks do not overflow. */
static int value(int k, int r, long i) {
  uint64_t z = ((uint64_t)k << 40) ^ ((uint64_t)r << 32) ^ (uint64_t)i;
  z = (z ^ (z >> 29)) * 0xbf58476d1ce4e5b9ULL;
  z ^= z >> 32;
  return (int)(z & 0xfffff);
}

static int sizes[] = {0, 1, 5, 64, 1000, 20000, 300000};
static int pick_count(void) { return sizes[pick(7)]; }

static uint64_t hash(const int* a, long n) {
  uint64_t h = 1469598103934665603ULL;
  long i;
  for (i = 0; i < n; ++i) h = (h ^ (uint32_t)a[i]) * 1099511628211ULL;
  return h;
}

static int* alloc_filled(long n) {
  int* a = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
  long i;
  for (i = 0; i < n; ++i) a[i] = SENTINEL;
  return a;
}

/* One int with the extent of two: count elements sit at even indices, odd ones are gaps. */
static MPI_Datatype gap_int;
/* A pair of unsigned ints (a, b), the map x -> a x + b; the operation composes maps. */
static MPI_Datatype affine_t;
static MPI_Op affine_op, xor_op;

static void affine_fn(void* in, void* inout, int* len, MPI_Datatype* t) {
  unsigned* u = in;
  unsigned* v = inout;
  int i;
  (void)t;
  for (i = 0; i < *len; ++i) { /* inout = in then inout: x -> v.a (u.a x + u.b) + v.b */
    unsigned a = u[2 * i] * v[2 * i], b = u[2 * i + 1] * v[2 * i] + v[2 * i + 1];
    v[2 * i] = a;
    v[2 * i + 1] = b;
  }
}
static void xor_fn(void* in, void* inout, int* len, MPI_Datatype* t) {
  int* u = in;
  int* v = inout;
  int i;
  (void)t;
  for (i = 0; i < *len; ++i) v[i] ^= u[i];
}

static long failures;
static void expect(int ok, int k, const char* what, long where) {
  if (!ok && failures++ < 10) {
    fprintf(stderr, "rank %d call %d %s: wrong element at %ld\n", me, k, what, where);
  }
}

/* Writes `count` elements of `data` (ints, or maps: 2 ints each) to buffer, with gaps. */
static void put(int* buffer, const int* data, long count, int gaps) {
  long i;
  for (i = 0; i < count; ++i) buffer[gaps ? 2 * i : i] = data[i];
}

/* Gaps in the datatype: 0 none, 1 on every rank, or (2) on the odd ranks only: MPI requires
 * the type signatures to match, not the layouts. */
static int pick_gaps(void) {
  int mode = pick(3);
  return mode == 2 ? me % 2 : mode;
}

static uint64_t do_bcast(int k) {
  int root = pick(p), count = pick_count(), gaps = pick_gaps();
  long n = gaps ? 2L * count : count, i;
  int* buf = alloc_filled(n);
  uint64_t h;
  if (me == root) for (i = 0; i < count; ++i) buf[gaps ? 2 * i : i] = value(k, root, i);
  MPI_Bcast(buf, count, gaps ? gap_int : MPI_INT, root, MPI_COMM_WORLD);
  for (i = 0; i < n; ++i) {
    int want = gaps && i % 2 ? SENTINEL : value(k, root, gaps ? i / 2 : i);
    expect(buf[i] == want, k, "bcast", i);
  }
  h = hash(buf, n);
  free(buf);
  return h;
}

static uint64_t do_allgather(int k) {
  int count = pick_count() / p, gaps = pick_gaps(), inplace = pick(2), r;
  long n = (gaps ? 2L : 1L) * count * p, i;
  int* recv = alloc_filled(n);
  int* send = alloc_filled(count);
  uint64_t h;
  for (i = 0; i < count; ++i) send[i] = value(k, me, i);
  if (inplace) {
    for (i = 0; i < count; ++i) recv[(gaps ? 2 : 1) * ((long)me * count + i)] = send[i];
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, count, gaps ? gap_int : MPI_INT,
                  MPI_COMM_WORLD);
  } else {
    MPI_Allgather(send, count, MPI_INT, recv, count, gaps ? gap_int : MPI_INT, MPI_COMM_WORLD);
  }
  for (r = 0; r < p; ++r) {
    for (i = 0; i < count; ++i) {
      long at = (gaps ? 2 : 1) * ((long)r * count + i);
      expect(recv[at] == value(k, r, i), k, "allgather", at);
      if (gaps) expect(recv[at + 1] == SENTINEL, k, "allgather gap", at + 1);
    }
  }
  h = hash(recv, n);
  free(recv);
  free(send);
  return h;
}

static uint64_t do_allgatherv(int k) {
  int* counts = malloc(sizeof(int) * (size_t)p);
  int* displs = malloc(sizeof(int) * (size_t)p);
  int inplace = pick(2), r;
  long n = 0, i;
  int* recv;
  int* send;
  uint64_t h;
  for (r = 0; r < p; ++r) counts[r] = pick(4) == 0 ? 0 : pick_count() / p;
  for (r = p - 1; r >= 0; --r) { /* blocks in reverse rank order, 3 ints apart */
    displs[r] = (int)n;
    n += counts[r] + 3;
  }
  recv = alloc_filled(n);
  send = alloc_filled(counts[me]);
  for (i = 0; i < counts[me]; ++i) send[i] = value(k, me, i);
  if (inplace) {
    put(recv + displs[me], send, counts[me], 0);
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, counts, displs, MPI_INT,
                   MPI_COMM_WORLD);
  } else {
    MPI_Allgatherv(send, counts[me], MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD);
  }
  for (r = 0; r < p; ++r) {
    for (i = 0; i < counts[r] + 3; ++i) {
      int want = i < counts[r] ? value(k, r, i) : SENTINEL;
      expect(recv[displs[r] + i] == want, k, "allgatherv", displs[r] + i);
    }
  }
  h = hash(recv, n);
  free(recv);
  free(send);
  free(counts);
  free(displs);
  return h;
}

/* Reductions: op 0 MPI_SUM, 1 MPI_MAX, 2 user xor (commutative), 3 user affine maps
 * (not commutative). `ints` per element: 1, or 2 for maps. */
static void combine(int op, int* acc, const int* x, long ints) {
  long i;
  for (i = 0; i < ints; ++i) {
    if (op == 0) acc[i] += x[i];
    else if (op == 1) acc[i] = acc[i] > x[i] ? acc[i] : x[i];
    else if (op == 2) acc[i] ^= x[i];
  }
  if (op == 3) {
    for (i = 0; i < ints / 2; ++i) { /* acc then x */
      unsigned a = (unsigned)acc[2 * i] * (unsigned)x[2 * i];
      unsigned b = (unsigned)acc[2 * i + 1] * (unsigned)x[2 * i] + (unsigned)x[2 * i + 1];
      acc[2 * i] = (int)a;
      acc[2 * i + 1] = (int)b;
    }
  }
}
static void contribution(int k, int r, int op, int* out, long ints) {
  long i;
  for (i = 0; i < ints; ++i) out[i] = value(k, r, i) | (op == 3 && i % 2 == 0 ? 1 : 0);
}

static uint64_t do_reduction(int k, int all) {
  int op = pick(4), count = pick_count(), root = pick(p), inplace = pick(2), r;
  long ints = (op == 3 ? 2L : 1L) * count;
  MPI_Op ops[4];
  MPI_Datatype type = op == 3 ? affine_t : MPI_INT;
  int* send = alloc_filled(ints);
  int* recv = alloc_filled(ints);
  int* want = alloc_filled(ints);
  int* x = alloc_filled(ints);
  uint64_t h = 0;
  ops[0] = MPI_SUM; ops[1] = MPI_MAX; ops[2] = xor_op; ops[3] = affine_op;
  contribution(k, me, op, send, ints);
  if (inplace && (all || me == root)) memcpy(recv, send, (size_t)ints * sizeof(int));
  if (all) {
    MPI_Allreduce(inplace ? MPI_IN_PLACE : send, recv, count, type, ops[op], MPI_COMM_WORLD);
  } else {
    MPI_Reduce(inplace && me == root ? MPI_IN_PLACE : send, recv, count, type, ops[op], root,
               MPI_COMM_WORLD);
  }
  contribution(k, 0, op, want, ints);
  for (r = 1; r < p; ++r) {
    contribution(k, r, op, x, ints);
    combine(op, want, x, ints);
  }
  if (all || me == root) {
    long i;
    for (i = 0; i < ints; ++i) expect(recv[i] == want[i], k, all ? "allreduce" : "reduce", i);
    h = hash(recv, ints);
  }
  free(send);
  free(recv);
  free(want);
  free(x);
  return h;
}

/* MPI_Reduce_scatter_block or MPI_Reduce_scatter (blocks of (r mod 3) times the block size,
 * the last one the block size) with a commutative operation (sum, max, user-defined xor),
 * blocks of 0 or more ints, in place or not. */
static uint64_t do_reduce_scatter(int k) {
  int op = pick(3), block = pick_count() / p, inplace = pick(2), irregular = pick(2), r;
  long total = 0, mine = 0, i;
  int* counts = malloc(sizeof(int) * (size_t)p);
  MPI_Op ops[3];
  int *send, *recv, *want, *x;
  uint64_t h;
  for (r = 0; r < p; ++r) {
    counts[r] = irregular && r + 1 < p ? (r % 3) * block : block;
    if (r == me) mine = total;
    total += counts[r];
  }
  send = alloc_filled(total);
  recv = alloc_filled(total);
  want = alloc_filled(total);
  x = alloc_filled(total);
  ops[0] = MPI_SUM; ops[1] = MPI_MAX; ops[2] = xor_op;
  contribution(k, me, op, send, total);
  if (inplace) memcpy(recv, send, (size_t)total * sizeof(int));
  if (irregular) {
    MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : send, recv, counts, MPI_INT, ops[op],
                       MPI_COMM_WORLD);
  } else {
    MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : send, recv, block, MPI_INT, ops[op],
                             MPI_COMM_WORLD);
  }
  contribution(k, 0, op, want, total);
  for (r = 1; r < p; ++r) {
    contribution(k, r, op, x, total);
    combine(op, want, x, total);
  }
  for (i = 0; i < counts[me]; ++i) {
    expect(recv[i] == want[mine + i], k, irregular ? "reduce_scatter" : "reduce_scatter_block", i);
  }
  h = hash(recv, counts[me]);
  free(counts);
  free(send);
  free(recv);
  free(want);
  free(x);
  return h;
}

static uint64_t do_alltoall(int k) {
  int count = pick_count() / (p * 4), inplace = pick(2), r;
  long n = (long)count * p, i;
  int* send = alloc_filled(n);
  int* recv = alloc_filled(n);
  uint64_t h;
  for (r = 0; r < p; ++r) {
    for (i = 0; i < count; ++i) send[(long)r * count + i] = value(k, me, (long)r * count + i);
  }
  if (inplace) {
    memcpy(recv, send, (size_t)n * sizeof(int));
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, count, MPI_INT, MPI_COMM_WORLD);
  } else {
    MPI_Alltoall(send, count, MPI_INT, recv, count, MPI_INT, MPI_COMM_WORLD);
  }
  for (r = 0; r < p; ++r) {
    for (i = 0; i < count; ++i) {
      long at = (long)r * count + i;
      expect(recv[at] == value(k, r, (long)me * count + i), k, "alltoall", at);
    }
  }
  h = hash(recv, n);
  free(send);
  free(recv);
  return h;
}

static uint64_t do_alltoallv(int k) {
  int* c = malloc(sizeof(int) * (size_t)p * (size_t)p); /* c[s * p + d]: s sends to d */
  int *sc = malloc(sizeof(int) * (size_t)p), *sd = malloc(sizeof(int) * (size_t)p);
  int *rc = malloc(sizeof(int) * (size_t)p), *rd = malloc(sizeof(int) * (size_t)p);
  int inplace = pick(2), s, d;
  long sn = 0, rn = 0, i;
  int *send, *recv;
  uint64_t h;
  for (s = 0; s < p; ++s) {
    for (d = 0; d < p; ++d) c[s * p + d] = pick(3) == 0 ? 0 : pick_count() / (p * p * 2);
  }
  if (inplace) { /* MPI_IN_PLACE needs matching counts both ways */
    for (s = 0; s < p; ++s) for (d = 0; d < s; ++d) c[s * p + d] = c[d * p + s];
  }
  for (d = p - 1; d >= 0; --d) { sc[d] = c[me * p + d]; sd[d] = (int)sn; sn += sc[d] + 1; }
  for (s = 0; s < p; ++s) { rc[s] = c[s * p + me]; rd[s] = (int)rn; rn += rc[s] + 2; }
  send = alloc_filled(sn);
  recv = alloc_filled(rn);
  for (d = 0; d < p; ++d) for (i = 0; i < sc[d]; ++i) send[sd[d] + i] = value(k, me, (long)d * 1000003 + i);
  if (inplace) {
    for (s = 0; s < p; ++s) for (i = 0; i < rc[s]; ++i) recv[rd[s] + i] = value(k, me, (long)s * 1000003 + i);
    MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, recv, rc, rd, MPI_INT,
                  MPI_COMM_WORLD);
  } else {
    MPI_Alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, MPI_COMM_WORLD);
  }
  for (s = 0; s < p; ++s) {
    for (i = 0; i < rc[s] + 2; ++i) {
      int want = i < rc[s] ? value(k, s, (long)me * 1000003 + i) : SENTINEL;
      expect(recv[rd[s] + i] == want, k, "alltoallv", rd[s] + i);
    }
  }
  h = hash(recv, rn);
  free(c); free(sc); free(sd); free(rc); free(rd); free(send); free(recv);
  return h;
}

/* On sub-communicators: four times, split MPI_COMM_WORLD by a colour that changes the groups,
 * broadcast 100,000 ints from the group's last rank and sum-reduce 300 ints over the group,
 * then free it (new communicators may reuse a freed one's handle). Returns a hash of the
 * results. */
static uint64_t split_calls(int k) {
  uint64_t h = 1469598103934665603ULL;
  int round, r;
  for (round = 0; round < 4; ++round, ++k) {
    MPI_Comm sub;
    int color = (me / (round + 1)) % 2, sp, i;
    int* big = alloc_filled(100000);
    int sum[300], want[300], mine[300];
    MPI_Comm_split(MPI_COMM_WORLD, color, me, &sub);
    MPI_Comm_size(sub, &sp);
    {
      int sr;
      MPI_Comm_rank(sub, &sr);
      if (sr == sp - 1) for (i = 0; i < 100000; ++i) big[i] = value(k, 1000 + color, i);
    }
    MPI_Bcast(big, 100000, MPI_INT, sp - 1, sub);
    for (i = 0; i < 100000; ++i) expect(big[i] == value(k, 1000 + color, i), k, "split bcast", i);
    for (i = 0; i < 300; ++i) { mine[i] = value(k, me, i); want[i] = 0; }
    for (r = 0; r < p; ++r) {
      if ((r / (round + 1)) % 2 != color) continue;
      for (i = 0; i < 300; ++i) want[i] += value(k, r, i);
    }
    MPI_Allreduce(mine, sum, 300, MPI_INT, MPI_SUM, sub);
    for (i = 0; i < 300; ++i) expect(sum[i] == want[i], k, "split allreduce", i);
    h = (h ^ hash(big, 100000)) * 1099511628211ULL;
    h = (h ^ hash(sum, 300)) * 1099511628211ULL;
    MPI_Comm_free(&sub);
    free(big);
  }
  return h;
}

static const char* names[] = {"bcast", "allgather", "allgatherv", "reduce", "allreduce",
                              "alltoall", "alltoallv", "reduce_scatter(_block)"};

/* Rank 0 prints `label` and every rank's hash h (all: room for p of them). */
static void print_hashes(const char* label, uint64_t h, uint64_t* all) {
  int r;
  MPI_Gather(&h, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (me != 0) return;
  printf("%s", label);
  for (r = 0; r < p; ++r) printf(" %016llx", (unsigned long long)all[r]);
  printf("\n");
}

static int random_calls(uint64_t seed, int calls) {
  int k;
  char label[64];
  uint64_t* all = malloc(sizeof(uint64_t) * (size_t)p);
  long total_failures = 0;
  rng_state = seed;
  for (k = 0; k < calls; ++k) {
    int which = pick(8);
    uint64_t h = 0;
    switch (which) {
      case 0: h = do_bcast(k); break;
      case 1: h = do_allgather(k); break;
      case 2: h = do_allgatherv(k); break;
      case 3: h = do_reduction(k, 0); break;
      case 4: h = do_reduction(k, 1); break;
      case 5: h = do_alltoall(k); break;
      case 6: h = do_alltoallv(k); break;
      default: h = do_reduce_scatter(k); break;
    }
    snprintf(label, sizeof label, "call %d %s", k, names[which]);
    print_hashes(label, h, all);
  }
  print_hashes("split", split_calls(calls), all);
  MPI_Reduce(&failures, &total_failures, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Bcast(&total_failures, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (me == 0) printf("plain mpi program p=%d: %d calls, %ld failed\n", p, calls, total_failures);
  free(all);
  return total_failures == 0;
}

/* The error class of rc. */
static int class_of(int rc) {
  int c = rc;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &c);
  return c;
}

/* Each collective with an invalid argument (the same on every rank), the class returned;
 * printed where `print`. */
static void errors(int print) {
  int buf[16] = {0}, out[16 * 16], counts[17], displs[16], i;
  for (i = 0; i < 16; ++i) { counts[i + 1] = 1; displs[i] = i; }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  counts[0] = -1;
#define REPORT(what, call) \
  do { int c_ = class_of(call); if (print) printf("%s: %d\n", what, c_); } while (0)
  REPORT("bcast root=p", MPI_Bcast(buf, 1, MPI_INT, p, MPI_COMM_WORLD));
  REPORT("bcast count=-1", MPI_Bcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD));
  REPORT("bcast datatype null", MPI_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD));
  REPORT("allgather recvcount=-1",
         MPI_Allgather(buf, 1, MPI_INT, out, -1, MPI_INT, MPI_COMM_WORLD));
  /* Not a negative recvcounts entry: Open MPI 4.1 does not check them (p = 1: a crash). */
  REPORT("allgatherv recvtype null",
         MPI_Allgatherv(buf, 1, MPI_INT, out, counts + 1, displs, MPI_DATATYPE_NULL,
                        MPI_COMM_WORLD));
  REPORT("reduce root=-1", MPI_Reduce(buf, out, 1, MPI_INT, MPI_SUM, -1, MPI_COMM_WORLD));
  REPORT("reduce op null", MPI_Reduce(buf, out, 1, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD));
  REPORT("allreduce count=-1", MPI_Allreduce(buf, out, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  REPORT("reduce_scatter_block recvcount=-1",
         MPI_Reduce_scatter_block(buf, out, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  REPORT("reduce_scatter op null",
         MPI_Reduce_scatter(buf, out, counts + 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD));
  REPORT("alltoall sendcount=-1",
         MPI_Alltoall(buf, -1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD));
  REPORT("alltoallv sendcounts[0]=-1",
         MPI_Alltoallv(buf, counts, displs, MPI_INT, out, counts, displs, MPI_INT,
                       MPI_COMM_WORLD));
#undef REPORT
}

int main(int argc, char** argv) {
  uint64_t seed = 1;
  int calls = 60, i, ok = 1;
  int check_errors = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  for (i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--calls") && i + 1 < argc) calls = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--errors")) check_errors = 1;
    else {
      if (me == 0) fprintf(stderr, "usage: %s [--seed S] [--calls N] [--errors]\n", argv[0]);
      MPI_Finalize();
      return 2;
    }
  }
  MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &gap_int);
  MPI_Type_commit(&gap_int);
  MPI_Type_contiguous(2, MPI_UNSIGNED, &affine_t);
  MPI_Type_commit(&affine_t);
  MPI_Op_create(affine_fn, 0, &affine_op);
  MPI_Op_create(xor_fn, 1, &xor_op);
  if (check_errors) errors(me == 0);
  else ok = random_calls(seed, calls);
  MPI_Op_free(&affine_op);
  MPI_Op_free(&xor_op);
  MPI_Type_free(&gap_int);
  MPI_Type_free(&affine_t);
  MPI_Finalize();
  return ok ? 0 : 1;
}
