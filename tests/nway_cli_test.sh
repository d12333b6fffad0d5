#!/usr/bin/env bash
# The n-way family through both tools: verify --family nway (parameters --n and --rule, the
# count of (p, n) without a paper tuple, bad values) and tables --family nway in every format.
set -u
verify="$(realpath "$1")"; tables="$(realpath "$2")"
cd "${TEST_TMPDIR:-/tmp}"
fail=0
expect() {  # expect NAME STATUS TOOL ARGS...
  local name="$1" want="$2" tool="$3"; shift 3
  "$tool" "$@" >out.txt 2>err.txt
  local got=$?
  if [ "$got" != "$want" ]; then echo "FAIL $name: exit $got, expected $want"; cat out.txt err.txt; fail=1
  else echo "ok   $name"; fi
}
need() {  # need NAME FILE PATTERN
  grep -q -- "$3" "$2" || { echo "FAIL $1: no '$3' in $2"; cat "$2"; fail=1; }
}
expect verify-500 0 "$verify" --family nway --from 1 --to 500 --json nway.json
need verify-500 out.txt "^verified p=1..500 family=nway n=1,2,3,4,5,6,7,8 rule=paper,digits,circulant checks=structure,runs: 500 ok, 0 failed"
need verify-500 out.txt "without a paper tuple (End et al. 2015, Eq. 8): 1103 of 4000$"
need verify-json nway.json '"family": "nway"'
need verify-json nway.json '"n_without_paper_tuple_per_p_max": 5'
expect verify-large-p 0 "$verify" --family nway --from 99990 --to 100000 --n 1,3-4,64 --rule circulant
need verify-large-p out.txt "n=1,3,4,64 rule=circulant checks=structure,runs: 11 ok"
expect verify-paper-13 0 "$verify" --family nway --from 13 --to 13 --n 1 --rule paper
need verify-paper-13 out.txt ": 1 of 1$"
expect verify-help 0 "$verify" --help
need verify-help out.txt "nway: ports per round"
for bad in 0 65 x 1,,2 3-1 -2; do
  expect "verify-bad-n-$bad" 2 "$verify" --family nway --to 5 --n "$bad"
  need "verify-bad-n-$bad" err.txt "^verify: --n"
done
expect verify-bad-rule 2 "$verify" --family nway --to 5 --rule Paper
need verify-bad-rule err.txt "'Paper' is not paper, digits or circulant"
expect verify-n-elsewhere 2 "$verify" --family hypercube --to 5 --n 2
# Tables: every format, the summary, paper where no tuple exists, bad values.
expect tables-text 0 "$tables" --family nway --p 10 --n 2 --rule digits
need tables-text out.txt "^   0      2  9         1>9:R\[0:1)             1<1:\[9:10)>R             R=F$"
need tables-text out.txt "^p=10 n=2 rule=digits family=nway: valid allreduce .* in 3 rounds = ceil(log_3 p); 5 messages per rank; digits of p in base 3: 1 0 1$"
for format in tsv csv markdown latex; do
  expect "tables-$format" 0 "$tables" --family nway --p 37 --n 2 --rule paper --format "$format"
  need "tables-$format" err.txt "Eq. 8 tuple s=2 Lsnd=1 Lrcv=18"
  [ "$(grep -c '17:x\[0:1)' out.txt)" = 1 ] || { echo "FAIL tables-$format rank 0's prefix"; cat out.txt; fail=1; }
done
expect tables-circulant 0 "$tables" --family nway --p 10 --n 2
need tables-circulant out.txt "skips 1 2 4 10$"
expect tables-paper-13 2 "$tables" --family nway --p 13 --n 1 --rule paper
need tables-paper-13 err.txt "no last-round correction (End et al. 2015, Eq. 8) exists for P = 13, n = 1"
expect tables-bad-n 2 "$tables" --family nway --p 10 --n 65
expect tables-bad-n-word 2 "$tables" --family nway --p 10 --n two
expect tables-root 2 "$tables" --family nway --p 10 --root 3
expect tables-n-elsewhere 2 "$tables" --family twotree --p 10 --n 2
for f in err.txt; do [ "$(wc -l <"$f")" = 1 ] || { echo "FAIL error not one line"; cat "$f"; fail=1; }; done
exit $fail
