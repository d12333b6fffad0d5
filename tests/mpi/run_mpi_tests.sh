#!/usr/bin/env bash
# Runs the MPI collectives test program under Open MPI's mpirun for p = 1..9 processes (more
# than the 2 cores here: oversubscribed), once with the default block sizes and once with many
# blocks (--many-blocks), and from p = 4 the broadcasts on nodes of 2 and 3 ranks (--nodes=K);
# at p = 6 and 9 (nodes of 3) also with the multi-lane all-reduce pipelined in 3 chunks (p = 6)
# and in one, its lanes on n ports where their rule says so (p = 9), and the node-aware
# reduction's long vectors in the multi-lane form (ROSCHED_NODE_REDUCE=lanes); at
# p = 3 and 8 the allgathervs with one block per contribution, rounds streamed (--one-block);
# then the C interface at p = 1 and 3 and four threads per process at p = 2 and 3. At p = 5 and 7
# with many blocks, scratch buffers are never kept / kept in at most 1536 KiB
# (ROSCHED_SCRATCH_KEEP=0 / 1536K: every buffer made per call, or evictions at every turn).
# ROSCHED_MPI_TEST_P, if set, lists other process counts (the sanitized
# run of scripts/test.sh takes fewer). Ends with the summed "N passed, M failed" line.
set -u
bin="$(realpath "$1")"
c_bin="$(realpath "$2")"
threads_bin="$(realpath "$3")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
passed=0; failed=0; status=0
for np in ${ROSCHED_MPI_TEST_P:-1 2 3 4 5 6 7 8 9}; do
  modes=("" --many-blocks)
  # The node-aware broadcast on nodes of 2 and 3 consecutive ranks (short last nodes at odd p).
  [ "$np" -ge 4 ] && modes+=(--nodes=2 --nodes=3)
  [ $((np % 3)) -eq 0 ] && [ "$np" -ge 6 ] && modes+=(chunks)
  [ "$np" -eq 3 ] || [ "$np" -eq 8 ] && modes+=(--one-block)
  for mode in "${modes[@]}"; do
    chunks=; form=
    case $mode in
      "") name="p=$np" ;;
      --many-blocks) name="p=$np many blocks" ;;
      --one-block) name="p=$np one block" ;;
      --nodes=*) name="p=$np nodes of ${mode#--nodes=}" ;;
      chunks) name="p=$np nodes of 3"; mode=--nodes=3; chunks=$((np == 9 ? 1 : 3)); form=lanes ;;
    esac
    keep=
    [ "$mode" = --many-blocks ] && [ "$np" -eq 5 ] && keep=0
    [ "$mode" = --many-blocks ] && [ "$np" -eq 7 ] && keep=1536K
    [ -z "$chunks" ] || echo "(ROSCHED_LANE_CHUNKS=$chunks ROSCHED_NODE_REDUCE=$form)"
    [ -z "$keep" ] || echo "(ROSCHED_SCRATCH_KEEP=$keep)"
    out=$(ROSCHED_LANE_CHUNKS=$chunks ROSCHED_NODE_REDUCE=$form ROSCHED_SCRATCH_KEEP=$keep \
          timeout 300 mpirun -x ROSCHED_LANE_CHUNKS -x ROSCHED_NODE_REDUCE -x ROSCHED_SCRATCH_KEEP \
          -np "$np" --oversubscribe "$bin" $mode 2>&1)
    rc=$?
    line=$(echo "$out" | grep -E "^$name: [0-9]+ passed, [0-9]+ failed$")
    echo "${line:-$name: no result (exit $rc)}"
    if [ -z "$line" ]; then echo "$out" | tail -20; status=1; failed=$((failed + 1)); continue; fi
    # the failed checks first (they can be far from the end), then how the run ended
    [ $rc -eq 0 ] || { echo "$out" | grep "^FAIL" | head -20; echo "$out" | grep -v "^p=\|^FAIL" | tail -20; status=1; }
    counts=${line##*: }
    passed=$((passed + $(echo "$counts" | awk '{print $1}')))
    failed=$((failed + $(echo "$counts" | awk '{print $3}')))
  done
done
for np in 1 3; do  # the C interface
  out=$(timeout 60 mpirun -np "$np" --oversubscribe "$c_bin" 2>&1)
  if echo "$out" | grep -q "^c api p=$np: ok$"; then passed=$((passed + 1)); echo "c api p=$np: ok"
  else failed=$((failed + 1)); status=1; echo "$out" | grep "^FAIL" | head; echo "$out" | tail -5; fi
done
for np in 2 3; do  # four threads per process, each on its own communicator
  out=$(timeout 300 mpirun -np "$np" --oversubscribe "$threads_bin" 2>&1)
  if echo "$out" | grep -q "^threads p=$np: ok$"; then passed=$((passed + 1)); echo "threads p=$np: ok"
  else failed=$((failed + 1)); status=1; echo "$out" | grep -v "^rosched" | tail -20; fi
done
echo "mpi: $passed passed, $failed failed"
[ $status -eq 0 ] && [ $failed -eq 0 ]
