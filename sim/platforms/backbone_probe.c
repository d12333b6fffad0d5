/* backbone_probe K BYTES...: what a platform's shared network carries when every rank sends at
 * once. Every rank sends K messages of BYTES to rank + 1 and receives K from rank - 1 (all
 * posted at once, nonblocking), starting at one agreed instant of SMPI's global clock; rank 0
 * prints, per size, the time from that instant to the last rank's end (TSV: p, messages, bytes
 * per message, usec). Run by scripts/backbone_probe.sh under SimGrid SMPI, which compares it
 * with the backbone's nominal bound. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int p = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int k = argc > 1 ? atoi(argv[1]) : 0;
  if (argc < 3 || k < 1 || k > 4096) {
    if (rank == 0) fprintf(stderr, "usage: backbone_probe K BYTES... (1 <= K <= 4096)\n");
    MPI_Finalize();
    return 2;
  }
  if (rank == 0) printf("p\tmessages\tbytes\tusec\n");
  MPI_Request* requests = malloc(2 * (size_t)k * sizeof *requests);
  for (int a = 2; a < argc; ++a) {
    const long bytes = atol(argv[a]);
    if (bytes < 1 || bytes > (1L << 30)) {
      if (rank == 0) fprintf(stderr, "backbone_probe: %s is not a size in 1..2^30\n", argv[a]);
      MPI_Finalize();
      return 2;
    }
    char* out = malloc((size_t)bytes);
    char* in = malloc((size_t)bytes * (size_t)k);
    double span = 0;
    for (int rep = 0; rep < 2; ++rep) {  /* the first pays SMPI's set-up */
      MPI_Barrier(MPI_COMM_WORLD);
      double now = MPI_Wtime(), start = 0, end = 0, last = 0;
      MPI_Allreduce(&now, &start, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      start += 1e-3;
      while (MPI_Wtime() < start) {
        const struct timespec tick = {0, 1000};
        nanosleep(&tick, NULL);
      }
      for (int i = 0; i < k; ++i) {
        MPI_Irecv(in + (size_t)i * (size_t)bytes, (int)bytes, MPI_CHAR, (rank + p - 1) % p, 0,
                  MPI_COMM_WORLD, &requests[i]);
        MPI_Isend(out, (int)bytes, MPI_CHAR, (rank + 1) % p, 0, MPI_COMM_WORLD, &requests[k + i]);
      }
      MPI_Waitall(2 * k, requests, MPI_STATUSES_IGNORE);
      end = MPI_Wtime();
      MPI_Reduce(&end, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      span = last - start;
    }
    if (rank == 0) printf("%d\t%d\t%ld\t%.2f\n", p, k, bytes, span * 1e6);
    free(out);
    free(in);
  }
  free(requests);
  MPI_Finalize();
  return 0;
}
