// Local computation charged to the simulated clock, kernel by kernel, for SimGrid SMPI runs that
// charge the work of an algorithm and not the simulator's own.
//
// Why: with smpi/host-speed, SMPI charges the real time of all code between two MPI calls of a
// rank as computation, and that includes part of SMPI's own work for each call (measured on
// this machine, two ranks: MPI_Irecv + MPI_Isend + MPI_Waitall take 4.0 us of simulated time
// without charging and 7.1 us with it; MPI_Comm_size 0.1 us). A collective built from
// point-to-point calls pays that for every call; SMPI's built-in collectives, which call its
// internals directly, never do. And all simulated ranks share this machine's caches: a kernel
// that runs right after the other ranks' turns finds its data, code and stack evicted (measured:
// a tiny merge of Rosched_Allmerge charged 0.47 us at 8 simulated ranks, 0.77 at 64, 1.41 at
// 256), which a rank with a core of its own does not pay.
//
// With ROSCHED_CHARGE_KERNELS set in an SMPI build (scripts/simulate.sh --compute kernels, which
// also turns smpi/simulate-computation off), charge_rerun runs a kernel again right after its
// real run (or after a reset that restores its input) and charges that run's CPU time, less the
// cost of reading the clock, with smpi_execute: the merges of Rosched_Allmerge (merge_kernel.cc)
// and bench's std::sort are charged, warm as on a core of their own, and the code between MPI
// calls is not. Elsewhere (any other MPI, or the variable unset) nothing is run again and
// nothing is charged.
#ifndef ROSCHED_MPI_EXEC_COMPUTE_CHARGE_H_
#define ROSCHED_MPI_EXEC_COMPUTE_CHARGE_H_

namespace rosched::mpi {

// Whether kernels are charged: an SMPI build with ROSCHED_CHARGE_KERNELS set (read once).
bool charging_kernels();

// Seconds of this thread's CPU time (a real clock also under SMPI, which simulates the usual
// clocks; not the wall clock, so that other load on this machine is not charged).
double thread_cpu_seconds();

// Charges `seconds` of CPU time, less what a reading of the clock costs, to this rank's
// simulated clock (SMPI builds only).
void charge_cpu(double seconds);

// When charging: three times reset() (not charged) and kernel(); the shortest of the three
// kernel() runs is charged (the others may have met an interrupt or a page fault, which with
// thousands of ranks whose results depend on each other would add up along every chain). The
// caller runs the kernel for real before or after; reset makes each run do the same work.
template <typename Reset, typename Kernel>
void charge_rerun(Reset&& reset, Kernel&& kernel) {
  if (!charging_kernels()) return;
  double best = 1e300;
  for (int i = 0; i < 3; ++i) {
    reset();
    const double start = thread_cpu_seconds();
    kernel();
    const double t = thread_cpu_seconds() - start;
    if (t < best) best = t;
  }
  charge_cpu(best);
}

}  // namespace rosched::mpi

#endif  // ROSCHED_MPI_EXEC_COMPUTE_CHARGE_H_
