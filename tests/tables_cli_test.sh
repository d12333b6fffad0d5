#!/usr/bin/env bash
# The tables command line: help, exit codes, one-line errors, Table 1 of Träff 2022, the two
# trees, the hypercube broadcast and the k-nomial reduction of Träff's lecture notes, the n-port
# all-gather.
set -u
bin="$(realpath "$1")"
golden_table1="$(realpath "$2")"  # Table 1 of Träff 2022 (p = 20), transcribed from the paper
golden_table5="$(realpath "$3")"  # the left schedule of its Table 5 (p = 9)
fail=0
check() {  # check NAME EXPECTED_STATUS ARGS...
  local name="$1" want="$2"
  shift 2
  "$bin" "$@" >out.txt 2>err.txt
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $name: exit $got, expected $want"; cat out.txt err.txt; fail=1
  else
    echo "ok   $name"
  fi
}
cd "${TEST_TMPDIR:-/tmp}"
check help 0 --help
grep -q -- "--format" out.txt || { echo "FAIL help lacks --format"; fail=1; }
grep -q -- "--blocks" out.txt || { echo "FAIL help lacks --blocks"; fail=1; }
check table1 0 --p 20
grep -q "^Recv schedule  *-5 |  0 | -5 | -4   -3 | -5   -2   -5   -4   -3 | -5   -1" out.txt ||
  { echo "FAIL Table 1 first receive row"; cat out.txt; fail=1; }
grep -q "valid schedule for all 20 ranks" out.txt || { echo "FAIL summary line"; fail=1; }
# The whole tables, every cell, with the default construction: the root's dummy receive column
# and the sends to the root included.
for golden in "$golden_table1:20" "$golden_table5:9"; do
  check "golden-p${golden##*:}" 0 --p "${golden##*:}" --format tsv
  diff out.txt "${golden%:*}" || { echo "FAIL table for p = ${golden##*:} differs from the paper"; fail=1; }
done
check tsv-stdout-clean 0 --p 9,31-33 --format tsv --root 3
[ "$(grep -c '^rank' out.txt)" = 4 ] || { echo "FAIL expected 4 tables"; fail=1; }
[ "$(wc -l <err.txt)" = 4 ] || { echo "FAIL expected 4 summary lines on stderr"; fail=1; }
# The two trees: the lecture's example tree for 10 non-root ranks (root 8, children 4 and 10)
# with the slide's EdgeColor values (1, 1, 0, 1, 0 for ranks 2, 4, 6, 8, 10 in the upper tree).
check twotree-text 0 --p 11 --family twotree
grep -qE "^ +8 +member \| +0 +1 +1 +4:1 10:0 \|" out.txt || { echo "FAIL two-tree row of rank 8"; cat out.txt; fail=1; }
check twotree-tsv 0 --p 11 --family twotree --format tsv
[ "$(awk -F'\t' '$1 ~ /^(2|4|6|8|10)$/ {printf "%s", $4}' out.txt)" = 11010 ] ||
  { echo "FAIL two-tree colours of ranks 2, 4, 6, 8, 10"; cat out.txt; fail=1; }
[ "$(wc -l <out.txt)" = 12 ] || { echo "FAIL two-tree tsv rows"; fail=1; }
for f in csv markdown latex; do
  check "twotree-$f" 0 --p 6,7 --family twotree --format "$f" --root 2
  [ "$(grep -c relay out.txt)" -ge 1 ] || { echo "FAIL two-tree $f has no relay (p = 6)"; fail=1; }
done
# The hypercube: the lecture's example p = 8, M = 5 (NEXTBIT(101) = 2,1,1; processor 5 has
# t(5,3) = 2, s(5,4) = 2, t(5,4) = 1, s(5,6) = 3), and the cooperating pairs of p = 11.
check hypercube-p8 0 --p 8 --family hypercube --blocks 5 --format tsv
cell() {  # cell ROW RANK: the cell of the named row in column RANK of out.txt (TSV)
  awk -F'\t' -v row="$1" -v col="$(($2 + 2))" '$1 == row {print $col}' out.txt
}
[ "$(cell 'NEXTBIT[0]' 5) $(cell 'NEXTBIT[1]' 5) $(cell 'NEXTBIT[2]' 5)" = "2 1 1" ] ||
  { echo "FAIL NEXTBIT(101)"; cat out.txt; fail=1; }
[ "$(cell 't(rep) 3' 5) $(cell 's(rep) 4' 5) $(cell 't(rep) 4' 5) $(cell 's(rep) 6' 5)" = "2 2 1 3" ] ||
  { echo "FAIL s/t of processor 5"; cat out.txt; fail=1; }
[ "$(cell 'recv 6' 5)" = "4<4" ] || { echo "FAIL recv 6 of processor 5"; cat out.txt; fail=1; }
grep -q "in 7 rounds = M-1+ceil(log2 p) = 5-1+3; 0 cooperating pairs" err.txt ||
  { echo "FAIL hypercube p = 8 summary"; cat err.txt; fail=1; }
check hypercube-p11 0 --p 11 --family hypercube
grep -qE "^co +0 +8 +9 +10 +4 +5 +6 +7 +1 +2 +3$" out.txt || { echo "FAIL co row of p = 11"; cat out.txt; fail=1; }
grep -q "^hypercube p = 11, q = 3, M = 4, root = 0" out.txt || { echo "FAIL hypercube header"; fail=1; }
grep -q "3 cooperating pairs" out.txt || { echo "FAIL hypercube summary"; cat out.txt; fail=1; }
for f in tsv csv markdown latex; do
  check "hypercube-$f" 0 --p 2,3,8,11 --family hypercube --format "$f" --root 1 --blocks 3
  grep -q "send 4" out.txt || { echo "FAIL hypercube $f lacks round 4"; cat out.txt; fail=1; }
  [ "$(grep -c 'family=hypercube: valid' err.txt)" = 4 ] || { echo "FAIL hypercube $f summaries"; cat err.txt; fail=1; }
done
for args in "--p 0" "--p 5 --root 5" "--p 5 --root -1" "--p x" "--p 5 --format yaml" \
            "--p 5 --construction magic" "--p 5 --bogus" "--format tsv" \
            "--p 5 --family ring" "--p 5 --family twotree --root 5" \
            "--p 5 --family hypercube --blocks 0" "--p 5 --family hypercube --blocks -2" \
            "--p 5 --family hypercube --blocks x" "--p 5 --family hypercube --root 7" \
            "--p 5 --blocks 3" "--p 100000 --family hypercube --blocks 1000" \
            "--p 5 --family twotree --construction paper" \
            "--p 5 --family hypercube --construction paper" "--p 5 --family twotree --blocks 2"; do
  # shellcheck disable=SC2086
  check "reject: $args" 2 $args
  [ "$(wc -l <err.txt)" = 1 ] || { echo "FAIL '$args' error is not one line"; cat err.txt; fail=1; }
done
check construction-with-twotree 2 --p 5 --family twotree --construction paper
grep -q -- "--construction does not apply to --family twotree" err.txt || { echo "FAIL message"; cat err.txt; fail=1; }
# The two-tree table is checked by a run before printing: the summary says nothing is wrong.
check twotree-checked 0 --p 1-40 --family twotree --format tsv
grep -q "INVALID" err.txt && { echo "FAIL twotree INVALID"; cat err.txt; fail=1; }
[ "$(grep -c 'family=twotree: relay' err.txt)" = 40 ] || { echo "FAIL twotree summaries"; cat err.txt; fail=1; }
# The k-nomial reduction: the binomial tree of p = 11 (root 0 receives from 1, 2, 4, 8 in rounds
# 0..3) and 3 ports (rank 0 receives from 1, 2, 3 at level 0 and 4, 8 at level 1), every format,
# every table checked by a reduction run, bad ports rejected.
check knomial-p11 0 --p 11 --family knomial
grep -qE "^0 +0 +- +- +- +- +1@0 2@1 4@2 8@3$" out.txt && grep -qE "^1 +1 +0 +0 +0 +3 +-$" out.txt || { echo "FAIL knomial row of rank 0"; cat out.txt; fail=1; }
grep -q "4 levels = ceil(log_2 p)" out.txt || { echo "FAIL knomial summary"; cat out.txt; fail=1; }
check knomial-p11-3 0 --p 11 --family knomial --ports 3 --format tsv
grep -qP "^0\t0\t-\t-\t-\t-\t1@0 2@1 3@2 4@3 8@4$" out.txt || { echo "FAIL knomial 3 ports row of rank 0"; cat out.txt; fail=1; }
for f in text tsv csv markdown latex; do  # the summaries: on stdout in text, else on stderr
  check "knomial-$f" 0 --p 1-30 --family knomial --ports 2 --root 0 --format "$f"
  [ "$(cat out.txt err.txt | grep -c 'family=knomial: reduction and broadcast runs ok')" = 30 ] ||
    { echo "FAIL knomial $f summaries"; cat err.txt; fail=1; }
done
for args in "--p 5 --family knomial --ports 0" "--p 5 --family knomial --ports 65" \
            "--p 5 --family knomial --ports x" "--p 5 --family knomial --root 5" \
            "--p 2000000 --family knomial"; do
  # shellcheck disable=SC2086
  check "reject: $args" 2 $args
  [ "$(wc -l <err.txt)" = 1 ] || { echo "FAIL '$args' error is not one line"; cat err.txt; fail=1; }
done
# The n-port all-gather: p = 10 on 3 ports (skips 1, 3, 10: rank 0 gets ranks 1-2, then 3-9 in
# messages of 3, 3 and 1), every p of a range checked by its run, bad n rejected.
check nway-allgather-p10 0 --p 10 --family nway-allgather --n 3 --format tsv
grep -qP "^0\t1\t3\t1>7:\[0:3\) 2>4:\[0:3\) 3>1:\[0:1\)\t1<3:\[3:6\) 2<6:\[6:9\) 3<9:\[9:10\)$" out.txt ||
  { echo "FAIL nway-allgather row of rank 0, round 1"; cat out.txt; fail=1; }
grep -q "in 2 rounds = ceil(log_4 p) (Algorithm 7: 4); skips 1 3 10" err.txt ||
  { echo "FAIL nway-allgather summary"; cat err.txt; fail=1; }
check nway-allgather-range 0 --p 1-40 --family nway-allgather --n 5 --format csv
[ "$(grep -c 'family=nway-allgather: valid all-gather' err.txt)" = 40 ] ||
  { echo "FAIL nway-allgather summaries"; cat err.txt; fail=1; }
for args in "--p 5 --family nway-allgather --n 0" "--p 5 --family nway-allgather --n 65" \
            "--p 5 --family nway-allgather --root 1"; do
  # shellcheck disable=SC2086
  check "reject: $args" 2 $args
  [ "$(wc -l <err.txt)" = 1 ] || { echo "FAIL '$args' error is not one line"; cat err.txt; fail=1; }
done
# The k-ary tree broadcast: p = 11 with 3 children a rank and M = 2 (rank 2 is the root's second
# child: it receives block 0 in round 1 and block 1 in round 4 and first sends in round 2), every
# table checked by a broadcast run, bad degrees and block counts rejected.
check kary-p11 0 --p 11 --family kary --degree 3 --blocks 2 --format tsv
grep -qP "^2\t2\t0\t7 8 9\t2\t0@1 1@4$" out.txt || { echo "FAIL kary row of rank 2"; cat out.txt; fail=1; }
grep -q "in 8 one-ported rounds = (M-1)k + the latest first round 5; depth 2" err.txt ||
  { echo "FAIL kary summary"; cat err.txt; fail=1; }
check kary-all 0 --p 1-40 --family kary --degree 4 --root 0
[ "$(grep -c 'family=kary: valid broadcast' out.txt)" = 40 ] || { echo "FAIL kary summaries"; cat out.txt; fail=1; }
for args in "--p 5 --family kary --degree 1" "--p 5 --family kary --degree 65" \
            "--p 5 --family kary --blocks 0" "--p 5 --family kary --root 5" \
            "--p 2000000 --family kary"; do
  # shellcheck disable=SC2086
  check "reject: $args" 2 $args
  [ "$(wc -l <err.txt)" = 1 ] || { echo "FAIL '$args' error is not one line"; cat err.txt; fail=1; }
done
exit $fail
