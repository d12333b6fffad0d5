#!/usr/bin/env bash
# The verifier as users run it: a sweep, the two plugins, bad arguments, JSON output.
set -u
verify="$(realpath "$1")"; good="$(realpath "$2")"; bad="$(realpath "$3")"
shift 3
declare -A misbehaving  # tests/plugins/misbehaving_plugin.cc, one .so per way to misbehave
for so in "$@"; do name="${so##*misbehaving_}"; misbehaving[${name%_plugin.so}]="$(realpath "$so")"; done
cd "${TEST_TMPDIR:-/tmp}"
fail=0
expect() {  # expect NAME STATUS ARGS...
  local name="$1" want="$2"; shift 2
  "$verify" "$@" >out.txt 2>err.txt
  local got=$?
  if [ "$got" != "$want" ]; then echo "FAIL $name: exit $got, expected $want"; cat out.txt err.txt; fail=1
  else echo "ok   $name"; fi
}
expect help 0 --help
grep -q -- "--plugin" out.txt || { echo "FAIL help lacks --plugin"; fail=1; }
expect good-plugin 0 --from 1 --to 150 --plugin "$good" --json good.json
grep -q "^verified p=1..150 construction=paper-plugin checks=schedule,structure,runs: 150 ok, 0 failed" out.txt ||
  { echo "FAIL good-plugin summary"; cat out.txt; fail=1; }
grep -q '"failed": 0' good.json || { echo "FAIL good.json"; cat good.json; fail=1; }
expect corrupt-plugin 1 --from 30 --to 45 --plugin "$bad" --json bad.json
grep -q "^FAILED broadcast-schedule .*: p=40 rank=17 round=3 " out.txt ||
  { echo "FAIL corrupt plugin counterexample"; cat out.txt; fail=1; }
grep -q "^reproduce: bazel run -c opt //verify -- --from 40 --to 40 --plugin $bad$" out.txt ||
  { echo "FAIL reproduce line"; cat out.txt; fail=1; }
grep -q "15 ok, 1 failed" out.txt || { echo "FAIL counts"; cat out.txt; fail=1; }
grep -q '"p": 40' bad.json && grep -q '"rank": 17' bad.json && grep -q '"round": 3' bad.json ||
  { echo "FAIL bad.json"; cat bad.json; fail=1; }
expect twotree 0 --family twotree --from 1 --to 64 --json tt.json
grep -q "^verified p=1..64 family=twotree .*: 64 ok, 0 failed, .*broadcast rounds minus the lecture's formula: -1..3$" out.txt ||
  { echo "FAIL twotree summary"; cat out.txt; fail=1; }
grep -q '"family": "twotree"' tt.json || { echo "FAIL tt.json"; cat tt.json; fail=1; }
expect hypercube 0 --family hypercube --from 1 --to 64 --json hc.json
grep -q "^verified p=1..64 family=hypercube .*: 64 ok, 0 failed, .*every broadcast took n - 1 + ceil(log2 p) rounds$" out.txt ||
  { echo "FAIL hypercube summary"; cat out.txt; fail=1; }
grep -q '"family": "hypercube"' hc.json || { echo "FAIL hc.json"; cat hc.json; fail=1; }
# Options that do not apply to a family are errors naming the option, never ignored.
expect plugin-with-twotree 2 --family twotree --to 5 --plugin "$good"
grep -q -- "--plugin does not apply to --family twotree" err.txt || { echo "FAIL plugin/twotree message"; cat err.txt; fail=1; }
expect construction-with-hypercube 2 --family hypercube --to 5 --construction paper
grep -q -- "--construction does not apply to --family hypercube" err.txt || { echo "FAIL construction/hypercube message"; cat err.txt; fail=1; }
expect per-rank-with-twotree 2 --family twotree --to 5 --per-rank
expect samples-with-hypercube 2 --family hypercube --to 5 --samples 3
expect schedule-check-with-hypercube 2 --family hypercube --to 5 --checks schedule
grep -q "family hypercube has no check group 'schedule' (it has: structure, runs)" err.txt ||
  { echo "FAIL checks/hypercube message"; cat err.txt; fail=1; }
# The summary lists the checks that ran, and only those.
expect circulant-structure-only 0 --to 40 --checks structure
grep -q "^verified p=1..40 construction=fast checks=structure: 40 ok" out.txt || { echo "FAIL checks=structure"; cat out.txt; fail=1; }
expect twotree-runs-need-structure 0 --family twotree --to 40 --checks runs
grep -q "^verified p=1..40 family=twotree checks=structure,runs: 40 ok" out.txt || { echo "FAIL twotree checks"; cat out.txt; fail=1; }
expect hypercube-structure-only 0 --family hypercube --to 40 --checks structure
grep -q "^verified p=1..40 family=hypercube checks=structure: 40 ok, 0 failed, [0-9.]* s, [0-9]* threads (thread-seconds: cube propositions and units [0-9.]*, broadcast runs [0-9.]*)$" out.txt ||
  { echo "FAIL hypercube checks=structure"; cat out.txt; fail=1; }
# Plugins that misbehave: a crash or exit() ends the run with status 1 naming p and rank; wrong
# output is a counterexample; no name is an unloadable plugin.
expect plugin-segfault 1 --from 30 --to 45 --plugin "${misbehaving[segfault]}"
grep -q "FAILED construction crashed (signal 11) in rosched_send_schedule at p=40 rank=17" err.txt ||
  { echo "FAIL segfault report"; cat err.txt; fail=1; }
expect plugin-exit 1 --from 30 --to 45 --plugin "${misbehaving[exit]}"
grep -q "FAILED construction called exit() in rosched_send_schedule at p=40 rank=17" err.txt ||
  { echo "FAIL exit report"; cat err.txt; fail=1; }
expect plugin-noname 2 --to 5 --plugin "${misbehaving[noname]}"
grep -q "rosched_construction_name() returned no name" err.txt || { echo "FAIL noname"; cat err.txt; fail=1; }
expect plugin-overrun 1 --from 30 --to 45 --plugin "${misbehaving[overrun]}"
grep -q "^FAILED construction wrote-past-32-entries: p=40 rank=17 round=-1 (rosched_send_schedule wrote entry 32)$" out.txt ||
  { echo "FAIL overrun report"; cat out.txt; fail=1; }
expect plugin-block99 1 --from 30 --to 45 --plugin "${misbehaving[block99]}"
grep -q "^FAILED construction block-out-of-range: p=40 rank=17 round=2 (rosched_send_schedule returned send\[2\] = 99, " out.txt ||
  { echo "FAIL block 99 report"; cat out.txt; fail=1; }
expect plugin-block-100 1 --from 30 --to 45 --plugin "${misbehaving[blockminus100]}" --json m100.json
grep -q "send\[2\] = -100, " out.txt || { echo "FAIL block -100 report"; cat out.txt; fail=1; }
grep -q '"expected"' m100.json && { echo "FAIL meaningless expected field"; cat m100.json; fail=1; }
expect plugin-error-code 1 --from 30 --to 45 --plugin "${misbehaving[error]}"
grep -q "^FAILED construction plugin-error: p=40 rank=17 round=-1 (rosched_send_schedule returned 3)$" out.txt ||
  { echo "FAIL error-code report"; cat out.txt; fail=1; }
# Relative paths under bazel run are relative to where the user ran it.
mkdir -p here
BUILD_WORKING_DIRECTORY="$PWD/here" expect json-relative 0 --to 20 --json rel.json
[ -s here/rel.json ] || { echo "FAIL --json not resolved against BUILD_WORKING_DIRECTORY"; fail=1; }
cp "$good" here/good.so
BUILD_WORKING_DIRECTORY="$PWD/here" expect plugin-relative 0 --to 20 --plugin good.so
# What cannot be written or checks nothing is refused before the run.
expect json-directory 2 --to 5 --json here
expect json-empty 2 --to 5 --json ""
expect json-unwritable 2 --to 5 --json /nonexistent/dir/x.json
expect plugin-empty 2 --to 5 --plugin ""
expect runs-check-nothing 2 --to 50 --checks runs --run-to 0
grep -q "checks nothing" err.txt || { echo "FAIL runs/run-to 0 message"; cat err.txt; fail=1; }
expect positional 2 --to 5 extra
expect threads-range 2 --to 5 --threads 99999
grep -q -- "--threads 99999 is outside" err.txt || { echo "FAIL threads message"; cat err.txt; fail=1; }
"$verify" --to 5 >/dev/full 2>err.txt && { echo "FAIL writing to a full disk exits 0"; fail=1; }
for family in circulant twotree hypercube; do
  expect "memory-$family" 2 --family "$family" --from 2147483647 --to 2147483647
  grep -q "needs about .* GiB per thread" err.txt || { echo "FAIL memory message"; cat err.txt; fail=1; }
done
expect unknown-family 2 --to 5 --family ring
expect not-a-plugin 2 --to 5 --plugin /nonexistent.so
expect bad-range 2 --from 10 --to 5
expect too-large 2 --to 2147483648
expect unknown-construction 2 --to 5 --construction magic
expect unknown-check 2 --to 5 --checks schedule,magic
expect missing-to 2 --from 3
for f in err.txt; do [ "$(wc -l <"$f")" = 1 ] || { echo "FAIL error not one line"; cat "$f"; fail=1; }; done
exit $fail
