#!/usr/bin/env bash
# The MPI benchmark runs every operation with --check on a few sizes, and rejects bad options;
# bench/call_overhead runs. Args: bench call_overhead
set -u
bin="$(realpath "$1")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
fail=0
# op and its TSV rows for 4 sizes: per size one row per implementation and one ratio row per
# non-native implementation (allmerge, with auto: also one merge-work row per non-native
# implementation).
for case in bcast:68 allgather:36 allgatherv:44 reduce:68 allreduce:68 reduce_scatter_block:36 reduce_scatter:36 allmerge:52 alltoall:68 alltoallv:36; do
  op=${case%%:*}; want=${case##*:}
  out=$(timeout 120 mpirun -np 3 --oversubscribe "$bin" --op "$op" --sizes 0,1,7,1000 --reps 2 --check 2>&1)
  rc=$?
  rows=$(echo "$out" | grep -c "^$op	")
  if [ $rc -ne 0 ] || [ "$rows" != "$want" ]; then echo "FAIL $op (exit $rc, $rows rows, want $want)"; echo "$out"; fail=1
  else echo "ok   $op"; fi
done
# --buffers reuse: the buffers kept from call to call, sizes falling and rising (a kept buffer
# larger than the call needs; regrown), every result checked (overwritten before each call).
for case in bcast:68 allgather:36 allgatherv:44 reduce:68 allreduce:68 reduce_scatter:36 alltoallv:36; do
  op=${case%%:*}; want=${case##*:}
  out=$(timeout 120 mpirun -np 3 --oversubscribe "$bin" --op "$op" --buffers reuse --sizes 1000,7,0,1500 --reps 2 --check 2>&1)
  rc=$?
  rows=$(echo "$out" | grep -c "^$op	")
  if [ $rc -ne 0 ] || [ "$rows" != "$want" ]; then echo "FAIL $op --buffers reuse (exit $rc, $rows rows, want $want)"; echo "$out"; fail=1
  else echo "ok   $op --buffers reuse"; fi
done
# allmerge with unequal blocks (rank 0 holds half; the (r mod 3) counts), results checked.
for dist in half irregular; do
  out=$(timeout 120 mpirun -np 3 --oversubscribe "$bin" --op allmerge --dist $dist --sizes 0,1,7,1000 --reps 2 --check 2>&1)
  rc=$?; rows=$(echo "$out" | grep -c "^allmerge	")
  if [ $rc -ne 0 ] || [ "$rows" != 52 ]; then echo "FAIL allmerge --dist $dist (exit $rc, $rows rows)"; echo "$out"; fail=1
  else echo "ok   allmerge --dist $dist"; fi
done
# allgatherv with rank 0 holding half and a fifth of the data (--dist half, rank0=F), checked.
for dist in half rank0=0.2; do
  out=$(timeout 120 mpirun -np 3 --oversubscribe "$bin" --op allgatherv --dist $dist --sizes 0,1,7,1000 --reps 2 --check 2>&1)
  rc=$?; rows=$(echo "$out" | grep -c "^allgatherv	")
  if [ $rc -ne 0 ] || [ "$rows" != 44 ]; then echo "FAIL allgatherv --dist $dist (exit $rc, $rows rows)"; echo "$out"; fail=1
  else echo "ok   allgatherv --dist $dist"; fi
done
# --batch: calls back to back, every one checked (Rosched_Bcast's repeat of a native call);
# without the untimed first call (--warmup 0).
out=$(timeout 120 mpirun -np 3 --oversubscribe "$bin" --op bcast --impl native,auto --sizes 1,256 \
      --reps 2 --batch 50 --warmup 0 --check 2>&1); rc=$?
rows=$(echo "$out" | grep -c "^bcast	")
if [ $rc -eq 0 ] && [ "$rows" = 6 ]; then echo "ok   bcast --batch 50"
else echo "FAIL bcast --batch 50 (exit $rc, $rows rows, want 6)"; echo "$out"; fail=1; fi
out=$(timeout 60 mpirun -np 2 --oversubscribe "$bin" --op scatter 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "unknown --op" && echo "ok   bad option" || { echo "FAIL bad option"; fail=1; }
out=$(timeout 60 mpirun -np 2 --oversubscribe "$bin" --op reduce --impl hypercube 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "no implementation 'hypercube'" && echo "ok   bad impl" || { echo "FAIL bad impl"; fail=1; }
# --impl all,-NAME: every implementation but those named (bcast has nine: all but auto and node
# leaves native, circulant, twotree, hypercube, kary, rsag, knomial); taking all out again is an
# error.
out=$(timeout 60 mpirun -np 2 --oversubscribe "$bin" --op bcast --impl all,-auto,-node --sizes 10 --reps 1 2>&1); rc=$?
impls=$(echo "$out" | awk -F'\t' '$1 == "bcast" && $2 !~ /^ratio-/ { printf "%s ", $2 }')
[ $rc -eq 0 ] && [ "$impls" = "native circulant twotree hypercube kary rsag knomial " ] && echo "ok   --impl all,-auto,-node" ||
  { echo "FAIL --impl all,-auto,-node (exit $rc, rows for: $impls)"; echo "$out"; fail=1; }
out=$(timeout 60 mpirun -np 2 --oversubscribe "$bin" --op bcast --impl native,-native 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "leaves no implementation" && echo "ok   --impl native,-native" ||
  { echo "FAIL --impl native,-native (exit $rc)"; echo "$out"; fail=1; }
out=$(timeout 60 mpirun -np 2 --oversubscribe "$bin" --op bcast --impl all,-nway 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "no implementation 'nway'" && echo "ok   --impl all,-nway" ||
  { echo "FAIL --impl all,-nway (exit $rc)"; echo "$out"; fail=1; }
# Bad sizes, distributions and stray words are errors naming what is wrong.
for bad in "--sizes abc:bad item 'abc'" "--sizes 10,-5:bad item '-5'" "--dist weird:--dist must be" \
           "--nway-n 65:--nway-n must be in 0..64" "--nway-rule ring:--nway-rule must be paper, digits or circulant, not ring" \
           "extra:too many positional" "--measure fast:--measure must be slowest, span or sync" \
           "--measure sync:needs a global clock" "--dist half:--dist must be irregular or uniform, not half" \
           "--op allgatherv --dist rank0=1:--dist must be irregular, uniform, one, half or rank0=F" \
           "--op allgatherv --dist rank0=0.5x:--dist must be irregular, uniform, one, half or rank0=F" \
           "--batch 0:--batch must be in 1..1000000" "--warmup=-1:--warmup must be in 0..1000" \
           "--rewarm sometimes:--rewarm must be every or until-setup" \
           "--rewarm until-setup:needs --measure span or sync" \
           "--buffers keep:--buffers must be fresh or reuse"; do
  args=${bad%%:*}; want=${bad#*:}
  # shellcheck disable=SC2086
  op=(--op bcast); [[ "$args" == --op* ]] && op=()  # an item may name its own --op
  out=$(timeout 60 mpirun -np 1 "$bin" "${op[@]}" $args 2>&1); rc=$?
  if [ $rc -ne 0 ] && echo "$out" | grep -q -- "$want"; then echo "ok   reject $args"
  else echo "FAIL reject $args (exit $rc)"; echo "$out"; fail=1; fi
done
# Rosched_Bcast where the model (here set: 1 us, 1 GB/s) predicts the circulant broadcast: the
# first call of each size class times both (one "timed" line on rank 0), later calls of the class
# reuse the answer; 262,144 and 262,200 ints share the 1-2 MiB class, 600,000 is the next.
out=$(ROSCHED_VERBOSE=1 ROSCHED_ALPHA=1e-6 ROSCHED_BETA=1e-9 timeout 120 mpirun -np 4 --oversubscribe \
      "$bin" --op bcast --impl auto --sizes 262144,262200,600000 --reps 3 --check 2>&1); rc=$?
timed=$(echo "$out" | grep -c "^rosched Rosched_Bcast: p = 4, [0-9]* bytes timed: ")
classes=$(echo "$out" | grep -o "for 1048576 to 2097151 bytes\|for 2097152 to 4194303 bytes" | sort -u | wc -l)
if [ $rc -eq 0 ] && [ "$timed" = 2 ] && [ "$classes" = 2 ]; then echo "ok   bcast timed once per size class"
else echo "FAIL bcast timed choice (exit $rc, $timed timed lines, $classes classes)"; echo "$out"; fail=1; fi
# On nodes of 2 ranks (ROSCHED_NODE_SIZE), Rosched_Bcast's own broadcast is the node-aware one:
# timed at the first call of each class (even at 4 B: the model's prediction is skipped on
# several nodes), the node-aware broadcast reported by its lane's rank 0, results verified;
# with 100,000 ints also the scatter + all-gather between the nodes (a block for each node).
# ROSCHED_DEBUG: the trial checks every candidate's bytes, not only the last one's.
out=$(ROSCHED_DEBUG=1 ROSCHED_VERBOSE=1 ROSCHED_NODE_SIZE=2 timeout 120 mpirun -np 4 --oversubscribe \
      "$bin" --op bcast --impl auto,node --sizes 1,100000 --reps 2 --check 2>&1); rc=$?
timed=$(echo "$out" | grep -c "^rosched Rosched_Bcast: p = 4, [0-9]* bytes timed: ")
aware=$(echo "$out" | grep -c "^rosched Rosched_Bcast.*: p = 2, .*node-aware: circulant between 2 nodes")
scatter=$(echo "$out" | grep -c "^rosched Rosched_Bcast: p = 4, 400000 bytes timed: .*scatter + all-gather [0-9.e-]* s")
if [ $rc -eq 0 ] && [ "$timed" = 2 ] && [ "$aware" -ge 1 ] && [ "$scatter" = 1 ]; then
  echo "ok   bcast node-aware on nodes of 2"
else echo "FAIL bcast on nodes of 2 (exit $rc, $timed timed lines, $aware node-aware lines," \
          "$scatter trials of the scatter + all-gather)"; echo "$out"; fail=1; fi
# Both ways of sending a pipelined broadcast's blocks (ROSCHED_SENDS), every broadcast family in
# many blocks (ROSCHED_BCAST_F etc. small), results verified; the verbose lines say which ran:
# with sync the circulant and hypercube broadcasts send synchronously, the two-tree one never.
for sends in sync eager; do
  out=$(ROSCHED_VERBOSE=1 ROSCHED_SENDS=$sends ROSCHED_BCAST_F=5 ROSCHED_TWOTREE_F=5 \
        ROSCHED_HYPERCUBE_F=5 timeout 120 mpirun -np 5 --oversubscribe "$bin" --op bcast \
        --impl circulant,twotree,hypercube --sizes 1,1000,100000 --reps 2 --warmup 2 --check 2>&1); rc=$?
  sync_lines=$(echo "$out" | grep -c "^rosched Rosched_Bcast_\(circulant\|hypercube\): .*: pipelined, synchronous sends, ")
  eager_lines=$(echo "$out" | grep -c "^rosched Rosched_Bcast_\(circulant\|hypercube\): .*: pipelined, [0-9]* blocks")
  tree_sync=$(echo "$out" | grep -c "^rosched Rosched_Bcast_two_tree: .*pipelined, synchronous sends")
  tree_lines=$(echo "$out" | grep -c "^rosched Rosched_Bcast_two_tree: .*: pipelined, [0-9]* blocks")
  if [ $rc -eq 0 ] && [ "$tree_sync" = 0 ] && [ "$tree_lines" -ge 1 ] &&
     { { [ $sends = sync ] && [ "$sync_lines" -ge 2 ] && [ "$eager_lines" = 0 ]; } ||
       { [ $sends = eager ] && [ "$eager_lines" -ge 2 ] && [ "$sync_lines" = 0 ]; }; }; then
    echo "ok   bcast ROSCHED_SENDS=$sends"
  else
    echo "FAIL bcast ROSCHED_SENDS=$sends (exit $rc, $sync_lines synchronous, $eager_lines eager," \
         "two-tree $tree_lines eager, $tree_sync synchronous)"
    echo "$out"; fail=1
  fi
done
# Streamed rounds whose messages differ between ranks, parts sent both ways (ROSCHED_SENDS):
# Algorithm 9 in many blocks (ROSCHED_ALLGATHERV_G small) and in one block per contribution, and
# the reduce-scatter with (r mod 3) blocks, all in parts of 24 B, results verified; the verbose
# lines say that the pipelined allgatherv sends its parts synchronously with sync and unequal
# counts only (equal counts: the rounds' messages are alike, eager either way).
for sends in sync eager; do
  out=""; rc=0
  for g in 3 1e12; do
    for dist in irregular uniform; do
      o=$(ROSCHED_VERBOSE=1 ROSCHED_SENDS=$sends ROSCHED_STREAM_PART=24 ROSCHED_ALLGATHERV_G=$g \
          timeout 120 mpirun -np 5 --oversubscribe "$bin" --op allgatherv --dist $dist \
          --impl circulant --sizes 1000,30000 --reps 2 --check 2>&1) || rc=1
      out+="$o"$'\n'
    done
  done
  o=$(ROSCHED_SENDS=$sends ROSCHED_STREAM_PART=24 timeout 120 mpirun -np 5 --oversubscribe \
      "$bin" --op reduce_scatter --impl circulant --sizes 1000,30000 --reps 2 --check 2>&1) || rc=1
  out+="$o"
  sync_lines=$(echo "$out" | grep -c "^rosched Rosched_Allgatherv_circulant: .*rounds in parts of [0-9]* B, sent synchronously")
  parts_lines=$(echo "$out" | grep -c "^rosched Rosched_Allgatherv_circulant: .*rounds in parts of [0-9]* B")
  # (r mod 3) and equal counts each report two sizes in many blocks: 4 pipelined lines
  if [ $rc -eq 0 ] && [ "$parts_lines" = 4 ] &&
     { { [ $sends = sync ] && [ "$sync_lines" = 2 ]; } || { [ $sends = eager ] && [ "$sync_lines" = 0 ]; }; }; then
    echo "ok   streamed rounds, ROSCHED_SENDS=$sends"
  else
    echo "FAIL streamed rounds, ROSCHED_SENDS=$sends (exit $rc, $parts_lines streamed, $sync_lines synchronous)"
    echo "$out"; fail=1
  fi
done
# The k-ary tree broadcast and the k-ary tree reduction (the broadcast backwards) in many
# blocks of a few elements (ROSCHED_KARY_F small), degree 2 and 3, with the broadcast's receives
# posted ahead and a window of 2 or 5 rounds; results verified (the reduction's of MPI_SUM).
for case in "bcast:Rosched_Bcast_kary_tree:" "reduce:reduction:(the broadcast backwards)"; do
  op=${case%%:*}; rest=${case#*:}; who=${rest%%:*}; what=${rest#*:}
  for kw in 2:2 3:5; do
    out=$(ROSCHED_VERBOSE=1 ROSCHED_KARY_F=2 ROSCHED_KARY_DEGREE=${kw%%:*} ROSCHED_WINDOW=${kw##*:} \
          timeout 120 mpirun -np 7 --oversubscribe "$bin" --op $op --impl kary --sizes 1,1000,100000 \
          --reps 2 --check 2>&1); rc=$?
    named=$(echo "$out" | grep -c "^rosched $who: p = 7, .*: pipelined ${kw%%:*}-ary tree${what:+ $what}, [0-9]* blocks, window ${kw##*:} ")
    if [ $rc -eq 0 ] && [ "$named" -ge 2 ]; then echo "ok   $op k-ary tree degree ${kw%%:*} window ${kw##*:}"
    else echo "FAIL $op k-ary tree $kw (exit $rc, $named lines)"; echo "$out"; fail=1; fi
  done
done
# The k-nomial tree of one message with 1, 2 and 6 ports (binomial, 3-nomial, one level at
# p = 7), eager and synchronous (the default) sends; results verified.
for ps in 1:eager 2:auto 6:sync; do
  out=$(ROSCHED_VERBOSE=1 ROSCHED_BCAST_PORTS=${ps%%:*} ROSCHED_SENDS=${ps##*:} timeout 120 \
        mpirun -np 7 --oversubscribe "$bin" --op bcast --impl knomial --sizes 1,1000,100000 \
        --reps 2 --check 2>&1); rc=$?
  tree="$(( ${ps%%:*} + 1 ))-nomial tree (${ps%%:*} ports)"
  [ "${ps%%:*}" = 1 ] && tree="binomial tree"
  if [ "${ps##*:}" = eager ]; then tree="$tree, eager sends"; else tree="$tree, synchronous sends"; fi
  lines=$(echo "$out" | grep -cF "rosched Rosched_Bcast_knomial: p = 7, " | tr -d ' ')
  named=$(echo "$out" | grep -cF ": $tree, 1 blocks, window ${ps%%:*} ")
  if [ $rc -eq 0 ] && [ "$lines" = 3 ] && [ "$named" = 3 ]; then echo "ok   bcast k-nomial tree $ps"
  else echo "FAIL bcast k-nomial tree $ps (exit $rc, $lines lines, $named naming '$tree')"; echo "$out"; fail=1; fi
done
# bench/call_overhead (the second argument): a row of ns per call for each of its four calls
# at p = 3 (it checks their results itself: exit 1 on a wrong value), and a bad count rejected.
over="$(realpath "$2")"
out=$(timeout 120 mpirun -np 3 --oversubscribe "$over" --calls 2000 --trials 2 2>&1); rc=$?
rows=$(echo "$out" | grep -cE "^(MPI|Rosched)_(Bcast|Allreduce)	3	[0-9]+[.][0-9]+$")
if [ $rc -eq 0 ] && [ "$rows" = 4 ]; then echo "ok   call_overhead"
else echo "FAIL call_overhead (exit $rc, $rows rows)"; echo "$out"; fail=1; fi
timeout 60 "$over" --calls 0 >/dev/null 2>&1
[ $? -eq 2 ] && echo "ok   call_overhead --calls 0 rejected" || { echo "FAIL call_overhead --calls 0"; fail=1; }
# Run as a singleton (no mpirun, whose output forwarding would hide the error): a failed write
# of the results is exit status 2.
timeout 60 "$bin" --op bcast --sizes 1 --reps 1 >/dev/full 2>/dev/null
[ $? -eq 2 ] && echo "ok   full disk" || { echo "FAIL writing to a full disk"; fail=1; }
exit $fail
