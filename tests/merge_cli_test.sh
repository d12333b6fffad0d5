#!/usr/bin/env bash
# The merge family on the command line (Lang 2025; sched/merge/): verify --family merge passes
# for every algorithm, rejects the printed Algorithm 1 with its first counterexample (p = 7,
# rank 0 lacks rank 6's block) and the command that reproduces it, refuses bad --algorithm
# values (exit 2); tables --family merge prints partners and ranges and flags the printed one.
set -u
verify="$(realpath "$1")"
tables="$(realpath "$2")"
fail=0
check() {  # check NAME EXPECTED_STATUS BINARY ARGS...
  local name="$1" want="$2" bin="$3"
  shift 3
  "$bin" "$@" >out.txt 2>err.txt
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $name: exit $got, expected $want"; cat out.txt err.txt; fail=1
  else
    echo "ok   $name"
  fi
}
expect_line() {  # expect_line NAME REGEX
  grep -qE -- "$2" out.txt || { echo "FAIL $1: no line matching $2"; cat out.txt; fail=1; }
}
cd "${TEST_TMPDIR:-/tmp}"
check verify-all 0 "$verify" --family merge --from 1 --to 700 --run-to 300 --samples 8
expect_line verify-all "700 ok, 0 failed"
for a in alg0 alg1 alg2 0,1,2; do
  check "verify-$a" 0 "$verify" --family merge --algorithm "$a" --from 1 --to 200
done
check verify-printed 1 "$verify" --family merge --algorithm alg1-printed --from 1 --to 300
expect_line verify-printed "^FAILED merge-run missing-blocks: p=7 rank=0 round=3 expected=7 actual=6 .*lacks the block of rank 6"
expect_line verify-printed "^reproduce: .*--from 7 --to 7 --family merge --algorithm alg1-printed$"
expect_line verify-printed "43 ok, 257 failed"
check verify-printed-json 1 "$verify" --family merge --algorithm alg1-printed --from 5 --to 8 --json merge.json
grep -q '"p": 7' merge.json || { echo "FAIL json lacks p = 7"; cat merge.json; fail=1; }
check verify-bad-algorithm 2 "$verify" --family merge --algorithm alg3 --to 5
grep -q "alg3" err.txt || { echo "FAIL the bad value is not named"; cat err.txt; fail=1; }
check verify-param-other-family 2 "$verify" --family hypercube --algorithm alg1 --to 5
check verify-help 0 "$verify" --help
expect_line verify-help "--algorithm"

check tables-alg1 0 "$tables" --family merge --p 7 --algorithm alg1
expect_line tables-alg1 "^sends 1 +0\.\.1\+0 +1\.\.2\+1 "
expect_line tables-alg1 "blocks sent per rank 7 \(p-1 = 6\)"
check tables-alg2-tsv 0 "$tables" --family merge --p 5 --algorithm alg2 --format tsv
expect_line tables-alg2-tsv "^receives 2	3\.\.4	4\.\.0	0\.\.1	1\.\.2	2\.\.3$"
check tables-printed 1 "$tables" --family merge --p 7 --algorithm alg1-printed
grep -q "INVALID merge-run missing-blocks" out.txt err.txt || { echo "FAIL printed table not flagged"; fail=1; }
check tables-bad 2 "$tables" --family merge --p 7 --algorithm nope
[ $fail -eq 0 ] && echo "all merge command-line checks passed"
exit $fail
