/* rosched_mpi.h: MPI collectives that run the verified round-optimal circulant schedules.
 *
 * Same signatures and semantics as the MPI standard's MPI_Bcast, MPI_Allgather,
 * MPI_Allgatherv and MPI_Allreduce (MPI 3.1, Chapter 5), callable from C and C++:
 *   - any root, count 0, one process, MPI_IN_PLACE (Allgather, Allreduce), derived datatypes,
 *     and different datatypes of matching type signatures on different ranks (a root's 6
 *     MPI_INTs received as 3 pairs elsewhere): the broadcasts and all-gathers move the
 *     message's bytes (the buffer itself where its datatype has no gaps, else a packed copy;
 *     mpi_exec/message_bytes.h), cut where every rank counts alike; the reductions, whose
 *     datatype MPI wants the same on every rank, cut at whole elements. A message of more than
 *     INT_MAX bytes goes in units of a power of two bytes that divide it (for the all-gathers:
 *     that divide every block, so an all-gather's result may hold more than INT_MAX elements);
 *     where none does (an odd count of bytes) Rosched_Bcast, Rosched_Allgather and
 *     Rosched_Allgatherv run the library's collective and the others return MPI_ERR_COUNT;
 *   - errors (bad arguments, failing MPI calls) are reported like MPI's own: a one-line message
 *     on stderr naming the call and the argument, then the error handler the communicator has
 *     at the time of the call is invoked with the MPI error class Open MPI's own collective
 *     would use (MPI_COMM_WORLD's handler for MPI_COMM_NULL); with MPI_ERRORS_RETURN the class
 *     is returned. A predefined operation on a datatype it is not defined on (MPI_SUM on
 *     MPI_C_BOOL) is MPI_ERR_OP, an uncommitted datatype MPI_ERR_TYPE, sendbuf == recvbuf
 *     (not MPI_IN_PLACE, count > 0) MPI_ERR_BUFFER in the all-reduces and MPI_ERR_ARG at a
 *     reduction's root, as is MPI_IN_PLACE off the root. An argument wrong on some ranks only
 *     (a root's recvbuf) is an error on those ranks; in debug mode (ROSCHED_DEBUG=1) on every
 *     rank, where otherwise the others may wait for them;
 *   - traffic runs on a private duplicate of the communicator (cached on it as an attribute),
 *     so it never matches the application's own messages;
 *   - rosched's algorithms run on intra-communicators. On an inter-communicator the entry
 *     points that are MPI collectives (Rosched_Bcast, _Allgather, _Allgatherv, _Allreduce,
 *     _Reduce, _Reduce_scatter(_block), _Alltoall(v)) run the MPI library's own collective, with
 *     MPI's inter-communicator semantics (MPI_ROOT / MPI_PROC_NULL roots, results from the other
 *     group), and their _choice queries answer 0; every other call (the named algorithms,
 *     Rosched_Allmerge, the n-way all-reduce) is MPI_ERR_COMM;
 *   - threads (MPI_THREAD_MULTIPLE): threads may call the collectives at once on different
 *     communicators (on one communicator MPI forbids it); what the library keeps per process is
 *     made once or kept per thread;
 *   - memory: scratch vectors (accumulators, packed copies of datatypes with gaps) are kept per
 *     thread from call to call for the next call, at most 16 MiB up to 1 MiB each and 128 MiB
 *     above (at most 4 buffers, each at most 64 MiB); larger ones are made and freed per call.
 *     ROSCHED_SCRATCH_KEEP=bytes (K, M, G: KiB, MiB, GiB) bounds what a thread keeps, 0 keeps
 *     nothing (at a cost: p = 2, the circulant reduction of 4 MiB 4.3x Open MPI's time instead
 *     of 1.6x).
 *
 * Algorithms (Träff 2022): Rosched_Bcast_circulant is the n-block broadcast (Algorithm 6,
 * n - 1 + ceil(log2 p) rounds, n from the cost model (message time against size) of the
 * communicator, measured once or set by ROSCHED_ALPHA/ROSCHED_BETA, Theorem 2);
 * Rosched_Bcast runs it where the model predicts it beats a binomial tree by 10% and, timed at
 * the first call of each size class (2^k to 2^(k+1) - 1 bytes) on a communicator, it beat the MPI
 * library's MPI_Bcast, or the hypercube, two-tree, (where the ranks share a network narrower
 * than their links) k-ary tree or (elsewhere) scatter + all-gather broadcast where that was
 * faster still
 * (Rosched_Bcast_choice says which); else MPI_Bcast (ROSCHED_BCAST=auto|model|circulant|native, model: the
 * prediction alone; ROSCHED_VERBOSE=1 prints the choice and the timings on rank 0). The pipelined broadcasts keep several rounds in flight (nonblocking,
 * ROSCHED_WINDOW rounds, default from the model). On ranks spread over several multicore nodes
 * (MPI_COMM_TYPE_SHARED, or ROSCHED_NODE_SIZE consecutive ranks per node) Rosched_Bcast's own
 * broadcast is Rosched_Bcast_node_aware: the circulant broadcast among one rank per node, then
 * within each node (elsewhere it is Rosched_Bcast_circulant), and it is always timed against
 * MPI_Bcast at a size class's first call;
 * Rosched_Allgather the regular all-gather (Algorithm 7, ceil(log2 p) rounds);
 * Rosched_Allgatherv the irregular all-gather (Algorithm 9: p broadcasts in lockstep, one
 * combined message per round, described by derived datatypes over the receive buffer; where one
 * block is at least half of the data also that block's broadcast then Algorithm 9 for the rest,
 * and MPI_Allgatherv, timed at the first call of a size class like Rosched_Bcast's choice);
 * Rosched_Allreduce_census the census (Algorithm 8, ceil(log2 p) rounds, commutative
 * operations, meant for small data and for p = 2, where it is one exchange and needs no memory
 * beyond the caller's buffers; elsewhere at most three vectors); Rosched_Allreduce_scatter_gather
 * a reduce-scatter (Algorithm 7 run backwards) then Algorithm 7, 2 ceil(log2 p) rounds that
 * send 2 (p - 1) / p of the vector per rank (commutative operations, meant for long vectors);
 * Rosched_Allreduce runs whichever of the two, of the n-way all-reduce (Rosched_Allreduce_nway)
 * and, on several multicore nodes of equal size, of the lane all-reduces of
 * Rosched_Allreduce_node_aware, timed at the first call of each size class, beat the library's
 * MPI_Allreduce (the census and the n-way all-reduce only where the cost model says they can
 * pay), else that
 * (ROSCHED_ALLREDUCE=auto|model|rosched|native, as ROSCHED_BCAST; mpi_exec/library_choice.h;
 * forced or by the model: the census where it can pay, else the lane all-reduces where they
 * apply, else the reduce-scatter/all-gather). Rosched_Allgather likewise chooses between its
 * all-gather and MPI_Allgather (ROSCHED_ALLGATHER). Each walks the schedule description of sched/, the one the verifier checks.
 */
#ifndef ROSCHED_MPI_EXEC_ROSCHED_MPI_H_
#define ROSCHED_MPI_EXEC_ROSCHED_MPI_H_

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

int Rosched_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);

int Rosched_Bcast_circulant(void* buffer, int count, MPI_Datatype datatype, int root,
                            MPI_Comm comm);

int Rosched_Bcast_node_aware(void* buffer, int count, MPI_Datatype datatype, int root,
                             MPI_Comm comm);

/* What Rosched_Bcast(buffer, count, datatype, root, comm) would run: *algorithm = 0 the MPI
 * library's MPI_Bcast, 1 the circulant broadcast (node-aware on several multicore nodes; also
 * where the trial found its pipeline fastest with other rounds in flight than the model's), 2
 * Bin Jia's hypercube broadcast, 3 the two-tree broadcast, 4 the k-ary tree broadcast, 5 the
 * scatter + all-gather (Rosched_Bcast_scatter_allgather), 6 the k-nomial tree broadcast (5 and
 * 6 on several multicore nodes: the node-aware broadcast with that between the nodes); by
 * ROSCHED_BCAST, the cost model and the timing of count's size class if Rosched_Bcast has
 * timed it on comm (before that, 1 means: the next Rosched_Bcast of this size times MPI_Bcast
 * against rosched's broadcasts and keeps the fastest); the same answer on every rank.
 * Collective over comm the first time it is asked for comm (the model is measured then), like
 * the first Rosched_Bcast. */
int Rosched_Bcast_choice(MPI_Comm comm, int count, MPI_Datatype datatype, int* algorithm);

int Rosched_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm);

int Rosched_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                       void* recvbuf, const int recvcounts[], const int displs[],
                       MPI_Datatype recvtype, MPI_Comm comm);

int Rosched_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm);

/* What Rosched_Allreduce(sendbuf, recvbuf, count, datatype, op, comm) would run: *algorithm = 0
 * the MPI library's MPI_Allreduce, 1 the census (Algorithm 8), 2 the reduce-scatter +
 * all-gather, 3 the lane all-reduces of Rosched_Allreduce_node_aware, 4 the n-way all-reduce,
 * 5 the two-tree all-reduce (a non-commutative operation with ROSCHED_ALLREDUCE=rosched;
 * without it such an operation goes to the library's), 7 the k-nomial tree reduction to rank 0
 * and the k-nomial tree broadcast from it (vectors up to 64 KiB, where a trial found it
 * fastest), 8 the n-port reduce-scatter + all-gather (Rosched_Allreduce_nport; where a trial
 * found it fastest).
 * Before a trial of the size class on comm, the answer is what runs without one (the next call
 * times the library's collective against it and its other candidates and keeps the fastest);
 * after it, the size class's decision. The same answer on every rank; collective over comm the
 * first time it is asked (the cost model is measured then) and in debug mode (the arguments
 * are agreed), like the call. */
int Rosched_Allreduce_choice(MPI_Comm comm, int count, MPI_Datatype datatype, MPI_Op op,
                             int* algorithm);

int Rosched_Allreduce_census(const void* sendbuf, void* recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);

int Rosched_Allreduce_scatter_gather(const void* sendbuf, void* recvbuf, int count,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);

/* MPI_Reduce_scatter_block by the circulant reduce-scatter (Algorithm 7 run backwards,
 * ceil(log2 p) rounds, p - 1 blocks sent per rank; commutative operations; p * recvcount must
 * not exceed INT_MAX elements, else MPI_ERR_COUNT). Rosched_Reduce_scatter_block runs it, or
 * for a short vector the n-way all-reduce of all of it and then the rank's block (where the
 * cost model says the n-way all-reduce can pay), where, timed at the first call of a size class,
 * it beat the library's MPI_Reduce_scatter_block, else
 * that (ROSCHED_REDUCE_SCATTER, as ROSCHED_BCAST; the library's for a non-commutative operation;
 * at p = 2 too a trial decides: there Open MPI 4.1's collective took 6-7x the circulant one's
 * time at 1-4 MiB); Rosched_Reduce_scatter_block_circulant always runs it (MPI_ERR_OP for a
 * non-commutative operation). Same semantics as MPI_Reduce_scatter_block, MPI_IN_PLACE too. */
int Rosched_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int Rosched_Reduce_scatter_block_circulant(const void* sendbuf, void* recvbuf, int recvcount,
                                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
/* MPI_Reduce_scatter (block b of recvcounts[b] elements, the same array on every rank; their sum
 * must not exceed INT_MAX) by the same reduce-scatter, chosen and forced alike. */
int Rosched_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int Rosched_Reduce_scatter_circulant(const void* sendbuf, void* recvbuf, const int recvcounts[],
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
/* The n-port reduce-scatter, always: Träff 2022's Alg. 7 on the skips of n ports (Bruck et al.
 * 1997's k-port dissemination) run backwards, ceil(log_(n+1) p) rounds of n messages, each rank
 * sending (p - 1) / p of the vector in all; n by the n-port all-gather's cost rule for the
 * blocks, at least 2 (ROSCHED_NWAY_N or Rosched_Set_nway to set it). Candidate 4 of
 * Rosched_Reduce_scatter(_block)'s trial, with the same n, here to be run or timed alone.
 * Commutative operations (MPI_ERR_OP otherwise). Same semantics as MPI_Reduce_scatter_block and
 * MPI_Reduce_scatter, MPI_IN_PLACE too. */
int Rosched_Reduce_scatter_block_nport(const void* sendbuf, void* recvbuf, int recvcount,
                                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int Rosched_Reduce_scatter_nport(const void* sendbuf, void* recvbuf, const int recvcounts[],
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
/* What Rosched_Reduce_scatter_block(..., recvcount, datatype, op, comm) and
 * Rosched_Reduce_scatter(..., recvcounts, datatype, op, comm) would run: *algorithm = 0 the MPI
 * library's collective, 1 the circulant reduce-scatter, 2 the node-aware reduce-scatter, 3 the
 * n-way all-reduce of the vector, then the rank's block, 4 the n-port reduce-scatter (the
 * circulant one's rounds on n ports, where a trial found it fastest).
 * Before a trial of the size class on comm, the answer is what runs without one (the next call
 * times the library's collective against it and its other candidates and keeps the fastest);
 * after it, the size class's decision. The same answer on every rank; collective over comm the
 * first time it is asked (the cost model is measured then) and in debug mode (the arguments
 * are agreed), like the call. */
int Rosched_Reduce_scatter_block_choice(MPI_Comm comm, int recvcount, MPI_Datatype datatype,
                                        MPI_Op op, int* algorithm);
int Rosched_Reduce_scatter_choice(MPI_Comm comm, const int recvcounts[], MPI_Datatype datatype,
                                  MPI_Op op, int* algorithm);
/* The node-aware reduce-scatter where the ranks sit on several nodes of equal size (Träff
 * 2020's full-lane decomposition: the circulant reduce-scatter within each node, then in each
 * lane of one rank per node, there on n ports where a vector of one chunk has lane blocks the
 * n-port rule finds ports worth it for), else the circulant one; always rosched's (commutative
 * operations). */
int Rosched_Reduce_scatter_block_node_aware(const void* sendbuf, void* recvbuf, int recvcount,
                                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int Rosched_Reduce_scatter_node_aware(const void* sendbuf, void* recvbuf, const int recvcounts[],
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);

/* Two-tree collectives (Sanders, Speck, Träff 2009, as presented in Träff's lecture notes
 * "Advanced MPI implementations: Collectives", section "Two (pipelined) binary trees"):
 * the pipelined broadcast over two binary trees with the EdgeColor round colouring, the
 * reduction (the broadcast run backwards; order-preserving, so any operation, commutative or
 * not) and the all-reduce (reduction to rank 0 and broadcast from it, overlapped: the doubly
 * pipelined all-reduce). All keep several rounds in flight. Same semantics as MPI_Bcast,
 * MPI_Reduce (MPI_IN_PLACE at the root) and MPI_Allreduce (MPI_IN_PLACE). */
int Rosched_Bcast_two_tree(void* buffer, int count, MPI_Datatype datatype, int root,
                           MPI_Comm comm);

/* The broadcast of a scatter and an all-gather (van de Geijn's long-message broadcast; MPICH's
 * MPI_Bcast for long messages): the root sends block b of p to rank b, then Träff 2022's
 * regular all-gather (Alg. 7, as Rosched_Allgather) gives every rank every block. Same
 * semantics as MPI_Bcast. */
int Rosched_Bcast_scatter_allgather(void* buffer, int count, MPI_Datatype datatype, int root,
                                    MPI_Comm comm);

/* The pipelined broadcast over a complete k-ary tree (Träff's lecture notes, "The power of
 * fixed-degree trees"), an interior rank's k sends of a block in flight at once; the degree
 * from the cost model's crowding (ROSCHED_KARY_DEGREE to set it). Same semantics as MPI_Bcast. */
int Rosched_Bcast_kary_tree(void* buffer, int count, MPI_Datatype datatype, int root,
                            MPI_Comm comm);

/* The k-nomial tree broadcast of one block (Träff's lecture notes, "Binomial tree broadcast"
 * and "Final remark: binomial and k-nomial trees"): the root and every rank that has the message
 * send it whole to n children at once, ceil(log_{n+1} p) levels (binomial for n = 1); the ports
 * n from the cost model's k-nomial rule (ROSCHED_BCAST_PORTS to set them). For short messages.
 * Same semantics as MPI_Bcast. */
int Rosched_Bcast_knomial(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);

int Rosched_Reduce_two_tree(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, int root, MPI_Comm comm);

/* The n-block reduction over the circulant graph: Träff 2022's Alg. 6 broadcast (the schedule
 * of Rosched_Bcast_circulant) run backwards, as Träff 2024 runs broadcast schedules backwards
 * for reductions: n - 1 + ceil(log2 p) rounds, the fewest for n blocks, in each of which every
 * rank sends one block's partial result and receives one; the blocks and the rounds in flight
 * from the communicator's cost model (ROSCHED_BCAST_F sets the block size as for the
 * broadcast). Partial results are combined out of rank order: commutative operations only
 * (MPI_ERR_OP otherwise). Same semantics as MPI_Reduce. */
int Rosched_Reduce_circulant(const void* sendbuf, void* recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);

/* The reduction as a reduce-scatter followed by a gather (Rabenseifner 2004, as MPICH's
 * MPI_Reduce for long vectors): the reduce-scatter of Rosched_Reduce_scatter over the circulant
 * graph (Träff 2022's Alg. 7 run backwards) leaves block b of p reduced at rank b, then every
 * rank sends its block to the root. ceil(log2 p) rounds and one step of gathering; each rank
 * sends (p - 1) / p of the vector, the root also receives as much. Commutative operations only
 * (MPI_ERR_OP otherwise). Same semantics as MPI_Reduce. */
int Rosched_Reduce_scatter_gather(const void* sendbuf, void* recvbuf, int count,
                                  MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);

/* The same with the n-port reduce-scatter of Rosched_Allreduce_nport's first half (Träff 2022's
 * Alg. 7 on the skips of n ports, Bruck et al. 1997's k-port dissemination, run backwards):
 * ceil(log_(n+1) p) rounds of n messages, then the gather; n by the n-port all-gather's cost rule
 * for blocks of count / p elements (ROSCHED_NWAY_N to set it). For short vectors, where a round
 * costs its latency. Commutative operations only (MPI_ERR_OP otherwise). Same semantics as
 * MPI_Reduce. */
int Rosched_Reduce_nport(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                         MPI_Op op, int root, MPI_Comm comm);

/* The pipelined reduction over a complete k-ary tree: Rosched_Bcast_kary_tree's broadcast run
 * backwards (Träff's lecture notes, fixed-degree trees), with its degree, blocks and rounds in
 * flight from the communicator's cost model (ROSCHED_KARY_DEGREE, ROSCHED_KARY_F and
 * ROSCHED_WINDOW set them, as for the broadcast): a rank combines the partial results of its k
 * children, which arrive at once, and forwards each block as soon as it holds them. For long
 * vectors on a network whose shared part limits each flow below a rank's link. Partial results
 * are combined out of rank order: commutative operations only (MPI_ERR_OP otherwise). Same
 * semantics as MPI_Reduce. */
int Rosched_Reduce_kary_tree(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, int root, MPI_Comm comm);

/* The binomial-tree reduction (Träff's lecture notes, "Binomial tree reduction"): the whole
 * vector in ceil(log2 p) rounds, the fewest any reduction of an unsplit vector can take, and
 * the right tree for short vectors, where the two trees' 2 log2 p rounds cost twice the
 * latency. Order-preserving for root 0; a non-commutative operation with another root reduces
 * to rank 0 and sends the result to the root. Same semantics as MPI_Reduce. */
int Rosched_Reduce_binomial(const void* sendbuf, void* recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);

/* The reduction of this library, or the MPI library's MPI_Reduce where that is faster (the
 * first call of each size class on a communicator times both, as Rosched_Bcast does, and on
 * several multicore nodes, for a commutative operation, Rosched_Reduce_node_aware's reduction
 * as well, and where the circulant reduction is the tree, Rosched_Reduce_scatter_gather's and
 * (off several multicore nodes) Rosched_Reduce_kary_tree's, and
 * for short vectors the tree the model passed over, of the two below, and for a commutative
 * operation, where the n-port all-gather's rule finds ports worth it for the blocks (p > 2) and
 * the node-aware reduction does not apply, Rosched_Reduce_nport's;
 * ROSCHED_REDUCE=auto|model|rosched|native).
 * Short vectors (up to 60 KiB): the k-nomial tree with n ports
 * (Träff's lecture notes, "Final remark: binomial and k-nomial trees"; n = 1 is the binomial
 * tree), ceil(log_{n+1} p) levels of the whole vector with a rank's n children's partial
 * results in flight at once, n by a cost rule that counts one vector per rank on what the ranks
 * share at each level (or ROSCHED_REDUCE_PORTS, 1..64, which also keeps the k-nomial tree for
 * every short vector); longer ones, or where the communicator's cost model (see
 * Rosched_Bcast_circulant) predicts them faster, a pipelined reduction: for a commutative
 * operation the circulant one (Rosched_Reduce_circulant), else the two trees, which keep rank
 * order. ROSCHED_VERBOSE=1 prints the choice on rank 0. Same semantics as MPI_Reduce. */
int Rosched_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm);

/* What Rosched_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm) would run (for any
 * root): *algorithm = 0 the MPI library's MPI_Reduce, 1 the k-nomial tree, 2 the two trees, 3 the
 * node-aware reduction, 4 the circulant reduction, 5 the reduce-scatter + gather
 * (Rosched_Reduce_scatter_gather, for a commutative operation where a trial found it faster), 6
 * the n-port reduce-scatter + gather (Rosched_Reduce_nport, the same), 7 the k-ary tree reduction
 * (Rosched_Reduce_kary_tree, the same).
 * Before a trial of the size class on comm, the answer is what runs without one (the next call
 * times the library's collective against it and its other candidates and keeps the fastest);
 * after it, the size class's decision. The same answer on every rank; collective over comm the
 * first time it is asked (the cost model is measured then) and in debug mode (the arguments
 * are agreed), like the call. */
int Rosched_Reduce_choice(MPI_Comm comm, int count, MPI_Datatype datatype, MPI_Op op,
                          int* algorithm);

/* The reduction made node-aware for commutative operations on ranks spread over several
 * multicore nodes: within every node, then among one rank per node, each phase over the tree
 * Rosched_Reduce would choose for that communicator (k-nomial or circulant), the second by the
 * reduce-scatter on n ports and a gather (as Rosched_Reduce_nport) where the cost model finds
 * that faster; on nodes of equal size from 24 KiB (and one element per rank) the node-aware
 * reduce-scatter, then a gather of the blocks to the root through its node (Rabenseifner's
 * scheme), and from 512 KiB below 4 MiB the multi-lane reduction (Träff 2020's full-lane
 * decomposition: the reduce-scatter within every node, every lane reducing its part into the root's
 * node at once, the parts gathered at the root; ROSCHED_NODE_REDUCE=lanes|gather forces either);
 * elsewhere (one node, one rank per node, a non-commutative operation) the tree Rosched_Reduce
 * takes where it does not run the library's. Same semantics as MPI_Reduce. */
int Rosched_Reduce_node_aware(const void* sendbuf, void* recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);

/* What Rosched_Reduce_node_aware(sendbuf, recvbuf, count, datatype, op, root, comm) runs (for any
 * root), in Rosched_Reduce_choice's numbers: *algorithm = 1 the k-nomial tree, 2 the two trees,
 * 3 the node-aware reduction, 4 the circulant reduction. The same answer on every rank;
 * collective over comm the first time it is asked (the node layout and the cost model are
 * measured then). */
int Rosched_Reduce_node_aware_choice(MPI_Comm comm, int count, MPI_Datatype datatype, MPI_Op op,
                                     int* algorithm);

/* The all-reduce for a commutative operation on several multicore nodes: where the nodes hold
 * equally many ranks c, for vectors under 48 KiB (or of fewer than c elements) one lane: the
 * k-nomial reduction of each node into its rank 0, the n-way dissemination all-reduce (End et
 * al. 2015) among the nodes' ranks 0, the broadcast within each node; from 48 KiB to 724 KiB
 * (with at least as many elements as nodes) the same with the reduce-scatter + all-gather among
 * the nodes' ranks 0 (Rosched_Allreduce_scatter_gather's); either lane all-reduce replaced by
 * the reduce-scatter + all-gather on n ports (Rosched_Allreduce_nport's) where its cost rule
 * finds ports worth it (below 48 KiB: its estimate 5% below the n-way one's); for longer ones,
 * and from 24 KiB where it goes as one chunk with its lanes on n ports, the
 * multi-lane all-reduce (Träff 2020's full-lane
 * decomposition over Träff 2022's circulant graphs: the circulant reduce-scatter of c parts
 * within each node, node rank k reduce-scatters and all-gathers part k with node rank k of
 * every other node, the circulant all-gather of the parts within each node), in
 * round(sqrt(bytes / 64 KiB)) chunks (or ROSCHED_LANE_CHUNKS) whose steps overlap: while the
 * lanes work on one chunk, the nodes reduce-scatter the next and all-gather the previous; on
 * unequal nodes the node-aware reduction to rank 0,
 * then the node-aware broadcast (Rosched_Bcast_node_aware) from it; else
 * Rosched_Allreduce_two_tree. Same semantics as MPI_Allreduce. */
int Rosched_Allreduce_node_aware(const void* sendbuf, void* recvbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);

/* What Rosched_Allreduce_node_aware(sendbuf, recvbuf, count, datatype, op, comm) runs, in
 * Rosched_Allreduce_choice's numbers and two of its own: *algorithm = 3 the lane all-reduces
 * (equal multicore nodes), 6 the node-aware reduction to rank 0, then the node-aware broadcast
 * (unequal multicore nodes), 5 the two-tree all-reduce (elsewhere). The same answer on every
 * rank; collective over comm the first time it is asked, like the call. */
int Rosched_Allreduce_node_aware_choice(MPI_Comm comm, int count, MPI_Datatype datatype,
                                        MPI_Op op, int* algorithm);

int Rosched_Allreduce_two_tree(const void* sendbuf, void* recvbuf, int count,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);

/* MPI_Allreduce as the k-nomial tree reduction to rank 0 (the tree of Rosched_Reduce's short
 * vectors, ports from its rule or ROSCHED_REDUCE_PORTS) and the k-nomial tree broadcast from it
 * (Rosched_Bcast_knomial): 2 ceil(log_{n+1} p) levels of the whole vector. Any operation (rank
 * order is kept); for short vectors. Same semantics as MPI_Allreduce. */
int Rosched_Allreduce_knomial(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                              MPI_Op op, MPI_Comm comm);

/* MPI_Allreduce as Rosched_Allreduce_scatter_gather's two halves on n ports: the n-port
 * reduce-scatter (Algorithm 7 of Träff 2022 on the skips of n ports, Bruck et al. 1997's k-port
 * dissemination, run backwards) and the n-port all-gather, 2 ceil(log_(n+1) p) rounds of n
 * messages of the blocks; n from the n-port all-gather's cost rule for blocks of count / p
 * elements, or ROSCHED_NWAY_N. Commutative operations; for short vectors on many ranks. Same
 * semantics as MPI_Allreduce. */
int Rosched_Allreduce_nport(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm);

/* Bin Jia's hypercube broadcast (Jia 2009, as presented in Träff's lecture notes, section "The
 * power of the hypercube: Optimal Broadcast" through the Main Theorem), extended to any p by
 * cooperating pairs of processors: n blocks in n - 1 + ceil(log2 p) rounds, like Rosched_Bcast. Same semantics as MPI_Bcast. */
int Rosched_Bcast_hypercube(void* buffer, int count, MPI_Datatype datatype, int root,
                            MPI_Comm comm);

/* The Bruck all-to-all (Bruck et al. 1997) and its variants for uniform and non-uniform data
 * (Fan, Huang, Gilray, Micinski, Pascucci, Kumar 2022): same semantics as MPI_Alltoall and
 * MPI_Alltoallv (MPI_IN_PLACE, derived datatypes, zero counts). The algorithm comes from a cost
 * rule (uniform: zero-rotation Bruck or a linear pairwise exchange; non-uniform: padded or
 * two-phase Bruck, or linear), from ROSCHED_ALLTOALL_VARIANT (read once), or from `variant` of
 * the _variant calls: basic, modified, zerorot, zerocopy, padded, twophase, linear, or auto
 * (Alltoallv: padded, twophase, linear, auto). Rosched_Alltoall with no variant forced also
 * chooses the MPI library's MPI_Alltoall where a timed first call per size class finds it faster
 * (ROSCHED_ALLTOALL=auto|model|rosched|native, as ROSCHED_BCAST). So does Rosched_Alltoallv
 * (ROSCHED_ALLTOALLV): every call to MPI_Alltoallv, without any communication of its own, where
 * no Bruck variant can beat the linear exchange at this p by the cost model (p <= 3 always) or
 * MPI_Alltoallv beat padded Bruck with one byte per block in a trial at the communicator's first
 * call; else a timed first call per size class of the heaviest rank's bytes, agreed by the one
 * MPI_Allreduce the rule needs anyway. Overlapping receive blocks are
 * MPI_ERR_ARG; in debug mode a send size that differs from its receiver's count is
 * MPI_ERR_TRUNCATE on every rank. */
int Rosched_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int Rosched_Alltoall_variant(const char* variant, const void* sendbuf, int sendcount,
                             MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm);
/* What Rosched_Alltoall(..., recvcount, recvtype, comm) would run: *algorithm = 0 the MPI
 * library's MPI_Alltoall, 1 rosched's exchange by the cost rule (or ROSCHED_ALLTOALL_VARIANT),
 * 2 the linear exchange (where a trial found it faster than the rule's Bruck variant). As
 * Rosched_Allgather_choice: 1 also where the next call of this size class times them; the
 * same answer on every rank; collective the first time it is asked for comm and in debug
 * mode. (Rosched_Alltoallv has no such query: it decides on sizes all ranks agree on in the
 * call.) */
int Rosched_Alltoall_choice(MPI_Comm comm, int recvcount, MPI_Datatype recvtype, int* algorithm);
int Rosched_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                      MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                      const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
int Rosched_Alltoallv_variant(const char* variant, const void* sendbuf, const int sendcounts[],
                              const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                              const int recvcounts[], const int rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm);
/* Merge-allreduce ("allmerge", Lang 2025): every rank contributes a sorted block of
 * recvcounts[rank] elements (sendbuf, sendcount = recvcounts[rank]; or MPI_IN_PLACE: the block
 * is the first recvcounts[rank] elements of recvbuf) and every rank receives in recvbuf the
 * sorted merge of all blocks, sum(recvcounts) elements (at most INT_MAX), identical on every rank:
 * equal keys are ordered by origin rank (stable). Unlike MPI_Allreduce the result grows with p.
 *
 * merge_fn(a, na, b, nb, out, datatype, state) must write the na + nb elements of the sorted
 * runs a and b (either may be empty, b then possibly NULL) to out, sorted, elements of a first
 * on equal keys (a stable merge), and must be the same function on every rank. merge_fn NULL:
 * ascending order of MPI_INT, MPI_LONG or MPI_DOUBLE (other datatypes: MPI_ERR_OP). Derived
 * datatypes work with a merge_fn that understands them (elements at the datatype's extent).
 * Unsorted input is the caller's error; in debug mode (ROSCHED_DEBUG=1) it is detected and
 * reported with the rank, and mismatched recvcounts or algorithm are an error on every rank.
 *
 * algorithm: ROSCHED_ALLMERGE_ALLGATHER (Algorithm 0: all-gather, then a merge tree,
 * O(n log p) merge work per rank), ROSCHED_ALLMERGE_DISSEMINATION (Algorithm 1, corrected:
 * up to 1.5 (p - 1) blocks sent, O(n) merge work), ROSCHED_ALLMERGE_CIRCULANT (Algorithm 2:
 * exactly p - 1 blocks, O(n) merge work, 3-way merges at the receiver), ROSCHED_ALLMERGE_LIBRARY
 * (the MPI library's MPI_Allgatherv of the blocks, then Algorithm 0's merge tree: what a program
 * without this library would do, but for a sort), or ROSCHED_ALLMERGE_AUTO.
 * The cost rule alpha * rounds + beta * blocks sent + gamma * merge work: all three take
 * ceil(log2 p) rounds; when p is a power of two Algorithms 1 and 2 both send p - 1 blocks and
 * Algorithm 1's 2-way merges cost less per element than Algorithm 2's 3- to 5-way ones
 * (measured, docs/perf.md), so the rule takes Algorithm 1; otherwise Algorithm 1 sends up to
 * 1.5 times as much and the rule takes Algorithm 2. Algorithm 0 merges n ceil(log2 p) elements
 * per rank. AUTO runs the rule's algorithm with ROSCHED_ALLMERGE=model or rosched, and by default
 * (auto) the fastest of the three and of the MPI library's MPI_Allgatherv followed by a merge
 * tree (native, ROSCHED_ALLMERGE_LIBRARY), timed at the first call of each size class of the
 * result on the communicator (merge_fn is called for each of them then;
 * mpi_exec/library_choice.h), apart for distributions where one block is at least half of the
 * result. */
#define ROSCHED_ALLMERGE_AUTO (-1)
#define ROSCHED_ALLMERGE_ALLGATHER 0
#define ROSCHED_ALLMERGE_DISSEMINATION 1
#define ROSCHED_ALLMERGE_CIRCULANT 2
#define ROSCHED_ALLMERGE_LIBRARY 3
typedef void Rosched_Merge_fn(const void* a, int na, const void* b, int nb, void* out,
                              MPI_Datatype datatype, void* state);
int Rosched_Allmerge(const void* sendbuf, int sendcount, void* recvbuf, const int recvcounts[],
                     MPI_Datatype datatype, Rosched_Merge_fn* merge_fn, void* state,
                     MPI_Comm comm, int algorithm);
/* Elements written by merges and copies in this thread's last Rosched_Allmerge call (the
 * merge work, for benchmarks; a call that times AUTO's candidates counts all their runs). */
long long Rosched_Allmerge_moves(void);
/* What Rosched_Allmerge(..., recvcounts, datatype, ..., comm, ROSCHED_ALLMERGE_AUTO) would run:
 * *algorithm = ROSCHED_ALLMERGE_LIBRARY, _ALLGATHER, _DISSEMINATION or _CIRCULANT. As
 * Rosched_Allgatherv_choice: before a trial of the size class on comm, the cost rule's algorithm
 * (the next call times the candidates); the same answer on every rank; collective the first
 * time it is asked for comm and in debug mode. */
int Rosched_Allmerge_choice(MPI_Comm comm, const int recvcounts[], MPI_Datatype datatype,
                            int* algorithm);
/* The n-way dissemination allreduce (End, Yahyapour, Simmendinger, Alrutz 2015, Sec. III-IV),
 * with a last round that works for every p: ceil(log_{n+1} p) rounds of n MPI_Isend and n
 * MPI_Irecv each, for commutative operations (a non-commutative one is MPI_ERR_OP). Same
 * semantics as MPI_Allreduce (MPI_IN_PLACE, derived datatypes, count 0). n is the cost rule's
 * over the communicator's cost model (the n <= 64 minimising ceil(log_{n+1} p) times what n
 * vectors of m bytes leaving every rank at once cost: a round), or ROSCHED_NWAY_N;
 * Rosched_Nway_ports tells the n a call of `bytes` would use (collective the first time, as the
 * model is measured then). The last-round rule is circulant (one vector per message), or
 * ROSCHED_NWAY_RULE = digits | paper (paper: MPI_ERR_ARG for a p and n without the paper's tuple);
 * both variables read once. Rosched_Set_nway(n, rule) overrides them for the calls that follow (0 /
 * NULL: the defaults); every rank must use the same n and rule. */
int Rosched_Allreduce_nway(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm);
int Rosched_Set_nway(int n, const char* rule);
int Rosched_Nway_ports(MPI_Comm comm, long long bytes, int* n);

/* Split phase: Rosched_Iallreduce_nway starts the same allreduce and returns a request that only
 * Rosched_Test (never blocks; *flag = 1 once the result is in recvbuf) and Rosched_Wait advance.
 * On completion, or an error, the request is freed and set to ROSCHED_REQUEST_NULL; testing or
 * waiting on ROSCHED_REQUEST_NULL returns at once with *flag = 1. Errors go to the handler of
 * the communicator the call was started on. Up to 8 calls on one communicator may be in flight
 * at once; the buffers must not be touched until completion. */
typedef struct Rosched_Request_s* Rosched_Request;
#define ROSCHED_REQUEST_NULL ((Rosched_Request)0)
int Rosched_Iallreduce_nway(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, Rosched_Request* request);
int Rosched_Test(Rosched_Request* request, int* flag);
int Rosched_Wait(Rosched_Request* request);

/* Debug mode: also check the arguments MPI requires to match across ranks (root and message
 * size of the broadcasts, receive size of Allgather, every entry of recvcounts of Allgatherv,
 * root and count of the reductions), at the cost of one extra MPI_Allreduce per call. A
 * mismatch, or an argument that is invalid on some ranks only, is an error on every rank
 * instead of a hang. Off by default; switched on by the environment variable ROSCHED_DEBUG=1
 * (read once, at the first call); Rosched_Set_debug overrides the variable. The other
 * variables (ROSCHED_ALPHA, ROSCHED_BETA, ROSCHED_WINDOW, ROSCHED_BCAST, ROSCHED_VERBOSE and the
 * block-size factors ROSCHED_BCAST_F, ROSCHED_TWOTREE_F, ROSCHED_HYPERCUBE_F,
 * ROSCHED_ALLGATHERV_G) are likewise read once. */
/* Rosched_Allgather likewise: node-aware on several multicore nodes whose ranks are
 * consecutive, else Algorithm 7, or, for short results, the n-port all-gather (Algorithm 7 on
 * the skips of n ports: ceil(log_{n+1} p) rounds of up to n messages each way at once; n by a
 * cost rule over the model, or ROSCHED_NWAY_N / Rosched_Set_nway), timed against the other two
 * where the rule expects it at least 10% faster than Algorithm 7; the three below force one. */
int Rosched_Allgather_node_aware(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm);
int Rosched_Allgather_circulant(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm);
int Rosched_Allgather_nway(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm);

/* What Rosched_Allgather(..., recvcount, recvtype, comm) would run: *algorithm = 0 the MPI
 * library's MPI_Allgather, 1 rosched's all-gather (node-aware where it applies, else
 * Algorithm 7), 2 the n-port all-gather. As Rosched_Bcast_choice: 1 also where the next call of
 * this size class times both; the same answer on every rank; collective the first time it is asked
 * for comm. */
int Rosched_Allgather_choice(MPI_Comm comm, int recvcount, MPI_Datatype recvtype, int* algorithm);

/* Rosched_Allgatherv's own all-gather is the node-aware one where it applies (ranks on several
 * multicore nodes, each node's ranks consecutive, displs the running sum of recvcounts): the
 * blocks gathered at each node's first rank, Algorithm 9 among those (or the n-port all-gather
 * where its rule finds ports worth it for the nodes' blocks), then the whole result broadcast
 * (Algorithm 6) within each node; elsewhere the flat Algorithm 9. Like
 * Rosched_Allgather it runs MPI_Allgatherv instead where that was faster at the first call of
 * the total size's class (ROSCHED_ALLGATHERV). The three below force one (the node-aware one
 * falls back to the flat one where it does not apply). */
int Rosched_Allgatherv_node_aware(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void* recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm);
int Rosched_Allgatherv_circulant(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, MPI_Comm comm);

/* The largest block (at least half of the data, where Rosched_Allgatherv considers it) by
 * Rosched_Bcast's choice of broadcast from its rank, then the other blocks by Algorithm 9:
 * Rosched_Allgatherv times it against the two above and MPI_Allgatherv where the largest block
 * is at least half of the data (ROSCHED_ALLGATHERV=auto|model|rosched|native, as
 * ROSCHED_BCAST); this one always runs it. */
int Rosched_Allgatherv_largest(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                               void* recvbuf, const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, MPI_Comm comm);

/* The n-port all-gather of Rosched_Allgather_nway on blocks of any size (ceil(log_{n+1} p)
 * rounds; n forced as there, else the cost rule's on the blocks' mean and largest sizes):
 * Rosched_Allgatherv times it for short results where that rule expects it at least 10% faster
 * than on one port; this one always runs it. */
int Rosched_Allgatherv_nway(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm);

/* What Rosched_Allgatherv(..., recvcounts, displs, recvtype, comm) would run: *algorithm = 0 the
 * MPI library's MPI_Allgatherv, 1 rosched's all-gather (node-aware where it applies, else
 * Algorithm 9), 2 the largest block's broadcast, then Algorithm 9 (Rosched_Allgatherv_largest),
 * 3 the n-port all-gather (Rosched_Allgatherv_nway). As Rosched_Allgather_choice (1 where the next
 * call times the candidates). */
int Rosched_Allgatherv_choice(MPI_Comm comm, const int recvcounts[], MPI_Datatype recvtype,
                              int* algorithm);

void Rosched_Set_debug(int on);

#ifdef __cplusplus
}  // extern "C"

namespace rosched::mpi {

// The same, for C++ callers.
inline int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return Rosched_Bcast(buffer, count, datatype, root, comm);
}
inline int bcast_circulant(void* buffer, int count, MPI_Datatype datatype, int root,
                           MPI_Comm comm) {
  return Rosched_Bcast_circulant(buffer, count, datatype, root, comm);
}
inline int bcast_node_aware(void* buffer, int count, MPI_Datatype datatype, int root,
                            MPI_Comm comm) {
  return Rosched_Bcast_node_aware(buffer, count, datatype, root, comm);
}
inline int allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return Rosched_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
inline int allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                      MPI_Comm comm) {
  return Rosched_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            comm);
}
inline int allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm) {
  return Rosched_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}
inline int allreduce_census(const void* sendbuf, void* recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return Rosched_Allreduce_census(sendbuf, recvbuf, count, datatype, op, comm);
}
inline int allreduce_scatter_gather(const void* sendbuf, void* recvbuf, int count,
                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return Rosched_Allreduce_scatter_gather(sendbuf, recvbuf, count, datatype, op, comm);
}
inline int reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return Rosched_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
}
inline int reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return Rosched_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
}

inline int bcast_two_tree(void* buffer, int count, MPI_Datatype datatype, int root,
                          MPI_Comm comm) {
  return Rosched_Bcast_two_tree(buffer, count, datatype, root, comm);
}
inline int reduce_two_tree(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, int root, MPI_Comm comm) {
  return Rosched_Reduce_two_tree(sendbuf, recvbuf, count, datatype, op, root, comm);
}
inline int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm) {
  return Rosched_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}
inline int reduce_circulant(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, int root, MPI_Comm comm) {
  return Rosched_Reduce_circulant(sendbuf, recvbuf, count, datatype, op, root, comm);
}
inline int reduce_binomial(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, int root, MPI_Comm comm) {
  return Rosched_Reduce_binomial(sendbuf, recvbuf, count, datatype, op, root, comm);
}
inline int allreduce_two_tree(const void* sendbuf, void* recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return Rosched_Allreduce_two_tree(sendbuf, recvbuf, count, datatype, op, comm);
}

inline int bcast_hypercube(void* buffer, int count, MPI_Datatype datatype, int root,
                           MPI_Comm comm) {
  return Rosched_Bcast_hypercube(buffer, count, datatype, root, comm);
}

inline int allmerge(const void* sendbuf, int sendcount, void* recvbuf, const int recvcounts[],
                    MPI_Datatype datatype, Rosched_Merge_fn* merge_fn, void* state,
                    MPI_Comm comm, int algorithm = ROSCHED_ALLMERGE_AUTO) {
  return Rosched_Allmerge(sendbuf, sendcount, recvbuf, recvcounts, datatype, merge_fn, state,
                          comm, algorithm);
}

}  // namespace rosched::mpi
#endif

#endif /* ROSCHED_MPI_EXEC_ROSCHED_MPI_H_ */
