#!/usr/bin/env bash
# scripts/sim_summary.py: the summary figure is ours / the fastest native selector over the TSVs a
# manifest row names, ours taken from the first TSV that has it (under the fastest selector where
# it ran under several); "*" marks a baseline of fewer than four selectors, "†" an implementation
# other than auto; a row the TSVs cannot answer is exit 1, bad usage exit 2. Also: the committed
# manifest (results/summary_sources.tsv) resolves against the committed TSVs, row for row as
# results/summary.tsv holds them. Runs on the source tree.
set -u
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
summary=(/usr/bin/python3 "$root/scripts/sim_summary.py")
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
row() { printf '%s\t' "$@" | sed 's/\t$//'; }
h=$(row op impl selector platform p bytes usec)
printf '%s\n' "$h" \
  "$(row bcast native ompi flat 8 1024 40.0)" "$(row bcast native mpich flat 8 1024 25.0)" \
  "$(row bcast auto ompi flat 8 1024 30.0)" "$(row bcast auto mpich flat 8 1024 20.0)" \
  "$(row bcast ratio-auto mpich flat 8 1024 0.800)" \
  "$(row bcast native ompi flat 8 4096 50.0)" "$(row bcast kary ompi flat 8 4096 45.0)" \
  "$(row bcast auto ompi flat 8 65536 90.0)" "$(row bcast auto mpich flat 8 65536 80.0)" \
  "$(row bcast native ompi flat 8 65536 100.0)" >"$tmp/a.tsv"
# Another run: Intel MPI's and MVAPICH2's selectors, the latter faster at 4 KiB.
printf '%s\n' "$h" "$(row bcast native impi flat 8 1024 26.0)" \
  "$(row bcast native mvapich2 flat 8 1024 27.0)" "$(row bcast native mvapich2 flat 8 4096 36.0)" \
  >"$tmp/b.tsv"
printf '# a comment\n%s\n%s\n' \
  "$(row Bcast bcast flat 8 1024 auto "a.tsv,b.tsv")" \
  "$(row Bcast bcast flat 8 4096 kary "a.tsv,b.tsv")" >"$tmp/m.tsv"
if "${summary[@]}" "$tmp/m.tsv" --root "$tmp" --tsv "$tmp/s.tsv" --markdown >"$tmp/s.md"; then
  ok "exit 0"; else bad "exit status"; fi
got=$(awk -F'\t' 'NR > 1 { print $5 ":" $6 ":" $7 ":" $9 ":" $11 ":" $12 }' "$tmp/s.tsv" | tr '\n' ' ')
want="1024:auto:mpich:mpich:0.80:ompi,mpich,mvapich2,impi 4096:kary:ompi:mvapich2:1.25:ompi,mvapich2 "
[ "$got" = "$want" ] && ok "ours under the fastest selector, against all files' natives" ||
  bad "rows: $got (want $want)"
grep -q '^| Bcast | 0.80 | 1.25\*† |$' "$tmp/s.md" && ok "markdown row and marks" ||
  bad "markdown: $(grep Bcast "$tmp/s.md")"
# Sizes bench cannot cut as named get "‡": an all-gather whose equal blocks of whole elements
# hold more than a tenth more or less (16 B at p = 8: one element each, 32 B in all; 64 B: 16
# elements, two each, as asked), the (r mod 3) counts where what whole shares leave over
# goes to the last rank and is more than a tenth (p = 8: weights 0 1 2 0 1 2 0, w = 6; 20 B = 5
# elements: no whole share, all of them left over; 4 KiB = 1,024: shares of 170, 4 left over).
printf '%s\n' "$h" "$(row allgather native ompi flat 8 16 9.0)" "$(row allgather auto ompi flat 8 16 9.0)" \
  "$(row allgather native ompi flat 8 64 9.0)" "$(row allgather auto ompi flat 8 64 9.0)" \
  "$(row allgatherv native ompi flat 8 20 9.0)" "$(row allgatherv auto ompi flat 8 20 9.0)" \
  "$(row allgatherv native ompi flat 8 4096 9.0)" "$(row allgatherv auto ompi flat 8 4096 9.0)" \
  >"$tmp/c.tsv"
printf '%s\n' "$(row Allgather allgather flat 8 16 auto c.tsv)" "$(row Allgather allgather flat 8 64 auto c.tsv)" \
  "$(row Agv allgatherv flat 8 20 auto c.tsv)" "$(row Agv allgatherv flat 8 4096 auto c.tsv)" >"$tmp/mc.tsv"
"${summary[@]}" "$tmp/mc.tsv" --root "$tmp" --markdown >"$tmp/c.md"
grep -q '^| Allgather | 1.00\*‡ |  | 1.00\* |  |$' "$tmp/c.md" &&
  grep -q '^| Agv |  | 1.00\*‡ |  | 1.00\* |$' "$tmp/c.md" && ok "coarse sizes marked" ||
  bad "coarse sizes: $(grep '^| A' "$tmp/c.md" | tr '\n' ' ')"
# Ours under two selectors, neither the fastest: which to show is the manifest's choice.
printf '%s\n' "$(row Bcast bcast flat 8 65536 auto "a.tsv,b.tsv")" >"$tmp/amb.tsv"
printf '%s\n' "$h" "$(row bcast native mvapich2 flat 8 65536 70.0)" >"$tmp/b.tsv"
"${summary[@]}" "$tmp/amb.tsv" --root "$tmp" >/dev/null 2>"$tmp/amb.err"; rc=$?
[ $rc = 1 ] && grep -q "none the fastest selector" "$tmp/amb.err" && ok "ambiguous selector: exit 1" ||
  bad "ambiguous selector: exit $rc, $(cat "$tmp/amb.err")"
printf '%s\n' "$(row Bcast bcast flat 8 1024 hypercube "a.tsv")" >"$tmp/missing.tsv"
"${summary[@]}" "$tmp/missing.tsv" --root "$tmp" >/dev/null 2>"$tmp/missing.err"; rc=$?
[ $rc = 1 ] && grep -q "not in a.tsv" "$tmp/missing.err" && ok "implementation not run: exit 1" ||
  bad "implementation not run: exit $rc, $(cat "$tmp/missing.err")"
printf '%s\n' "$(row Bcast bcast flat 8 1024)" >"$tmp/short.tsv"
"${summary[@]}" "$tmp/short.tsv" --root "$tmp" >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok "malformed manifest: exit 2" || bad "malformed manifest: exit $rc"
"${summary[@]}" >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok "no arguments: exit 2" || bad "no arguments: exit $rc"
"${summary[@]}" --help | grep -q "^Usage: .*sim_summary.py MANIFEST" && ok "--help" || bad "--help"
# The committed summary is what the committed TSVs give.
if "${summary[@]}" "$root/results/summary_sources.tsv" --tsv "$tmp/committed.tsv" >/dev/null; then
  cmp -s "$tmp/committed.tsv" "$root/results/summary.tsv" && ok "results/summary.tsv reproduced" ||
    bad "results/summary.tsv differs from the manifest's figures: $(diff "$tmp/committed.tsv" "$root/results/summary.tsv" | head -4)"
else bad "the committed manifest does not resolve"; fi
exit $fail
