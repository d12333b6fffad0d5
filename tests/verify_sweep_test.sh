#!/usr/bin/env bash
# Every p = 1..3000 with every check (schedules, structure, full broadcast runs).
set -u
out=$("$1" --from 1 --to 3000 2>/dev/null)
status=$?
echo "$out"
[ $status -eq 0 ] && echo "$out" | grep -q "^verified p=1..3000 construction=paper checks=schedule,structure,runs: 3000 ok, 0 failed"
