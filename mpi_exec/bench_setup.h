// bench --rewarm until-setup: seeing the MPI library set MPI_COMM_WORLD up. SimGrid SMPI 3.32
// does so once per communicator, at the first collective whose algorithm needs the node
// structure (Comm::init_smp, a ring all-gather of every rank's node: p - 1 rounds). That can be
// bench's own first MPI_Allreduce (flat platform, 256 ranks: 2,126 us against 32 under each of
// the four selectors; Intel MPI's already at the first MPI_Barrier) or the first native call of
// some size (Open MPI's selector on the paper's cluster, 36 ranks: the first 4 KiB broadcast,
// 314 us against 14.7). Once it has been seen, no later call can pay it, and bench's untimed
// call of the native collective before every size (what --rewarm every does) buys nothing.
#ifndef ROSCHED_MPI_EXEC_BENCH_SETUP_H_
#define ROSCHED_MPI_EXEC_BENCH_SETUP_H_

namespace rosched::mpi {

// Whether a first call of `first` seconds paid a set-up that its repeat (`again` seconds, the
// same call right after) did not: more than twice as long, and longer by over a microsecond.
bool paid_setup(double first, double again);

// Times MPI_COMM_WORLD's first MPI_Barrier and first MPI_Allreduce (four doubles, as bench's
// measure uses) against their repeats, each call from ranks aligned by a point-to-point
// dissemination barrier (which sets nothing up), the slowest rank's time. True on every rank if
// either paid a set-up. Collective; call it before any other collective on MPI_COMM_WORLD.
bool first_collectives_paid_setup();

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_BENCH_SETUP_H_
