#!/usr/bin/python3
"""sim_summary.py: the summary of the simulated results, from the TSVs of scripts/simulate.sh.

A manifest names, for each collective, platform and size, the implementation of ours that the
summary shows (usually `auto`, the Rosched_ entry point's own choice) and the TSVs that hold it
and the native selectors' times. The summary's figure is ours / the fastest native selector
found in those TSVs at that size (below 1: ours faster), as simulate.sh's ratio rows; nothing is
measured or typed in here, every figure comes from a committed TSV.

Manifest columns (tab-separated, '#' starts a comment line):
  collective  the name shown (Bcast, Allgatherv (r mod 3), ...)
  op          the TSVs' op column (bcast, allgatherv, ...)
  platform    the TSVs' platform column (flat, paper, ...)
  p           ranks
  bytes       the TSVs' bytes column (the message, or the whole result of an all-gather)
  impl        ours: the TSVs' impl column (auto, node, circulant, kary, ...)
  files       comma-separated TSVs, relative to the repository: ours is taken from the first
              that has it; the native rows of all of them make the baseline
Ours must have been run under one selector, or under the fastest one.

Output: --tsv FILE (collective, op, platform, p, bytes, impl, selector, usec, best_selector,
best_usec, ratio, selectors: the selectors whose native rows the baseline saw), --markdown (one
table per platform and p: a row per collective, a column per size; "*" marks a baseline of
fewer than the four selectors, "†" a figure of an implementation named in the manifest instead
of the entry point's own choice, "‡" a size too small for the distribution bench names: see
coarse()), --plot DIR (summary_PLATFORM_pP.png and .svg: the ratio
against size, one line per collective).

Usage: /usr/bin/python3 scripts/sim_summary.py MANIFEST [--tsv FILE] [--markdown] [--plot DIR]
Exit status: 0 success, 1 a manifest row whose figures are not in its TSVs, 2 bad usage or an
unreadable file.
"""
import argparse
import os
import sys
from collections import OrderedDict

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
# The TSVs' format and the fastest-selector rule of sim_merge.py; sim_table.py's size names.
from sim_merge import fastest_natives, read_rows  # noqa: E402
from sim_table import size_label  # noqa: E402

SELECTORS = ("ompi", "mpich", "mvapich2", "impi")
COLUMNS = ("collective", "op", "platform", "p", "bytes", "impl", "files")


class SummaryError(Exception):
    """A manifest row that the TSVs cannot answer."""


def read_manifest(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != len(COLUMNS):
                raise ValueError(f"{path}:{n}: {len(fields)} fields, want {len(COLUMNS)} "
                                 f"({', '.join(COLUMNS)})")
            row = dict(zip(COLUMNS, fields))
            row["files"] = [s.strip() for s in row["files"].split(",") if s.strip()]
            row["line"] = n
            rows.append(row)
    return rows


def read_tsv(path, cache):
    """The measured rows of a simulate.sh TSV (its ratio rows dropped): op, impl, selector,
    platform, p, bytes, usec."""
    if path not in cache:
        cache[path] = read_rows(path)
    return cache[path]


def summarise(row, root, cache):
    """The summary row of one manifest row."""
    key = (row["op"], row["platform"], row["p"], row["bytes"])
    natives, ours = [], None  # ours: (the first file that has it, {selector: usec})
    for name in row["files"]:
        for r in read_tsv(os.path.join(root, name), cache):
            op, impl, selector, platform, p, nbytes, usec = r
            if (op, platform, p, nbytes) != key:
                continue
            if impl == "native":
                natives.append(r)
            elif impl == row["impl"] and (ours is None or ours[0] == name):
                ours = ours or (name, {})
                ours[1][selector] = float(usec)
    where = f"manifest line {row['line']} ({row['collective']}, {row['platform']} p={row['p']}, " \
            f"{row['bytes']} B, {row['impl']})"
    if not natives:
        raise SummaryError(f"{where}: no native rows in {', '.join(row['files'])}")
    if ours is None:
        raise SummaryError(f"{where}: not in {', '.join(row['files'])}")
    best, best_selector = fastest_natives(natives)[key]
    seen = {r[2] for r in natives}
    runs = ours[1]
    if best_selector in runs:
        selector = best_selector
    elif len(runs) == 1:
        selector = next(iter(runs))
    else:
        raise SummaryError(f"{where}: run under {', '.join(sorted(runs))} in {ours[0]}, none the "
                           f"fastest selector ({best_selector}): which one to show is the "
                           "manifest's choice (name one file with one run)")
    usec = runs[selector]
    return OrderedDict([
        ("collective", row["collective"]), ("op", row["op"]), ("platform", row["platform"]),
        ("p", row["p"]), ("bytes", row["bytes"]), ("impl", row["impl"]), ("selector", selector),
        ("usec", f"{usec:.2f}"), ("best_selector", best_selector), ("best_usec", f"{best:.2f}"),
        ("ratio", f"{usec / best:.2f}" if best > 0 else "-"),
        ("selectors", ",".join(s for s in SELECTORS if s in seen)),
    ])


def coarse(op, p, nbytes):
    """Whether bench could not cut `nbytes` (as --sizes, whole MPI_INTs) as op's distribution
    says, so that the cell measured another data set than its column names (mpi_exec/bench.cc):
    all-gather and reduce_scatter_block give every rank c = max(1, floor(m / p)) of the m
    elements: marked where the c p elements moved differ from m by more than a tenth (below p
    elements each rank has one and the whole result is p x 4 B); the (r mod 3) counts of
    allgatherv and reduce_scatter give rank r < p - 1 (r mod 3) floor(m / w) elements, w the sum
    of (r mod 3) over r < p - 1, and the last rank the rest: marked where what whole shares
    leave over, which the last rank holds beside its own share, is more than a tenth of all
    (below w elements it is all of them)."""
    p, m = int(p), int(nbytes) // 4
    if op in ("allgather", "reduce_scatter_block"):
        return 10 * abs(max(1, m // p) * p - m) > m
    if op in ("allgatherv", "reduce_scatter"):
        w = sum(r % 3 for r in range(p - 1))
        if w == 0:
            return False
        return 10 * (m - (m // w) * w) > m
    return False


def configuration(platform, p):
    """The name of a simulated cluster, as the README calls it."""
    if platform == "paper" and int(p) % 36 == 0:
        return f"paper 36 x {int(p) // 36}"
    return f"{platform}, p = {int(p):,}"


def groups(rows):
    """(platform, p) -> collective -> bytes -> row, in the manifest's order."""
    out = OrderedDict()
    for r in rows:
        out.setdefault((r["platform"], r["p"]), OrderedDict()).setdefault(
            r["collective"], {})[int(r["bytes"])] = r
    return out


def markdown(rows):
    lines = []
    for (platform, p), by_collective in groups(rows).items():
        sizes = sorted({b for cells in by_collective.values() for b in cells})
        lines.append(f"**{configuration(platform, p)}**")
        lines.append("")
        lines.append("| | " + " | ".join(size_label(b) for b in sizes) + " |")
        lines.append("| --- |" + " ---: |" * len(sizes))
        for collective, cells in by_collective.items():
            out = []
            for b in sizes:
                r = cells.get(b)
                if r is None:
                    out.append("")
                    continue
                mark = ("*" if len(r["selectors"].split(",")) < len(SELECTORS) else "") + \
                       ("†" if r["impl"] != "auto" else "") + \
                       ("‡" if coarse(r["op"], p, b) else "")
                out.append(r["ratio"] + mark)
            lines.append(f"| {collective} | " + " | ".join(out) + " |")
        lines.append("")
    return "\n".join(lines)


def plot(rows, outdir):
    # Only here: the summary's tables need no matplotlib. plot_sim sets the backend first.
    from plot_sim import save_figure
    import matplotlib.pyplot as plt

    written = []
    for (platform, p), by_collective in groups(rows).items():
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for collective, cells in by_collective.items():
            sizes = sorted(b for b in cells if cells[b]["ratio"] != "-")
            ax.plot(sizes, [float(cells[b]["ratio"]) for b in sizes], marker="o",
                    markersize=3.5, label=collective)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message size (bytes; all-gathers: the whole result)")
        ax.set_ylabel("ours / best native selector")
        ax.set_title(f"rosched / the best MPI library's choice, {configuration(platform, p)} "
                     "(SimGrid SMPI)", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        written += save_figure(fig, os.path.join(outdir, f"summary_{platform}_p{p}"))
    return written


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.strip(), usage=argparse.SUPPRESS,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("manifest")
    parser.add_argument("--tsv", help="write the summary rows to this TSV")
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    parser.add_argument("--plot", metavar="DIR", help="write summary_PLATFORM_pP.{png,svg} here")
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), os.pardir),
                        help="the directory the manifest's paths are relative to (default: the "
                             "repository)")
    args = parser.parse_args(argv[1:])
    try:
        manifest = read_manifest(args.manifest)
        cache = {}
        rows = [summarise(r, args.root, cache) for r in manifest]
    except SummaryError as e:
        print(f"sim_summary.py: {e}", file=sys.stderr)
        return 1
    except (OSError, ValueError, KeyError) as e:
        print(f"sim_summary.py: {e}", file=sys.stderr)
        return 2
    if args.tsv:
        with open(args.tsv, "w", encoding="utf-8") as f:
            f.write("\t".join(rows[0].keys()) + "\n" if rows else "")
            for r in rows:
                f.write("\t".join(r.values()) + "\n")
    if args.markdown:
        print(markdown(rows))
    if args.plot:
        for path in plot(rows, args.plot):
            print(f"sim_summary.py: wrote {path}", file=sys.stderr)
    if not (args.tsv or args.markdown or args.plot):
        for r in rows:
            print(f"{r['collective']:24} {configuration(r['platform'], r['p']):16} "
                  f"{size_label(int(r['bytes'])):>8} {r['impl']:10} {r['ratio']:>6} "
                  f"(of {r['best_selector']}, best of {r['selectors']})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
