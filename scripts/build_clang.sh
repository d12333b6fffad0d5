#!/usr/bin/env bash
# The core built with Clang: every target of sched/ (and sim/, if there) and every cc_test that
# depends on them (except MPI tests), built by Bazel with CC=clang and run. The build lives in an
# output base of its own, so it neither invalidates the GCC build's cache nor moves the bazel-*
# links (it makes none). Last line: "clang tests: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
command -v clang >/dev/null || { echo "build_clang: no clang (scripts/install_deps.sh)" >&2; exit 1; }

base="${XDG_CACHE_HOME:-$HOME/.cache}/rosched-clang/$(pwd -P | md5sum | cut -c1-16)"
bz() {
  local cmd=$1
  shift
  CC=clang bazel --output_base="$base" --max_idle_secs=300 "$cmd" --repo_env=CC=clang \
    "$@"
}

core=(//sched/...)
[ -f sim/BUILD ] && core+=(//sim/...)
union=$(printf ' + %s' "${core[@]}")
# The universe: every top folder with a BUILD file, but not //...: that would enter the GCC
# build's bazel-* links, which point into another output base.
universe=$(for d in */; do
  d=${d%/}
  [[ $d == bazel-* ]] || [ -z "$(find "$d" -name BUILD -print -quit)" ] || printf ' + //%s/...' "$d"
done)
universe=${universe:3}
tests=$(bz query "kind(cc_test, rdeps($universe, ${union:3})) except rdeps($universe, @openmpi//...)" \
  2>/dev/null)
[ -n "$tests" ] || { echo "build_clang: no tests found" >&2; exit 1; }

# shellcheck disable=SC2086  # $tests is a word list
bz test --symlink_prefix=/ --test_output=errors "${core[@]}" $tests 2>&1 |
  grep -v "^\(Loading\|Analyzing\|INFO: \(Analyzed\|Found\|From\)\|\[[0-9,]* / [0-9,]*\]\)"
status=${PIPESTATUS[0]}

# Test cases from the JUnit XML of the tests just run (see scripts/test.sh).
logs=$(bz info bazel-testlogs 2>/dev/null)
read -r passed failed < <(
  for t in $tests; do
    t=${t#//}
    cat "${logs}/${t%%:*}/${t#*:}/test.xml" 2>/dev/null
  done |
    awk '/<testsuites /{ if (match($0, /tests="[0-9]+"/)) t += substr($0, RSTART+7, RLENGTH-8);
                         if (match($0, /failures="[0-9]+"/)) f += substr($0, RSTART+10, RLENGTH-11);
                         if (match($0, /errors="[0-9]+"/)) f += substr($0, RSTART+8, RLENGTH-9) }
         END { print t - f, f + 0 }')
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
[ "${CI:-}" = "true" ] && bazel --output_base="$base" shutdown 2>/dev/null
echo "clang tests: ${passed} passed, ${failed} failed"
exit "$status"
