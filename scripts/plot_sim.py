#!/usr/bin/python3
"""plot_sim.py: plots of a scripts/simulate.sh TSV (op impl selector platform p bytes usec).

For every (op, platform, p) in the file, two figures, each as PNG and SVG:
  OP_PLATFORM_pP[_TAG]_time:  time against message size, log-log, one line per native selector
                              and per implementation of ours (as the figures of Träff 2022,
                              Sec. 3);
  OP_PLATFORM_pP[_TAG]_ratio: ours / the best native selector at each size (below 1: ours
                              faster).

Usage: /usr/bin/python3 scripts/plot_sim.py RESULTS.tsv [--outdir DIR] [--tag TAG]
  --outdir: default beside the TSV; --tag: a name part that keeps the plots of a run of some
  implementations only from replacing those of the full run.
Exit status: 0 success, 1 no rows to plot, 2 bad usage or unreadable file.
"""
import argparse
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "rosched"  # the same SVG for the same figure
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the non-interactive backend)

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
from sim_table import size_label  # noqa: E402  (the size names of sim_table.py's tables)


def read_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    want = {"op", "impl", "selector", "platform", "p", "bytes", "usec"}
    if rows and not want <= set(rows[0]):
        raise ValueError(f"{path}: columns must be {sorted(want)}")
    return rows


def plot_group(key, rows, outdir, tag):
    op, platform, p = key
    times = defaultdict(dict)   # line label -> {bytes: usec}
    ratios = defaultdict(dict)
    for r in rows:
        b, v = int(r["bytes"]), float(r["usec"])
        if r["impl"] == "native":
            times[f"native ({r['selector']})"][b] = v
        elif r["impl"].startswith("ratio-"):
            ratios[r["impl"][len("ratio-"):]][b] = v
        else:
            times[r["impl"]][b] = v
    stem = os.path.join(outdir, f"{op}_{platform}_p{p}" + (f"_{tag}" if tag else ""))
    title = f"{op}, {platform} platform, p = {p} (SimGrid SMPI)"

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label in sorted(times, key=lambda s: (not s.startswith("native"), s)):
        xs = sorted(times[label])
        style = "--" if label.startswith("native") else "-"
        ax.plot(xs, [times[label][x] for x in xs], style, marker="o", markersize=3, label=label)
    finish(ax, title, "time (µs)")
    save(fig, stem + "_time")

    if ratios:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for label in sorted(ratios):
            xs = sorted(ratios[label])
            ax.plot(xs, [ratios[label][x] for x in xs], marker="o", markersize=3, label=label)
        ax.axhline(1.0, color="black", linewidth=0.8)
        finish(ax, title, "ours / best native selector")
        save(fig, stem + "_ratio")


def finish(ax, title, ylabel):
    """Log-log axes over the message size, with the title, a grid and the legend."""
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)


def save_figure(fig, stem):
    """Writes fig as STEM.png and STEM.svg (the SVG without a date: with the fixed hash salt
    above, an unchanged figure gives the same file) and closes it; returns the two paths."""
    fig.tight_layout()
    paths = []
    for ext in ("png", "svg"):
        fig.savefig(f"{stem}.{ext}", dpi=110, metadata={"Date": None} if ext == "svg" else None)
        paths.append(f"{stem}.{ext}")
    plt.close(fig)
    return paths


def save(fig, stem):
    save_figure(fig, stem)
    print(f"plot_sim: wrote {stem}.png and .svg", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tsv")
    ap.add_argument("--outdir", help="where the plots go (default: the TSV's folder)")
    ap.add_argument("--tag", default="", help="added to the plots' names")
    args = ap.parse_args()
    if args.tag and not args.tag.replace("-", "").replace(",", "").isalnum():
        print(f"plot_sim: --tag must be letters, digits, '-' and ','", file=sys.stderr)
        return 2
    try:
        rows = read_rows(args.tsv)
    except (OSError, ValueError) as e:
        print(f"plot_sim: {e}", file=sys.stderr)
        return 2
    if not rows:
        print(f"plot_sim: {args.tsv} has no rows", file=sys.stderr)
        return 1
    outdir = args.outdir or os.path.dirname(os.path.abspath(args.tsv))
    os.makedirs(outdir, exist_ok=True)
    groups = defaultdict(list)
    for r in rows:
        groups[(r["op"], r["platform"], r["p"])].append(r)
    for key in sorted(groups):
        plot_group(key, groups[key], outdir, args.tag.replace(",", "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
