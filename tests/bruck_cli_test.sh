#!/usr/bin/env bash
# verify --family bruck on the command line: a small sweep passes (radix lists, every variant),
# the printed zero-copy parity is rejected at p = 2 with its counterexample and exit 1, bad
# radix and variant values exit 2 with a message; tables --family bruck prints the steps.
set -u
verify="$1"
tables="$2"
fail=0
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; else echo "ok: $1"; fi; }
out=$("$verify" --family bruck --to 64 --radix 2,3,7 2>&1); rc=$?
check "sweep p <= 64, radix 2,3,7 passes" '[ $rc -eq 0 ] && echo "$out" | grep -q "64 ok, 0 failed"'
out=$("$verify" --family bruck --to 8 --variant zerocopy-printed 2>&1); rc=$?
check "printed zero-copy parity fails with exit 1" '[ $rc -eq 1 ]'
check "its counterexample is p = 2" 'echo "$out" | grep -q "wrong-final-block: p=2 rank=0"'
check "and names the reproducing options" 'echo "$out" | grep -q -- "--variant zerocopy-printed"'
out=$("$verify" --family bruck --to 8 --radix 1 2>&1); rc=$?
check "radix 1 exits 2" '[ $rc -eq 2 ] && echo "$out" | grep -q "radix"'
out=$("$verify" --family bruck --to 8 --variant rotated 2>&1); rc=$?
check "unknown variant exits 2" '[ $rc -eq 2 ] && echo "$out" | grep -q "unknown Bruck variant"'
out=$("$verify" --family twotree --to 8 --radix 2 2>&1); rc=$?
check "--radix is refused for another family" '[ $rc -eq 2 ]'
out=$("$tables" --family bruck --p 12 --format tsv 2>/dev/null); rc=$?
check "tables p = 12: step 1 moves 2 3 6 7 10 11" '[ $rc -eq 0 ] && echo "$out" | grep -qP "^1\t1\t1\t2\tp-2\tp\+2\t6\t3\t2\t2 3 6 7 10 11$"'
out=$("$tables" --family bruck --p 10 --radix 3 2>&1); rc=$?
check "tables radix 3: 5 steps, 13 blocks" '[ $rc -eq 0 ] && echo "$out" | grep -q "5 steps, 13 blocks sent per rank"'
out=$("$tables" --family bruck --p 10 --radix 1 2>&1); rc=$?
check "tables radix 1 exits 2" '[ $rc -eq 2 ]'
exit $fail
