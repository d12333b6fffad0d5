#!/usr/bin/python3
"""sim_table.py: Markdown tables of a scripts/simulate.sh TSV, as docs/sim/ shows them.

One table per (op, platform, p): a row per message size; columns the native collective under
each selector (µs), then each implementation of ours (µs) with its ratio to the best selector.

Usage: scripts/sim_table.py RESULTS.tsv [RESULTS.tsv ...]
Exit status: 0 success, 1 no rows, 2 unreadable file.
"""
import csv
import sys
from collections import defaultdict

SELECTORS = ["ompi", "mpich", "mvapich2", "impi"]


def size_label(b):
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= scale and b % scale == 0:
            return f"{b // scale} {unit}"
    return f"{b} B"


def fmt(v):
    return f"{v:,.1f}" if v >= 10 else f"{v:.2f}"


def fmt_ratio(v):
    """Two decimals, or two significant digits below 0.1 (0.0037, not 0.00)."""
    return f"{v:.2f}" if v >= 0.1 else f"{v:.2g}"


def table(key, rows):
    op, platform, p = key
    native = defaultdict(dict)  # bytes -> selector -> usec
    ours = defaultdict(dict)    # bytes -> impl -> usec
    ratio = defaultdict(dict)   # bytes -> impl -> (ratio, best selector)
    for r in rows:
        b, v = int(r["bytes"]), float(r["usec"])
        if r["impl"] == "native":
            native[b][r["selector"]] = v
        elif r["impl"].startswith("ratio-"):
            ratio[b][r["impl"][6:]] = (v, r["selector"])
        else:
            ours[b][r["impl"]] = v
    sels = [s for s in SELECTORS if any(s in native[b] for b in native)]
    impls = sorted({i for b in ours for i in ours[b]})
    out = [f"{op}, {platform}, p = {p} (µs; ours also as ratio to the best selector)", ""]
    out.append("| size | " + " | ".join(f"native {s}" for s in sels) + " | "
               + " | ".join(impls) + " |")
    out.append("|" + " ---: |" * (1 + len(sels) + len(impls)))
    for b in sorted(set(native) | set(ours)):
        cells = [size_label(b)]
        cells += [fmt(native[b][s]) if s in native[b] else "-" for s in sels]
        for i in impls:
            if i not in ours[b]:
                cells.append("-")
            elif i in ratio[b]:
                cells.append(f"{fmt(ours[b][i])} ({fmt_ratio(ratio[b][i][0])})")
            else:
                cells.append(fmt(ours[b][i]))
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    groups = defaultdict(list)
    for path in paths:
        try:
            with open(path, newline="") as f:
                for r in csv.DictReader(f, delimiter="\t"):
                    groups[(r["op"], r["platform"], r["p"])].append(r)
        except (OSError, KeyError) as e:
            print(f"sim_table: {path}: {e}", file=sys.stderr)
            return 2
    if not groups:
        print("sim_table: no rows", file=sys.stderr)
        return 1
    print("\n\n".join(table(k, groups[k]) for k in sorted(groups)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
