#!/usr/bin/env bash
# The main job: Table 1 of Träff 2022 (p = 20) with its validity summary line, the two trees of
# the two-tree broadcast for p = 11 with their edge colours, Bin Jia's hypercube broadcast of
# M = 3 blocks for p = 11 (NEXTBIT, cooperating pairs, every round), and a verification of the
# three schedule families for every p = 1..1000.
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
bazel-bin/verify/verify --from 1 --to 1000
bazel-bin/verify/verify --family twotree --from 1 --to 1000
bazel-bin/verify/verify --family hypercube --from 1 --to 1000
