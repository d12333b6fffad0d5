#!/usr/bin/env bash
# backbone_probe.sh: how much of a simulated platform's backbone a collective can use at most.
set -euo pipefail
usage() {
  cat <<'HELP'
Usage: bash scripts/backbone_probe.sh [--platform flat] [--p P] [--sizes 8192,1048576]
                                     [--messages K] [--cfg X]...

Runs sim/platforms/backbone_probe.c under SimGrid SMPI: every rank sends K messages of each size
to its neighbour, all posted at the same simulated instant, so all p ranks' flows cross the
platform's backbone at once. Prints TSV (platform, p, messages, bytes, usec, bound_usec, ratio):
the measured time against the backbone's nominal bound p x K x bytes / bb_bw (the <cluster>
line's bb_bw). The ratio is what SMPI's network model makes of the backbone for such messages
(its size-dependent bandwidth factor and the 5% of reverse traffic of network/crosstraffic): a
collective that must move B bytes across the backbone in such messages cannot beat B / bb_bw
times it.

  --platform NAME  sim/platforms/NAME.xml, one rank per host (default flat)
  --p P            ranks (default: the platform's hosts)
  --sizes LIST     message sizes in bytes, comma-separated (default 8192,65536,1048576)
  --messages K     messages per rank and size, 1..4096 (default 1; many small ones show what a
                   pipeline of such blocks gets, one large one what a whole-message round does)
  --cfg X          passed to smpirun as --cfg=X (repeatable), e.g. network/crosstraffic:0
  -h, --help       this text
Exit status: 0, 1 if the run fails, 2 for bad arguments.
HELP
}
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
platform=flat p="" sizes=8192,65536,1048576 k=1 cfgs=()
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --platform|--p|--sizes|--messages|--cfg)
      [ $# -ge 2 ] || { echo "backbone_probe.sh: $1 needs a value" >&2; exit 2; }
      case $1 in
        --platform) platform=$2 ;; --p) p=$2 ;; --sizes) sizes=$2 ;; --messages) k=$2 ;;
        --cfg) cfgs+=("--cfg=$2") ;;
      esac
      shift 2 ;;
    *) echo "backbone_probe.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
xml="$root/sim/platforms/$platform.xml"
[ -f "$xml" ] || { echo "backbone_probe.sh: no platform $xml" >&2; exit 2; }
[[ "$sizes" =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "backbone_probe.sh: --sizes must be numbers, comma-separated" >&2; exit 2; }
[[ "$k" =~ ^[0-9]+$ ]] && [ "$k" -ge 1 ] && [ "$k" -le 4096 ] ||
  { echo "backbone_probe.sh: --messages must be in 1..4096" >&2; exit 2; }
command -v smpicc >/dev/null || bash "$root/scripts/install_deps.sh" >&2
radical=$(sed -n 's/.*radical="\([0-9]*\)-\([0-9]*\)".*/\1 \2/p' "$xml" | head -1)
bb=$(sed -n 's/.*bb_bw="\([0-9.]*\)GBps".*/\1/p' "$xml" | head -1)
[ -n "$radical" ] && [ -n "$bb" ] || { echo "backbone_probe.sh: $xml has no <cluster> with radical and bb_bw in GBps" >&2; exit 2; }
read -r lo hi <<<"$radical"
hosts=$((hi - lo + 1))
[ -n "$p" ] || p=$hosts
[[ "$p" =~ ^[0-9]+$ ]] && [ "$p" -ge 2 ] && [ "$p" -le "$hosts" ] ||
  { echo "backbone_probe.sh: --p must be in 2..$hosts on $platform" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
smpicc -O2 "$root/sim/platforms/backbone_probe.c" -o "$work/probe"
for ((r = 0; r < p; ++r)); do echo "node-$((lo + r))"; done >"$work/hosts"
echo "[backbone_probe] $p ranks on $platform (backbone $bb GB/s), $k message(s) of $sizes B" >&2
smpirun -np "$p" -platform "$xml" -hostfile "$work/hosts" --log=root.thres:warning \
  --cfg=smpi/display-timing:no "${cfgs[@]}" "$work/probe" "$k" ${sizes//,/ } >"$work/out" ||
  { echo "backbone_probe.sh: smpirun failed" >&2; exit 1; }
awk -F'\t' -v plat="$platform" -v bb="$bb" 'NR == 1 { print "platform\tp\tmessages\tbytes\tusec\tbound_usec\tratio"; next }
  { bound = $1 * $2 * $3 / (bb * 1e9) * 1e6
    printf "%s\t%s\t%s\t%s\t%s\t%.2f\t%.3f\n", plat, $1, $2, $3, $4, bound, $4 / bound }' "$work/out"
