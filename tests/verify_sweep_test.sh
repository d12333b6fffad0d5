#!/usr/bin/env bash
# Every p = 1..3000 with every check (schedules, structure, full broadcast runs) for the default
# construction (fast), p = 1..1000 for the paper's, the two-tree family for p = 1..1000
# (trees, colouring and reduction order; broadcast and reduction runs for three roots), and the
# hypercube family for p = 1..2000 (cube propositions, units, broadcast runs; three roots up to
# p = 1000), and the k-nomial family for p = 1..3000 (reduction and broadcast runs with 1, 2, 3
# ports; also 7 and 64 ports and three roots up to p = 1000).
set -u
status=0
for args in "--from 1 --to 3000|fast" "--from 1 --to 1000 --construction paper|paper"; do
  # shellcheck disable=SC2086
  out=$("$1" ${args%|*} 2>/dev/null) || status=1
  echo "$out"
  to=$(echo "${args%|*}" | awk '{print $4}')
  echo "$out" | grep -q "^verified p=1..$to construction=${args#*|} checks=schedule,structure,runs: $to ok, 0 failed" || status=1
done
out=$("$1" --family twotree --from 1 --to 1000 2>/dev/null) || status=1
echo "$out"
echo "$out" | grep -q "^verified p=1..1000 family=twotree checks=structure,runs: 1000 ok, 0 failed" || status=1
out=$("$1" --family hypercube --from 1 --to 2000 2>/dev/null) || status=1
echo "$out"
echo "$out" | grep -q "^verified p=1..2000 family=hypercube checks=structure,runs: 2000 ok, 0 failed.*every broadcast took n - 1 + ceil(log2 p) rounds$" || status=1
out=$("$1" --family knomial --from 1 --to 3000 2>/dev/null) || status=1
echo "$out"
echo "$out" | grep -q "^verified p=1..3000 family=knomial checks=runs: 3000 ok, 0 failed.*every reduction and broadcast took ceil(log_{ports+1} p) levels$" || status=1
exit $status
