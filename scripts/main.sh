#!/usr/bin/env bash
# The main job: Table 1 of Träff 2022 (p = 20) with its validity summary line, the two trees of
# the two-tree broadcast for p = 11 with their edge colours, Bin Jia's hypercube broadcast of
# M = 3 blocks for p = 11 (NEXTBIT, cooperating pairs, every round), Lang 2025's circulant
# merge-allreduce for p = 7, the n-way allreduce of End et al. 2015 for P = 13, n = 1 (the
# smallest P without the paper's correction: the digits rule), the Bruck all-to-all for p = 6,
# the k-nomial reduction for p = 11 with 2 ports (a tree of radix 3), the pipelined k-ary tree
# broadcast for p = 11 with 3 children a rank and M = 2 blocks,
# and a verification of the eight schedule families for every p = 1..1000 (the Bruck family's
# byte-exact and all-ranks runs to p = 200).
# Extra arguments go to the tables tool instead, e.g. scripts/main.sh --p 9,31-33 --format tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
bazel build -c opt //tables //verify >/dev/null 2>bazel-build.log || { cat bazel-build.log >&2; exit 1; }
rm -f bazel-build.log
[ $# -eq 0 ] || exec bazel-bin/tables/tables "$@"
bazel-bin/tables/tables --p 20
echo
bazel-bin/tables/tables --p 11 --family twotree
echo
bazel-bin/tables/tables --p 11 --family hypercube --blocks 3
echo
bazel-bin/tables/tables --p 7 --family merge --algorithm alg2
echo
bazel-bin/tables/tables --p 13 --family nway --n 1 --rule digits
echo
bazel-bin/tables/tables --p 6 --family bruck
echo
bazel-bin/tables/tables --p 11 --family knomial --ports 2
echo
bazel-bin/tables/tables --p 11 --family kary --degree 3 --blocks 2
echo
bazel-bin/verify/verify --from 1 --to 1000
for family in twotree hypercube merge nway knomial kary; do
  bazel-bin/verify/verify --family "$family" --from 1 --to 1000
done
bazel-bin/verify/verify --family bruck --from 1 --to 1000 --checks schedule,runs
bazel-bin/verify/verify --family bruck --from 1 --to 200
