#!/usr/bin/env python3
"""Merges TSVs of scripts/simulate.sh into one, with the ratio rows computed anew.

A run at 1,152 simulated ranks is often split (one selector per command, to stay within the
memory budget or the time at hand): each TSV's ratio rows then compare ours with the selectors
of that command only. This keeps every measured row (op, impl, selector, platform, p, bytes,
usec) of the inputs, drops their ratio rows, and adds one ratio row per implementation of ours
and size against the fastest native selector over all inputs, as simulate.sh writes them
(impl ratio-IMPL, selector the fastest, usec ours / its; none where that time is 0).
simulate.sh writes its own ratio rows with this script. A row measured twice (same op, impl,
selector, platform, p, bytes) is an error: which one to keep is the user's decision.

Usage: sim_merge.py A.tsv B.tsv ... > MERGED.tsv
Exit status: 0 merged, 1 a duplicate row or a malformed input, 2 bad usage.
"""
import sys

HEADER = ["op", "impl", "selector", "platform", "p", "bytes", "usec"]


def read_rows(path):
    with open(path, encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f if line.strip()]
    if not lines or lines[0].split("\t") != HEADER:
        raise ValueError(f"{path}: not a simulate.sh TSV (header {lines[0] if lines else 'missing'})")
    rows = []
    for n, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != len(HEADER):
            raise ValueError(f"{path}:{n}: {len(fields)} fields, want {len(HEADER)}")
        if fields[1].startswith("ratio-"):
            continue
        try:
            float(fields[6])
        except ValueError:
            raise ValueError(f"{path}:{n}: usec '{fields[6]}' is not a number") from None
        rows.append(fields)
    return rows


def fastest_natives(rows):
    """(op, platform, p, bytes) -> (usec, selector) of the fastest native row (the first of equals):
    the baseline of every ratio, here and in sim_summary.py."""
    best = {}
    for r in rows:
        if r[1] == "native":
            k = (r[0], r[3], r[4], r[5])
            if k not in best or float(r[6]) < best[k][0]:
                best[k] = (float(r[6]), r[2])
    return best


def merge(paths):
    rows, seen = [], {}
    for path in paths:
        for r in read_rows(path):
            key = tuple(r[:6])
            if key in seen:
                raise ValueError(f"{path}: {' '.join(key)} also measured in {seen[key]}")
            seen[key] = path
            rows.append(r)
    best = fastest_natives(rows)
    out = list(rows)
    for r in rows:
        k = (r[0], r[3], r[4], r[5])
        if r[1] != "native" and k in best and best[k][0] > 0:
            usec, selector = best[k]
            out.append([r[0], "ratio-" + r[1], selector, r[3], r[4], r[5],
                        f"{float(r[6]) / usec:.3f}"])
    return out


def main(argv):
    if len(argv) >= 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) < 2:
        print("usage: sim_merge.py A.tsv B.tsv ... > MERGED.tsv (--help for more)", file=sys.stderr)
        return 2
    try:
        out = merge(argv[1:])
    except (OSError, ValueError) as e:
        print(f"sim_merge.py: {e}", file=sys.stderr)
        return 1
    print("\t".join(HEADER))
    for r in out:
        print("\t".join(r))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
