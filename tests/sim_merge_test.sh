#!/usr/bin/env bash
# scripts/sim_merge.py: TSVs of split simulate.sh runs merged, the ratio rows computed anew
# against the fastest native selector over all inputs; a row measured twice and a malformed
# input are errors (exit 1), no arguments is a usage error (exit 2). Runs on the source tree.
set -u
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
merge=(/usr/bin/python3 "$root/scripts/sim_merge.py")
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
h=$(printf 'op\timpl\tselector\tplatform\tp\tbytes\tusec')
# One command's run: Open MPI's selector and ours (its ratio row against Open MPI's only) ...
printf '%s\n' "$h" \
  "$(printf 'bcast\tnative\tompi\tflat\t8\t1024\t40.0')" \
  "$(printf 'bcast\tauto\tompi\tflat\t8\t1024\t20.0')" \
  "$(printf 'bcast\tratio-auto\tompi\tflat\t8\t1024\t0.500')" \
  "$(printf 'bcast\tnative\tompi\tflat\t8\t4096\t50.0')" \
  "$(printf 'bcast\tauto\tompi\tflat\t8\t4096\t60.0')" >"$tmp/a.tsv"
# ... and another's: MPICH's selector, faster at 1 KiB only.
printf '%s\n' "$h" \
  "$(printf 'bcast\tnative\tmpich\tflat\t8\t1024\t25.0')" \
  "$(printf 'bcast\tnative\tmpich\tflat\t8\t4096\t70.0')" >"$tmp/b.tsv"
if "${merge[@]}" "$tmp/a.tsv" "$tmp/b.tsv" >"$tmp/m.tsv"; then ok "exit 0"; else bad "exit status"; fi
[ "$(head -1 "$tmp/m.tsv")" = "$h" ] && ok "header" || bad "header: $(head -1 "$tmp/m.tsv")"
got=$(awk -F'\t' '$2 !~ /^ratio-/ && NR > 1' "$tmp/m.tsv" | wc -l)
[ "$got" = 6 ] && ok "six measured rows kept" || bad "$got measured rows, want 6"
got=$(awk -F'\t' '$2 ~ /^ratio-/ { print $6 ":" $3 ":" $7 }' "$tmp/m.tsv" | sort | tr '\n' ' ')
[ "$got" = "1024:mpich:0.800 4096:ompi:1.200 " ] && ok "ratio rows against the fastest of both runs" ||
  bad "ratio rows: $got (want 1024:mpich:0.800 4096:ompi:1.200)"
if "${merge[@]}" "$tmp/a.tsv" "$tmp/a.tsv" >/dev/null 2>"$tmp/dup.err"; then bad "a row measured twice accepted"
else [ $? = 1 ] && grep -q "also measured" "$tmp/dup.err" && ok "a row measured twice: exit 1, named" ||
  bad "duplicate: $(cat "$tmp/dup.err")"; fi
printf 'op\tusec\nbcast\t1\n' >"$tmp/bad.tsv"
"${merge[@]}" "$tmp/bad.tsv" >/dev/null 2>&1; rc=$?
[ $rc = 1 ] && ok "malformed input: exit 1" || bad "malformed input: exit $rc"
"${merge[@]}" >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok "no arguments: exit 2" || bad "no arguments: exit $rc"
"${merge[@]}" --help >"$tmp/help.txt" && grep -q "^Usage: sim_merge.py" "$tmp/help.txt" && ok "--help" || bad "--help"
exit $fail
