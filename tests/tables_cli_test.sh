#!/usr/bin/env bash
# The tables command line: help, exit codes, one-line errors, and Table 1 of seeds/001.
set -u
bin="$(realpath "$1")"
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
check table1 0 --p 20
grep -q "^Recv schedule  *-5 |  0 | -5 | -4   -3 | -5   -2   -5   -4   -3 | -5   -1" out.txt ||
  { echo "FAIL Table 1 first receive row"; cat out.txt; fail=1; }
grep -q "valid schedule for all 20 ranks" out.txt || { echo "FAIL summary line"; fail=1; }
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
for args in "--p 0" "--p 5 --root 5" "--p 5 --root -1" "--p x" "--p 5 --format yaml" \
            "--p 5 --construction magic" "--p 5 --bogus" "--format tsv" \
            "--p 5 --family ring" "--p 5 --family twotree --root 5"; do
  # shellcheck disable=SC2086
  check "reject: $args" 2 $args
  [ "$(wc -l <err.txt)" = 1 ] || { echo "FAIL '$args' error is not one line"; cat err.txt; fail=1; }
done
exit $fail
