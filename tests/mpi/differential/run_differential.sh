#!/usr/bin/env bash
# Runs the differential test program (tests/mpi/differential) under Open MPI's mpirun at
# p = 1..5 (oversubscribed from p = 3: two cores; D also at p = 6, two equal nodes of 3, where the
# node-aware collectives take their equal-node forms) in three configurations, with fixed seeds:
#   A  the defaults: the library's own choices, timed trials and all;
#   B  every choosing collective forced to rosched's algorithms (ROSCHED_<COLLECTIVE>=rosched,
#      the all-to-alls and the merge-allreduce's AUTO included);
#   D  B on nodes of 3 with many tiny blocks (ROSCHED_*_F=0.05), 7 parts per streamed round, a
#      window of 1, synchronous sends, a 2-way n-way all-reduce, 2 reduce ports, 3 lane chunks,
#      3-ary trees and one block per all-gatherv contribution; the merge-allreduce's AUTO on the
#      library's all-gather (ROSCHED_ALLMERGE=native).
# CASES cases per run in A and B, CASES / 3 in D (its tiny parts and synchronous sends make its
# large cases the slowest).
# Usage: run_differential.sh PROGRAM [SEED [CASES [CONFIGS]]]   (defaults 20261201, 1200 and
# "A B D"; a configuration's seeds do not depend on which others run)
# Each mpirun has its own timeout (240 s; 480 at p = 6, six processes on two cores). Prints a line per run, the FAIL lines of a failed run with
# the command that reproduces it, and last the summed "N passed, M failed"; exits 1 if a case
# failed or a run ended without its result line (a crash, a hang, a timeout).
set -u
# shellcheck disable=SC2046  # one word per variable
unset $(compgen -e | grep '^ROSCHED_')  # each configuration sets its own
bin="$(realpath "$1")"
seed=${2:-20261201}
cases=${3:-1200}
configs=${4:-A B D}
for config in $configs; do
  case $config in A|B|D) ;; *) echo "run_differential.sh: unknown configuration '$config' (A, B or D)" >&2; exit 2 ;; esac
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
forced="ROSCHED_BCAST=rosched ROSCHED_REDUCE=rosched ROSCHED_ALLREDUCE=rosched"
forced+=" ROSCHED_ALLGATHER=rosched ROSCHED_ALLGATHERV=rosched ROSCHED_REDUCE_SCATTER=rosched"
forced+=" ROSCHED_ALLTOALL=rosched ROSCHED_ALLTOALLV=rosched ROSCHED_ALLMERGE=rosched"
tiny="${forced/ROSCHED_ALLMERGE=rosched/ROSCHED_ALLMERGE=native} ROSCHED_NODE_SIZE=3 ROSCHED_BCAST_F=0.05 ROSCHED_TWOTREE_F=0.05"
tiny+=" ROSCHED_HYPERCUBE_F=0.05 ROSCHED_KARY_F=0.05 ROSCHED_STREAM_PART=7 ROSCHED_WINDOW=1"
tiny+=" ROSCHED_SENDS=sync ROSCHED_NWAY_N=2 ROSCHED_REDUCE_PORTS=2 ROSCHED_LANE_CHUNKS=3"
tiny+=" ROSCHED_KARY_DEGREE=3 ROSCHED_ALLGATHERV_G=1"
passed=0; failed=0; status=0
for config in $configs; do
  case $config in
    A) settings=""; n=$cases; config_seed=$seed; nps="1 2 3 4 5" ;;
    B) settings=$forced; n=$cases; config_seed=$((seed + 100)); nps="1 2 3 4 5" ;;
    D) settings=$tiny; n=$((cases / 3)); config_seed=$((seed + 200)); nps="1 2 3 4 5 6" ;;
  esac
  for np in $nps; do
    run_seed=$((config_seed + np))
    start=$SECONDS
    limit=$((np >= 6 ? 480 : 240))
    # shellcheck disable=SC2086  # settings is a list of NAME=value words
    out=$(env $settings timeout "$limit" mpirun -np "$np" --oversubscribe "$bin" "$run_seed" 0 "$n" \
          2>&1)
    rc=$?
    line=$(echo "$out" |
           grep -E "^differential seed=$run_seed p=$np: [0-9]+ passed, [0-9]+ failed$")
    if [ -n "$line" ]; then
      echo "$config p=$np seed=$run_seed: ${line##*: } ($((SECONDS - start)) s)"
    else
      echo "$config p=$np seed=$run_seed: no result (exit $rc)"
    fi
    if [ -z "$line" ] || [ $rc -ne 0 ]; then
      status=1
      # the failed cases with their first differing bytes, a sanitizer's report, how the run ended
      details="^FAIL|^  \[world|^     (rosched|mpi): "
      sanitizer="^==[0-9]+==|runtime error|^SUMMARY: |^    #[0-9]"
      echo "$out" | grep -E "$details" | head -40
      echo "$out" | grep -E "$sanitizer" | head -30
      echo "$out" | grep -vE "$details|$sanitizer|^rosched " | tail -10
      first=$(echo "$out" | grep -m1 -o "^FAIL case=[0-9]*" | cut -d= -f2)
      # the failed case alone; without one (a hang, a crash) every case, named before its call
      if [ -n "$first" ]; then range="$run_seed $first 1"; else range="--verbose $run_seed 0 $n"; fi
      echo "reproduce:" ${settings:+env $settings} mpirun -np "$np" --oversubscribe "$bin" "$range"
    fi
    if [ -z "$line" ]; then failed=$((failed + 1)); continue; fi
    counts=${line##*: }
    passed=$((passed + $(echo "$counts" | awk '{print $1}')))
    failed=$((failed + $(echo "$counts" | awk '{print $3}')))
  done
done
echo "differential: $passed passed, $failed failed"
[ $status -eq 0 ] && [ $failed -eq 0 ]
