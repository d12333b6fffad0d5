#!/usr/bin/env bash
# scripts/simulate.sh --quick: the SimGrid SMPI harness at p = 64 writes a TSV with the right
# columns and rows, its ratio rows divide by the best selector, --check verifies real results,
# the interposition library, the synchronised start, allmerge with unequal blocks and the
# node-aware collectives on simulated multicore nodes run under SMPI, the backbone probe measures
# flat288's backbone, a run whose bench fails makes simulate.sh exit 1, and bad options fail with
# exit status 2. Runs on
# the source tree (tag "local": smpicxx builds outside Bazel), into the test's temporary
# directory.
set -u
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
export ROSCHED_SMPI_BUILD="$tmp/build"
sim="$root/scripts/simulate.sh"
fail=0
ok() { echo "ok   $1 (${SECONDS} s)"; }  # seconds since the start: where the time goes
bad() { echo "FAIL $1 (${SECONDS} s)"; fail=1; }

tsv="$tmp/quick.tsv"
if bash "$sim" --quick --out "$tsv" 2>"$tmp/quick.err"; then ok "--quick exits 0"
else bad "--quick exit status"; tail -20 "$tmp/quick.err"; fi
[ "$(head -1 "$tsv")" = "$(printf 'op\timpl\tselector\tplatform\tp\tbytes\tusec')" ] && ok "header" || bad "header: $(head -1 "$tsv")"
# Rows per op for 3 sizes: our implementations under the first selector (bcast: circulant,
# twotree, hypercube, kary, knomial, auto, not node, which is the circulant broadcast with one rank per host,
# nor on flat the scatter + all-gather, rsag; allgather: circulant, nway, node, auto; allgatherv, each of
# its three distributions: circulant, nway, node, largest, auto; reduce: binomial, twotree, circulant, kary,
# rsag, nport, node, auto; allreduce: circulant, rsag, nport, twotree, nway, knomial, node, auto),
# native under all 4 (once each, though auto runs apart from the others), one ratio row per
# implementation of ours.
for want in bcast:48 allgather:36 allgatherv:42 allgatherv_uniform:42 allgatherv_one:42 reduce:60 allreduce:60; do
  o=${want%%:*} n=${want##*:}
  got=$(awk -F'\t' -v o="$o" '$1 == o' "$tsv" | wc -l)
  [ "$got" = "$n" ] && ok "$o: $n rows" || bad "$o: $got rows, want $n"
done
bad_rows=$(awk -F'\t' 'NR > 1 && (NF != 7 || $4 != "flat" || $5 != 64 || $7 !~ /^[0-9.]+$/ || $7 <= 0 ||
  ($6 != 4 && $6 != 1024 && $6 != 65536) || $3 !~ /^(ompi|mpich|mvapich2|impi)$/)' "$tsv")
[ -z "$bad_rows" ] && ok "every row well-formed, positive time" || bad "malformed rows: $bad_rows"
natives=$(awk -F'\t' '$1 == "bcast" && $2 == "native" { print $3 }' "$tsv" | sort -u | tr '\n' ' ')
[ "$natives" = "impi mpich mvapich2 ompi " ] && ok "native bcast under four selectors" || bad "selectors: $natives"
# Each ratio row is ours / the fastest native at that size, and names that selector.
ratio_err=$(awk -F'\t' '
  NR > 1 && $2 == "native" { k = $1 "/" $6; if (!(k in b) || $7 < b[k]) { b[k] = $7; s[k] = $3 } }
  NR > 1 && $2 !~ /^(native|ratio-)/ { t[$1 "/" $2 "/" $6] = $7 }
  NR > 1 && $2 ~ /^ratio-/ { r[++n] = $0 }
  END { for (i = 1; i <= n; ++i) { split(r[i], f, "\t"); k = f[1] "/" f[6]; impl = substr(f[2], 7)
          want = t[f[1] "/" impl "/" f[6]] / b[k]
          if (f[3] != s[k] || f[7] - want > 0.002 || want - f[7] > 0.002) print r[i] } }' "$tsv")
[ -z "$ratio_err" ] && ok "ratio rows against the best selector" || bad "ratio rows: $ratio_err"

if bash "$sim" --quick --check --selectors ompi,mpich --out "$tmp/check.tsv" 2>"$tmp/check.err"; then
  ok "--quick --check: every result verified"
else bad "--quick --check"; tail -20 "$tmp/check.err"; fi

# The interposition library under SMPI: bench_pmpi's native collectives all routed to rosched
# (ROSCHED_PMPI=force), every result verified with real buffers.
if ROSCHED_PMPI=force bash "$sim" --quick --check --selectors ompi --impls pmpi --out "$tmp/pmpi.tsv" 2>"$tmp/pmpi.err"; then
  ok "--quick --check --impls pmpi under ROSCHED_PMPI=force: every result verified"
else bad "--quick --check --impls pmpi"; tail -20 "$tmp/pmpi.err"; fi
got=$(awk -F'\t' '$2 == "pmpi"' "$tmp/pmpi.tsv" | wc -l)
[ "$got" = 21 ] && ok "pmpi: 21 rows (7 ops x 3 sizes)" || bad "pmpi: $got rows, want 21"

# Rosched_Alltoallv's own choice where Bruck wins (64 ranks on flat, Open MPI's selector's
# pairwise MPI_Alltoallv, 254 us at 16 B): the first call's one-byte trial keeps the per-call
# choice, whose trials (debug mode: every candidate's result checked) and results (--check) are
# right, and it runs Bruck at 16 B (simulated time, deterministic: 0.19 of the library's,
# 0.48 in debug mode).
if ROSCHED_DEBUG=1 bash "$sim" --p 64 --op alltoallv --sizes 16,1024 --selectors ompi --impls auto \
     --check --out "$tmp/a2av.tsv" 2>"$tmp/a2av.err"; then ok "alltoallv auto --check (debug) at p = 64"
else bad "alltoallv auto --check"; tail -20 "$tmp/a2av.err"; fi
got=$(awk -F'\t' '$2 == "ratio-auto" && $6 == 16 && $7 < 1' "$tmp/a2av.tsv" | wc -l)
[ "$got" = 2 ] && ok "alltoallv: Bruck kept at 16 B (uniform, power-law)" || bad "alltoallv at 16 B: $(grep ratio "$tmp/a2av.tsv")"

# --measure sync: every rank starts at one agreed instant (bench warns and says "apart" when
# they did not), for the collective whose rounds the barrier's skew would hide most. With
# ROSCHED_VERBOSE=1 and --log, the library's lines of each run kept under the run's header.
if ROSCHED_VERBOSE=1 bash "$sim" --p 64 --op allreduce --sizes 4,1024,65536 --selectors ompi \
     --measure sync --out "$tmp/sync.tsv" --log "$tmp/sync.log" 2>"$tmp/sync.err" &&
   ! grep -q "apart" "$tmp/sync.err"; then ok "--measure sync: ranks started together"
else bad "--measure sync"; tail -20 "$tmp/sync.err"; fi
got=$(awk -F'\t' '$1 == "allreduce"' "$tmp/sync.tsv" | wc -l)
[ "$got" = 51 ] && ok "sync: 51 allreduce rows" || bad "sync: $got allreduce rows, want 51"
heads=$(grep -c '^# allreduce under ompi (' "$tmp/sync.log" 2>/dev/null)
trials=$(grep -c '^rosched Rosched_Allreduce: p = 64, [0-9]* bytes timed: ' "$tmp/sync.log" 2>/dev/null)
others=$(grep -v -c -E '^(# |rosched )' "$tmp/sync.log" 2>/dev/null)
[ "$heads" = 2 ] && [ "$trials" = 3 ] && [ "$others" = 0 ] &&
  ok "--log: 2 runs' headers, auto's trial at each of 3 sizes, nothing else" ||
  bad "--log: $heads headers, $trials trials, $others other lines"

# --op allgatherv_rmod3: the (r mod 3) counts alone, rows named allgatherv; each run's line
# ends with its peak memory.
if bash "$sim" --p 8 --op allgatherv_rmod3 --sizes 1024 --selectors ompi --impls circulant \
     --out "$tmp/rmod3.tsv" 2>"$tmp/rmod3.err"; then ok "--op allgatherv_rmod3 exits 0"
else bad "--op allgatherv_rmod3"; tail -20 "$tmp/rmod3.err"; fi
got=$(awk -F'\t' 'NR > 1 { print $1 }' "$tmp/rmod3.tsv" | sort | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')
[ "$got" = "allgatherv:3 " ] && ok "allgatherv_rmod3: 3 allgatherv rows" || bad "allgatherv_rmod3 rows: $got"
grep -Eq 'done allgatherv ompi .*, peak memory [0-9]+\.[0-9] GiB$' "$tmp/rmod3.err" &&
  ok "peak memory reported" || bad "no peak memory line: $(grep done "$tmp/rmod3.err")"

# allmerge with rank 0 holding half of all elements (many empty blocks; runs of several parts
# sent as one message), results verified with real buffers under SMPI, whose MPI_Isend refuses
# a null buffer with a count above 0 (an empty part has no storage).
if bash "$sim" --p 16 --op allmerge_half --sizes 4,400 --selectors ompi --check --out "$tmp/half.tsv" 2>"$tmp/half.err"; then
  ok "allmerge_half --check at p = 16"
else bad "allmerge_half --check"; tail -20 "$tmp/half.err"; fi
# per size: native, alg0-2 and auto (ROSCHED_ALLMERGE_AUTO's timed choice), 4 ratio rows
got=$(awk -F'\t' '$1 == "allmerge_half"' "$tmp/half.tsv" | wc -l)
[ "$got" = 18 ] && ok "allmerge_half: 18 rows" || bad "allmerge_half: $got rows, want 18"
got=$(awk -F'\t' 'NR > 1 && $1 == "allmerge_half" && $2 ~ /^alg[012]$/ && $7 >= 1' "$tmp/half_moves.tsv" | wc -l)
[ "$got" = 6 ] && ok "allmerge_half: merge work of 3 algorithms x 2 sizes" || bad "allmerge_half moves: $got rows, want 6"

# The node-aware broadcast and all-gathers on SMPI's own nodes (MPI_COMM_TYPE_SHARED: one node
# per simulated host; paper platform, 64 ranks on 32 hosts), results verified; the all-reduce
# and the reduce-scatters also at 1 MiB, where they run in chunks (4 and 2).
for o in bcast allgather allgatherv reduce allreduce reduce_scatter_block reduce_scatter; do
  sizes=4,65536
  case $o in allreduce | reduce_scatter*) sizes=4,65536,1048576 ;; esac
  if bash "$sim" --platform paper --p 64 --op $o --impls node --sizes $sizes --selectors ompi --check \
      --out "$tmp/node_$o.tsv" 2>"$tmp/node_$o.err"; then
    ok "$o --impls node --check on the paper platform, 2 ranks per node"
  else bad "$o --impls node on paper"; tail -20 "$tmp/node_$o.err"; fi
done

# --compute kernels: the merges and bench's sort are charged by their CPU time (compute_charge.h)
# and nothing else is; with real buffers at p = 8 and 10,000 elements per rank the native
# all-gather + sort and Algorithm 1 take longer than without any charge (the sort of 80,000
# ints alone costs milliseconds of CPU, the communication some tens of microseconds).
# --overhead: one per-message CPU cost on both sides makes every message-bound run slower.
run_col() {  # TSV IMPL: the usec of IMPL's row
  awk -F'\t' -v i="$2" '$2 == i { print $7 }' "$1"
}
if bash "$sim" --p 8 --op allmerge --sizes 40000 --selectors ompi --impls alg1 --check \
     --out "$tmp/plain.tsv" 2>"$tmp/plain.err" &&
   bash "$sim" --p 8 --op allmerge --sizes 40000 --selectors ompi --impls alg1 --check \
     --compute kernels --out "$tmp/kernels.tsv" 2>"$tmp/kernels.err"; then
  n0=$(run_col "$tmp/plain.tsv" native) n1=$(run_col "$tmp/kernels.tsv" native)
  a0=$(run_col "$tmp/plain.tsv" alg1) a1=$(run_col "$tmp/kernels.tsv" alg1)
  awk -v a="$n0" -v b="$n1" 'BEGIN { exit !(b > 5 * a) }' && ok "--compute kernels charges the sort: native $n0 -> $n1 us" ||
    bad "--compute kernels: native $n0 -> $n1 us (want over 5x)"
  awk -v a="$a0" -v b="$a1" 'BEGIN { exit !(b > a + 20) }' && ok "--compute kernels charges the merges: alg1 $a0 -> $a1 us" ||
    bad "--compute kernels: alg1 $a0 -> $a1 us (want 20 us more)"
else bad "--compute kernels run"; tail -20 "$tmp/kernels.err"; fi
if bash "$sim" --p 8 --op bcast --sizes 4 --selectors ompi --impls circulant --out "$tmp/o0.tsv" 2>/dev/null &&
   bash "$sim" --p 8 --op bcast --sizes 4 --selectors ompi --impls circulant --overhead 0.5 \
     --out "$tmp/o5.tsv" 2>"$tmp/o5.err"; then
  c0=$(run_col "$tmp/o0.tsv" circulant) c1=$(run_col "$tmp/o5.tsv" circulant)
  # 3 rounds, each a send and a receive of 0.5 us more: at least 2 us more in all.
  awk -v a="$c0" -v b="$c1" 'BEGIN { exit !(b >= a + 2) }' && ok "--overhead 0.5: circulant bcast $c0 -> $c1 us" ||
    bad "--overhead 0.5: circulant bcast $c0 -> $c1 us (want 2 us more)"
else bad "--overhead run"; tail -20 "$tmp/o5.err"; fi

# bench --rewarm until-setup (simulate.sh's default): Open MPI's selector on the paper's cluster,
# one rank per node, sets MPI_COMM_WORLD up at its first 4 KiB broadcast (314 us against 14.7
# after); bench sees it in native's untimed call, so the timed one does not pay it (faster than
# at 16 KiB), and says so.
if bash "$sim" --p 36 --platform paper --op bcast --sizes 4,1024,4096,16384 --selectors ompi \
     --impls circulant --out "$tmp/setup.tsv" 2>"$tmp/setup.err"; then
  t4k=$(awk -F'\t' '$2 == "native" && $6 == 4096 { print $7 }' "$tmp/setup.tsv")
  t16k=$(awk -F'\t' '$2 == "native" && $6 == 16384 { print $7 }' "$tmp/setup.tsv")
  grep -q "set up in native's first call of 4096 B" "$tmp/setup.err" && ok "set-up seen at 4 KiB" ||
    bad "set-up not reported: $(grep MPI_COMM_WORLD "$tmp/setup.err")"
  awk -v a="$t4k" -v b="$t16k" 'BEGIN { exit !(a > 0 && a < b) }' && ok "4 KiB native $t4k us < 16 KiB $t16k us" ||
    bad "4 KiB native $t4k us, 16 KiB $t16k us: set-up in the timed call?"
else bad "paper p = 36 set-up run"; tail -20 "$tmp/setup.err"; fi

# The pmpi run's native collective is the interposer's, which routes to Rosched_Bcast and so
# pays its trial at each size's first call: bench warms it before every size, as auto, so the
# two time the same broadcasts (before, the timed call of 1 KiB held the trial: 1,104.7 us
# against 8.4).
if bash "$sim" --p 36 --platform paper --op bcast --sizes 4,1024,65536 --selectors ompi \
     --impls auto,pmpi --out "$tmp/pmpi_bcast.tsv" 2>"$tmp/pmpi_bcast.err"; then
  diff_rows=$(awk -F'\t' '$2 == "auto" { a[$6] = $7 } $2 == "pmpi" { m[$6] = $7 }
    END { for (s in a) if (!(s in m) || m[s] > 1.01 * a[s] || m[s] < 0.99 * a[s]) print s ": auto " a[s] ", pmpi " m[s]
          if (length(m) != 3) print "pmpi sizes: " length(m) }' "$tmp/pmpi_bcast.tsv")
  [ -z "$diff_rows" ] && ok "pmpi bcast times auto's at every size (trial untimed)" || bad "pmpi bcast: $diff_rows"
else bad "pmpi bcast run on paper p = 36"; tail -20 "$tmp/pmpi_bcast.err"; fi

# Rosched_Bcast on the paper's nodes, one rank each, where the circulant pipeline sends
# synchronously: the trial of 64 KiB also times that pipeline with 1, 3 and 4 rounds in flight
# (the model's 2 is "circulant"), and the broadcasts, whichever won, deliver exactly (bench
# --check, real buffers; the rounds-in-flight variants run in every repetition after the trial).
hosts36="$tmp/hosts36"
for i in $(seq 0 35); do echo "node-$i"; done >"$hosts36"
if ROSCHED_VERBOSE=1 smpirun -np 36 -platform "$root/sim/platforms/paper.xml" -hostfile "$hosts36" \
     --log=root.thres:warning --cfg=smpi/display-timing:no "$ROSCHED_SMPI_BUILD/bench" --op bcast \
     --impl auto --sizes 16384,16400 --reps 3 --measure sync --check >"$tmp/windows.out" 2>"$tmp/windows.err"; then
  ok "bcast auto on paper p = 36 with --check"
else bad "bcast auto on paper p = 36 with --check"; tail -20 "$tmp/windows.err"; fi
timed=$(grep "timed:" "$tmp/windows.err" | head -1)
for w in "1 round" "3 rounds" "4 rounds"; do
  echo "$timed" | grep -q "circulant, $w in flight [0-9.e-]* s" && ok "trial timed the circulant pipeline, $w in flight" ||
    bad "trial did not time '$w in flight': $timed"
done
# ... and, the ranks' own links limiting there, the scatter + all-gather.
echo "$timed" | grep -q "scatter + all-gather [0-9.e-]* s" && ok "trial timed the scatter + all-gather" ||
  bad "trial did not time the scatter + all-gather: $timed"

# scripts/backbone_probe.sh: 64 ranks of flat288 (a 500 GB/s backbone, 800 GB/s of links): one
# 4 MiB message per rank takes longer than the backbone's nominal bound (SMPI gives large
# transfers 0.94 of a link's bandwidth and adds 5% of reverse traffic), a stream of 64 messages
# of 8 KiB per rank within 10% of it (1.09 of the bandwidth for that size); bad arguments exit 2.
probe="$root/scripts/backbone_probe.sh"
if bash "$probe" --platform flat288 --p 64 --sizes 4194304 >"$tmp/probe1.tsv" 2>"$tmp/probe.err" &&
   bash "$probe" --platform flat288 --p 64 --sizes 8192 --messages 64 >"$tmp/probe64.tsv" 2>>"$tmp/probe.err"; then
  [ "$(head -1 "$tmp/probe1.tsv")" = "$(printf 'platform\tp\tmessages\tbytes\tusec\tbound_usec\tratio')" ] &&
    ok "probe header" || bad "probe header: $(head -1 "$tmp/probe1.tsv")"
  r1=$(awk -F'\t' 'NR == 2 && $2 == 64 && $3 == 1 && $4 == 4194304 { print $7 }' "$tmp/probe1.tsv")
  r64=$(awk -F'\t' 'NR == 2 && $2 == 64 && $3 == 64 && $4 == 8192 { print $7 }' "$tmp/probe64.tsv")
  awk -v r="$r1" 'BEGIN { exit !(r > 1.05 && r < 1.3) }' && ok "probe: 4 MiB at $r1 of the bound" ||
    bad "probe: 4 MiB ratio '$r1'"
  awk -v r="$r64" 'BEGIN { exit !(r > 0.9 && r < 1.1) }' && ok "probe: 64 x 8 KiB at $r64 of the bound" ||
    bad "probe: 64 x 8 KiB ratio '$r64'"
else bad "backbone_probe.sh runs"; tail -5 "$tmp/probe.err"; fi
for args in "--messages 0" "--platform moon" "--sizes 1,x" "--p 1"; do
  bash "$probe" $args >/dev/null 2>&1; rc=$?
  [ $rc -eq 2 ] && ok "probe exit 2 for: $args" || bad "probe exit $rc for: $args (want 2)"
done

# A run whose bench fails (a stand-in that reports a wrong result and exits 1, built with smpicc
# into a build directory of its own, which smpi_build.sh then finds current): exit 1, with
# bench's own message shown (the failure status was lost in a subshell before 2026-11-29).
fake="$tmp/fake_build"
mkdir -p "$fake"
printf '%s\n' '#include <mpi.h>' '#include <stdio.h>' \
  'int main(int argc, char** argv) { MPI_Init(&argc, &argv); int r = 0;' \
  '  MPI_Comm_rank(MPI_COMM_WORLD, &r);' \
  '  if (r == 0) fprintf(stderr, "bench: --check: stand-in gave 1 of 2 ranks a wrong result\n");' \
  '  MPI_Finalize(); return 1; }' >"$fake/fail.c"
if smpicc -o "$fake/bench" "$fake/fail.c" 2>"$tmp/fake.err" && cp "$fake/bench" "$fake/bench_pmpi"; then
  ROSCHED_SMPI_BUILD="$fake" bash "$sim" --p 2 --op bcast --sizes 4 --selectors ompi --impls circulant \
    --out "$tmp/fake.tsv" 2>"$tmp/fake_run.err"; rc=$?
  [ $rc -eq 1 ] && grep -q "stand-in gave 1 of 2 ranks a wrong result" "$tmp/fake_run.err" &&
    ok "a failing bench: exit 1, its message shown" ||
    bad "a failing bench: exit $rc (want 1); $(tail -3 "$tmp/fake_run.err")"
else bad "smpicc builds the stand-in bench: $(tail -3 "$tmp/fake.err")"; fi

bash "$sim" --help | grep -q "^Usage: bash scripts/simulate.sh" && ok "--help" || bad "--help"
for args in "--op scatter" "--check --p 128" "--platform moon" "--selectors ompi,foo" "--sizes 1,x" "--host-speed fast" \
            "--compute all" "--compute kernels --host-speed 1e9" "--overhead 1us" "--sizes 0,4"; do
  bash "$sim" $args >/dev/null 2>&1; rc=$?
  [ $rc -eq 2 ] && ok "exit 2 for: $args" || bad "exit $rc for: $args (want 2)"
done
exit $fail
