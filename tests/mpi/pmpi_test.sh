#!/usr/bin/env bash
# The interposition library under an MPI program that knows nothing of rosched
# (plain_mpi_program.c), for p = 1..9 (ROSCHED_MPI_TEST_P overrides): its output (every
# result checked by the program itself, and a hash of every rank's receive buffer per call) must
# be identical without the library and with it: LD_PRELOAD with ROSCHED_PMPI=force, auto, auto
# with low thresholds (a mix of both implementations), off, and the program linked against the
# library. The report (TSV) must show where the calls went: all to rosched under force, none
# under off, some of each under the low thresholds; forced reductions under what ran (k-nomial on
# one node, node-aware on nodes of 2 or 3). Invalid arguments under MPI_ERRORS_RETURN
# return the same class. A bad control is a clear error.
# Args: plain_mpi_program plain_mpi_program_linked librosched_pmpi.so
set -u
bin="$(realpath "$1")"
linked="$(realpath "$2")"
lib="$(realpath "$3")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0; failed=0
ok() { passed=$((passed + 1)); echo "ok: $*"; }
fail() { failed=$((failed + 1)); echo "FAILED: $*"; }

# run NAME NP PROGRAM ENV... -- ARGS: stdout to $tmp/NAME.out, report TSV to $tmp/NAME.tsv.
run() {
  local name=$1 np=$2 prog=$3; shift 3
  local env=()
  while [ "$1" != "--" ]; do env+=(-x "$1"); shift; done
  shift
  timeout 300 mpirun -np "$np" --oversubscribe -x ROSCHED_PMPI_REPORT=1 \
    -x ROSCHED_PMPI_REPORT_TSV="$tmp/$name.tsv" "${env[@]}" "$prog" "$@" \
    > "$tmp/$name.out" 2> "$tmp/$name.err"
}

# Sums of the report's calls over rows that went to rosched and to the MPI library.
routed() { awk -F'\t' 'NR > 1 { if ($2 == "native") n += $3; else r += $3 } END { print r + 0, n + 0 }' "$1"; }
# calls_of COLLECTIVE IMPLEMENTATION REPORT.tsv: the report's calls of that collective there.
calls_of() { awk -F'\t' -v c="$1" -v i="$2" '$1 == c && $2 == i { n += $3 } END { print n + 0 }' "$3"; }

threshold="bcast=4096,allgather=4096,allgatherv=4096,reduce=4096,allreduce=4096,alltoall=256"
for np in ${ROSCHED_MPI_TEST_P:-1 2 3 4 5 6 7 8 9}; do
  args=(--seed "$np" --calls 40)
  run native "$np" "$bin" -- "${args[@]}"
  if [ $? -ne 0 ] || ! grep -q "^plain mpi program p=$np: 40 calls, 0 failed$" "$tmp/native.out"; then
    fail "p=$np without the library"; tail -5 "$tmp/native.out" "$tmp/native.err"; continue
  fi
  for mode in force auto low off linked; do
    case $mode in
      force) run $mode "$np" "$bin" LD_PRELOAD="$lib" ROSCHED_PMPI=force -- "${args[@]}" ;;
      auto) run $mode "$np" "$bin" LD_PRELOAD="$lib" -- "${args[@]}" ;;
      low) run $mode "$np" "$bin" LD_PRELOAD="$lib" ROSCHED_PMPI_THRESHOLD="$threshold" -- "${args[@]}" ;;
      off) run $mode "$np" "$bin" LD_PRELOAD="$lib" ROSCHED_PMPI=off -- "${args[@]}" ;;
      linked) run $mode "$np" "$linked" ROSCHED_PMPI=force -- "${args[@]}" ;;
    esac
    rc=$?
    if [ $rc -ne 0 ] || ! cmp -s "$tmp/native.out" "$tmp/$mode.out"; then
      fail "p=$np $mode: output differs from the run without the library (exit $rc)"
      diff "$tmp/native.out" "$tmp/$mode.out" | head -5; tail -5 "$tmp/$mode.err"; continue
    fi
    if ! grep -q "^rosched_pmpi report: ROSCHED_PMPI=" "$tmp/$mode.err"; then
      fail "p=$np $mode: no report on stderr"; continue
    fi
    read -r rosched native < <(routed "$tmp/$mode.tsv")
    case $mode in
      force|linked) want=$([ "$native" -eq 0 ] && [ "$rosched" -ge 40 ] && echo y) ;;
      off) want=$([ "$rosched" -eq 0 ] && [ "$native" -ge 40 ] && echo y) ;;
      low) want=$([ "$np" -eq 1 ] && [ "$rosched" -eq 0 ] && echo y
                  [ "$np" -gt 1 ] && [ "$rosched" -gt 0 ] && [ "$native" -gt 0 ] && echo y) ;;
      auto) want=$([ $((rosched + native)) -ge 40 ] && echo y) ;;
    esac
    if [ "$want" = y ]; then ok "p=$np $mode: identical output; report: $rosched calls to rosched, $native native"
    else fail "p=$np $mode: report says $rosched calls to rosched, $native native"; cat "$tmp/$mode.tsv"; fi
    # Forced, the program's last reduction (one long, MPI_SUM) is Rosched_Reduce_node_aware's
    # k-nomial tree on this one node, and the report says so (it said "twotree" for every one).
    if [ "$mode" = force ] && [ "$np" -gt 1 ]; then
      if [ "$(calls_of reduce knomial "$tmp/$mode.tsv")" -gt 0 ]; then ok "p=$np force: the k-nomial reductions named"
      else fail "p=$np force: no reduction reported as knomial"; cat "$tmp/$mode.tsv"; fi
    fi
  done
done

# Auto (and force) on nodes of 2 or 3 ranks (ROSCHED_NODE_SIZE, equal nodes): all-reduces of any size with
# a commutative operation go to the lane all-reduces (the report's "nodeaware" route of allreduce,
# Rosched_Allreduce_node_aware; the sub-communicators' may not sit on equal nodes); the output
# must still be identical.
for np in 4 6 9; do
  case " ${ROSCHED_MPI_TEST_P:-4 6 9} " in *" $np "*) ;; *) continue ;; esac
  size=$([ $((np % 2)) -eq 0 ] && echo 2 || echo 3)
  args=(--seed "$np" --calls 80)
  run native "$np" "$bin" -- "${args[@]}"
  run nodes "$np" "$bin" LD_PRELOAD="$lib" ROSCHED_NODE_SIZE="$size" -- "${args[@]}"
  rc=$?
  if [ $rc -ne 0 ] || ! cmp -s "$tmp/native.out" "$tmp/nodes.out"; then
    fail "p=$np auto on nodes of $size: output differs from the run without the library (exit $rc)"
    diff "$tmp/native.out" "$tmp/nodes.out" | head -5; tail -5 "$tmp/nodes.err"; continue
  fi
  lanes=$(calls_of allreduce nodeaware "$tmp/nodes.tsv")
  if [ "$lanes" -gt 0 ]; then ok "p=$np auto on nodes of $size: identical output; $lanes all-reduces in lanes"
  else fail "p=$np auto on nodes of $size: no all-reduce went to the lane all-reduces"; cat "$tmp/nodes.tsv"; fi
  # Forced on the same nodes: identical output, and the program's last reduction (MPI_SUM) is
  # Rosched_Reduce_node_aware's node-aware one, reported as such (it was "twotree").
  run force_nodes "$np" "$bin" LD_PRELOAD="$lib" ROSCHED_PMPI=force ROSCHED_NODE_SIZE="$size" -- "${args[@]}"
  rc=$?
  if [ $rc -ne 0 ] || ! cmp -s "$tmp/native.out" "$tmp/force_nodes.out"; then
    fail "p=$np force on nodes of $size: output differs from the run without the library (exit $rc)"
    diff "$tmp/native.out" "$tmp/force_nodes.out" | head -5; tail -5 "$tmp/force_nodes.err"
  elif [ "$(calls_of reduce nodeaware "$tmp/force_nodes.tsv")" -gt 0 ]; then
    ok "p=$np force on nodes of $size: identical output; node-aware reductions named"
  else fail "p=$np force on nodes of $size: no reduction reported as nodeaware"; cat "$tmp/force_nodes.tsv"; fi
done

# Error classes under MPI_ERRORS_RETURN (plain_mpi_program --errors: twelve invalid calls).
for np in 1 3; do
  run err_native "$np" "$bin" -- --errors
  for mode in auto force; do
    run "err_$mode" "$np" "$bin" LD_PRELOAD="$lib" ROSCHED_PMPI=$mode -- --errors
    if cmp -s "$tmp/err_native.out" "$tmp/err_$mode.out" &&
       [ "$(grep -c ": [1-9][0-9]*$" "$tmp/err_native.out")" -eq 12 ]; then
      ok "p=$np errors $mode: the same twelve error classes"
    else
      fail "p=$np errors $mode"; diff "$tmp/err_native.out" "$tmp/err_$mode.out"
    fi
  done
done

# A control that cannot be parsed stops the job with a message naming it.
for bad in "ROSCHED_PMPI=fast" "ROSCHED_PMPI_ONLY=bcast,gather" "ROSCHED_PMPI_THRESHOLD=reduce=-5"; do
  run bad 2 "$bin" LD_PRELOAD="$lib" "$bad" -- --calls 3
  rc=$?
  if [ $rc -ne 0 ] && grep -q "^rosched_pmpi: ${bad%%=*}: " "$tmp/bad.err"; then
    ok "$bad: exit $rc, $(grep -m1 "^rosched_pmpi: " "$tmp/bad.err")"
  else
    fail "$bad: exit $rc"; tail -3 "$tmp/bad.err"
  fi
done
echo "pmpi: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
