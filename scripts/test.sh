#!/usr/bin/env bash
# All tests: builds everything and runs every test target with Bazel, offline; then the unit
# tests and the MPI tests once more, built with AddressSanitizer and UndefinedBehaviorSanitizer
# (--config=asan in .bazelrc); then builds the core with Clang and runs its tests
# (scripts/build_clang.sh). Ends with one line "tests: N passed, M failed" counting the test
# cases of all three.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh || exit 1
quiet() { grep -v "^\(Loading\|Analyzing\|INFO: \(Analyzed\|Found\|From\)\|\[[0-9,]* / [0-9,]*\]\)"; }
bazel test --test_output=errors //... 2>&1 | quiet
status=${PIPESTATUS[0]}
# The sanitized run: every GoogleTest target, the mpirun matrix at p = 1, 2, 3, 5, 8 (one
# process, powers of two and not) and the differential test's three targets (random derived
# types, counts and communicators; about 15 minutes of the sanitized run's 25 here, the longest
# target 400 s); the shell tests of the command-line tools, the long verifier sweep and the
# other p are left to the plain run.
echo "--- the unit and MPI tests again, with -fsanitize=address,undefined"
asan_targets=$(bazel query 'kind(cc_test, //...) + //tests:mpi_collectives_test + tests(//tests:mpi_differential_test)' 2>/dev/null)
bazel test --config=asan --test_output=errors --test_env=ROSCHED_MPI_TEST_P="1 2 3 5 8" \
  $asan_targets 2>&1 | quiet
asan_status=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$asan_status
# Count test cases from the JUnit XML of the test targets of both runs (GoogleTest writes its
# own; Bazel writes one case for a shell test), only of targets that exist now: a removed
# target's XML stays in bazel-testlogs of a workspace that ran it.
xml_of() {  # LOGS TARGET...: the test.xml of each target under LOGS, where there is one
  local logs=$1 t; shift
  for t in "$@"; do t=${t#//}; [ -f "$logs/${t/://}/test.xml" ] && echo "$logs/${t/://}/test.xml"; done
}
read -r passed failed < <(
  { xml_of "$(bazel info bazel-testlogs 2>/dev/null)" $(bazel query 'tests(//...)' 2>/dev/null)
    xml_of "$(bazel info --config=asan bazel-testlogs 2>/dev/null)" $asan_targets; } |
    xargs -r cat |
    awk '/<testsuites /{ if (match($0, /tests="[0-9]+"/)) t += substr($0, RSTART+7, RLENGTH-8);
                         if (match($0, /failures="[0-9]+"/)) f += substr($0, RSTART+10, RLENGTH-11);
                         if (match($0, /errors="[0-9]+"/)) f += substr($0, RSTART+8, RLENGTH-9) }
         END { print t - f, f + 0 }')
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
[ "${CI:-}" = "true" ] && bazel shutdown 2>/dev/null
# The core again, built with Clang (scripts/build_clang.sh); its test cases count in the totals.
clang_log=$(mktemp)
bash scripts/build_clang.sh 2>&1 | tee "$clang_log"
clang_status=${PIPESTATUS[0]}
read -r clang_passed clang_failed < <(awk '/^clang tests: /{ p = $3; f = $5 } END { print p + 0, f + 0 }' "$clang_log")
rm -f "$clang_log"
[ "$clang_status" -eq 0 ] || [ "$clang_failed" -gt 0 ] || clang_failed=1
passed=$((passed + clang_passed))
failed=$((failed + clang_failed))
[ "$status" -ne 0 ] || status=$clang_status
echo "tests: ${passed} passed, ${failed} failed"
exit "$status"
