#!/usr/bin/env bash
# The main job: Table 1 of Träff 2022 (p = 20) with its validity summary line.
# Extra arguments go to the tables tool, e.g. scripts/main.sh --p 9,31-33 --format tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--p 20)
bazel build -c opt //tables >/dev/null 2>bazel-build.log || { cat bazel-build.log >&2; exit 1; }
rm -f bazel-build.log
exec bazel-bin/tables/tables "${args[@]}"
