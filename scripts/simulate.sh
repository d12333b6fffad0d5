#!/usr/bin/env bash
# simulate.sh: the collectives of mpi_exec/ against SimGrid SMPI's native ones, on a simulated
# cluster. See --help and docs/simulation.md.
set -uo pipefail

usage() {
  cat <<'EOF'
Usage: bash scripts/simulate.sh [options]

Runs mpi_exec/bench under SimGrid SMPI (smpirun) on a simulated cluster: the native collective
under each of SMPI's selectors (the algorithm choices of Open MPI, MPICH, MVAPICH2, Intel MPI)
and every implementation of this project, and writes one TSV
  op  impl  selector  platform  p  bytes  usec
plus, per size, rows impl=ratio-IMPL, selector=BEST, usec=IMPL/BEST where BEST is the fastest
selector at that size. Progress goes to stderr.

Options:
  --op OP           bcast, allgather, allgatherv, reduce, allreduce, reduce_scatter_block,
                    reduce_scatter (sizes: the whole vector; reduce_scatter's blocks the (r mod
                    3) counts of allgatherv), allmerge, alltoall, alltoallv or all (the first
                    five; default bcast); allgatherv runs the
                    (r mod 3) counts of Träff 2022, Sec. 3.2 (op "allgatherv"), uniform
                    counts (op "allgatherv_uniform") and rank 0 holding 99% of the elements
                    (op "allgatherv_one"; these two are also --op values, alone, and
                    allgatherv_rmod3 runs the first alone, its rows named "allgatherv"); alltoallv
                    uniform and power-law block sizes (Fan et al. 2022; op
                    "alltoallv_powerlaw"); for allmerge a size is
                    each rank's sorted block (op "allmerge_half": rank 0 holds half of all
                    elements, the others share the rest), for alltoall(v) one block
  --p P             simulated ranks (default 1152; 64 with --quick)
  --platform NAME   flat, flatnb, flat288 or paper (sim/platforms/NAME.xml; default flat)
  --sizes LIST      comma-separated message sizes in bytes, rounded down to whole MPI_INT
                    (at least one; two sizes of the same whole count are an error); default
                    4 B .. 16 MiB in steps of 4x
  --selectors LIST  comma-separated subset of ompi,mpich,mvapich2,impi, run in this order
                    (default ompi,mvapich2,impi,mpich: our implementations run under the
                    first; MPICH's native runs cost least, last so that --jobs 2 ends together)
  --impls LIST      this project's implementations to run, comma-separated (bench --impl;
                    default all of the operation's, for bcast on flat and flat288 all but the
                    scatter + all-gather, rsag); "pmpi" adds the native collective called
                    through the interposition library librosched_pmpi (ROSCHED_PMPI=auto; what an
                    unmodified MPI program gets), in the run of the first selector
  --reps N          repetitions per size, minimum reported (default: bcast 1, its times
                    repeat exactly once bench's untimed first calls (bench --warmup) have
                    taken the set-up out; the other operations 2, as theirs do not: see
                    docs/simulation.md, "Repetitions"); the native collective's untimed
                    call before each size stops once bench has seen SimGrid set
                    MPI_COMM_WORLD up (bench --rewarm until-setup; not with slowest)
  --measure M       span (max end - min start over ranks; default), sync (span with every rank
                    started at one agreed instant: no barrier skew; best below 64 KiB) or
                    slowest (the paper's)
  --jobs N          smpirun processes at once (default 1)
  --host-speed F    charge the code between MPI calls as computation: its real time on this
                    machine times F / the platform's 1 Gf (smpi/host-speed; 1e9: as fast as
                    this machine; default SimGrid's 20000, which makes computation free).
                    Only with --check when the work depends on the data (allmerge's merges
                    and sort): shared malloc makes all ranks' large buffers one region
  --compute kernels charge only the library's merge kernels and bench's sort (allmerge), by
                    their CPU time on this machine (ROSCHED_CHARGE_KERNELS,
                    mpi_exec/compute_charge.h), and not SMPI's own work around each MPI call,
                    which --host-speed charges to our collectives and never to SMPI's; buffers
                    below 1 MiB are real (shared malloc from 1 MiB), so the kernels see real
                    data while p x elements per rank x 4 B < 1 MiB
  --overhead US     CPU time per message on each side, in microseconds (SMPI's smpi/os,
                    smpi/ois and smpi/or; default 0, SimGrid's: then p - 1 messages posted at
                    once cost one latency, which no NIC achieves; 0.3: about 3 million
                    messages per second per process, what one pair of ranks gets from a
                    100 Gb/s-class NIC in a message-rate benchmark)
  --mem-gb N        stop a simulation whose memory exceeds N GiB (default 60% of RAM); the
                    sizes it finished stay in the TSV, the run counts as failed
  --quick           p = 64, three sizes, --op all: a fast check of the harness
  --check           real buffers (no shared malloc) and verify every result; needs p <= 64
  --out FILE        the TSV (default results/sim_OP_PLATFORM_pP.tsv); allmerge's merge work
                    (bench's moves rows: elements written by the busiest rank per element of
                    the result) goes to FILE without .tsv plus _moves.tsv
  --plot            also draw the plots (scripts/plot_sim.py) in plots/ next to the TSV (with
                    --impls LIST, named OP_PLATFORM_pP_LIST_*)
  --log FILE        also keep the library's own lines from every run's stderr (those that
                    begin with "rosched ": with ROSCHED_VERBOSE=1 what each collective chose
                    and its trials' timings, from each communicator's rank 0), under a
                    "# OP under SELECTOR (IMPLS)" line per run; without it they are dropped
                    with the run's output
  -h, --help        this text

Our implementations do not call the selected collectives, so they run once, under the first
selector; the other selectors run the native collective only. Under the first selector auto
(the library's choice, which times the others at each size's first call) runs apart from the
others, so that --jobs 2 runs the two halves side by side; with one rank per host (flat,
flatnb, paper up to 36 ranks) the bcast's node is the circulant broadcast and is left out.
Progress: each run's start and end, and bench's real time per size and implementation.

Exit status: 0 success, 1 a simulation failed or --check found a wrong result, 2 bad usage,
3 set-up failed (installing packages or building).
EOF
}

die_usage() { echo "simulate.sh: $*; see --help" >&2; exit 2; }
say() { echo "[simulate $(date +%H:%M:%S)] $*" >&2; }

root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
op=bcast p="" platform=flat sizes="" selectors="ompi,mvapich2,impi,mpich" reps=""
measure=span jobs=1 quick=0 check=0 out="" plot=0 ours=all host_speed="" compute="" overhead=""
log=""
mem_gb=$(awk '/MemTotal/ { print int($2 * 0.6 / 1048576) }' /proc/meminfo)
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --quick) quick=1; shift; continue ;;
    --check) check=1; shift; continue ;;
    --plot) plot=1; shift; continue ;;
    --op|--p|--platform|--sizes|--selectors|--reps|--measure|--jobs|--out|--mem-gb|--impls|--host-speed|--compute|--overhead|--log)
      [ $# -ge 2 ] || die_usage "$1 needs a value"
      case "$1" in
        --op) op=$2 ;; --p) p=$2 ;; --platform) platform=$2 ;; --sizes) sizes=$2 ;;
        --selectors) selectors=$2 ;; --reps) reps=$2 ;; --measure) measure=$2 ;;
        --jobs) jobs=$2 ;; --out) out=$2 ;; --mem-gb) mem_gb=$2 ;; --impls) ours=$2 ;;
        --host-speed) host_speed=$2 ;; --compute) compute=$2 ;;
        --overhead) overhead=$2 ;; --log) log=$2 ;;
      esac
      shift 2 ;;
    *) die_usage "unknown argument '$1'" ;;
  esac
done
if [ $quick -eq 1 ]; then
  op=all; p=${p:-64}; sizes=${sizes:-4,1024,65536}
fi
p=${p:-1152}
sizes=${sizes:-4,16,64,256,1024,4096,16384,65536,262144,1048576,4194304,16777216}

# --- arguments -----------------------------------------------------------------------------
case "$op" in bcast|allgather|allgatherv|allgatherv_rmod3|allgatherv_uniform|allgatherv_one|reduce|allreduce|reduce_scatter_block|reduce_scatter|allmerge|allmerge_half|alltoall|alltoallv|all) ;;
  *) die_usage "unknown --op '$op'" ;; esac
[[ "$p" =~ ^[0-9]+$ ]] && [ "$p" -ge 1 ] || die_usage "--p must be a positive integer"
[[ "$ours" =~ ^[a-z0-9,]+$ ]] || die_usage "--impls must be a comma-separated list of names"
[ -z "$reps" ] || { [[ "$reps" =~ ^[0-9]+$ ]] && [ "$reps" -ge 1 ]; } || die_usage "--reps must be a positive integer"
[[ "$jobs" =~ ^[0-9]+$ ]] && [ "$jobs" -ge 1 ] || die_usage "--jobs must be a positive integer"
[ -z "$host_speed" ] || [[ "$host_speed" =~ ^[0-9]+([.][0-9]+)?([eE][0-9]+)?$ ]] ||
  die_usage "--host-speed must be a number of flop/s, e.g. 1e9"
[ -z "$compute" ] || [ "$compute" = kernels ] || die_usage "--compute must be kernels"
[ -z "$compute" ] || [ -z "$host_speed" ] || die_usage "--compute kernels and --host-speed exclude each other"
[ -z "$overhead" ] || [[ "$overhead" =~ ^[0-9]+([.][0-9]+)?$ ]] ||
  die_usage "--overhead must be a number of microseconds, e.g. 0.3"
[[ "$mem_gb" =~ ^[0-9]+$ ]] && [ "$mem_gb" -ge 1 ] || die_usage "--mem-gb must be a positive integer"
case "$measure" in span|sync|slowest) ;; *) die_usage "--measure must be span, sync or slowest" ;; esac
xml="$root/sim/platforms/$platform.xml"
[ -f "$xml" ] || die_usage "no platform '$platform' (sim/platforms/$platform.xml)"
case "$platform" in
  flat|flatnb) [ "$p" -le 1152 ] || die_usage "the flat platform has 1152 hosts, --p $p is too many" ;;
  flat288) [ "$p" -le 288 ] || die_usage "the flat288 platform has 288 hosts, --p $p is too many" ;;
  paper) [ "$p" -le 1152 ] || die_usage "the paper platform has 36 x 32 cores, --p $p is too many" ;;
esac
[ $check -eq 0 ] || [ "$p" -le 64 ] || die_usage "--check runs with real buffers: --p must be <= 64"
kernels_shared_from=1048576  # --compute kernels: shared malloc from this allocation size only
ints=""
declare -A size_of_ints=()  # whole MPI_INTs -> the size given, so that no size runs twice
for b in ${sizes//,/ }; do
  [[ "$b" =~ ^[0-9]+$ ]] || die_usage "--sizes: '$b' is not a number of bytes"
  n=$((b / 4)); [ $n -ge 1 ] || n=1
  [ -z "${size_of_ints[$n]:-}" ] ||
    die_usage "--sizes: ${size_of_ints[$n]} and $b B both run $n MPI_INT ($((n * 4)) B); give each size once"
  size_of_ints[$n]=$b
  ints="${ints:+$ints,}$n"
  if [ -n "$compute" ] && [ $check -eq 0 ] && [ $((p * b)) -ge $kernels_shared_from ]; then
    say "warning: at $b B per rank the results of $p ranks are shared (not real) buffers; the kernels' charged times there are not meaningful"
  fi
done
IFS=, read -r -a sel_list <<<"$selectors"
[ ${#sel_list[@]} -ge 1 ] || die_usage "--selectors is empty"
for s in "${sel_list[@]}"; do
  case "$s" in ompi|mpich|mvapich2|impi) ;; *) die_usage "unknown selector '$s'" ;; esac
done
# Known not to end in SimGrid 3.32: Open MPI's selector's MPI_Reduce at 1,152 ranks (its 64 KiB
# ran 30 minutes without ending, on flat and paper; docs/simulation.md, "Not run").
if { [ "$op" = reduce ] || [ "$op" = all ]; } && [ "$p" -ge 1024 ] && [[ ",$selectors," == *,ompi,* ]]; then
  say "warning: Open MPI's selector's MPI_Reduce at $p ranks has not ended in SimGrid 3.32 (docs/simulation.md, \"Not run\"); --selectors without ompi runs the others"
fi
if [ "$op" = all ]; then ops="bcast allgather allgatherv allgatherv_uniform allgatherv_one reduce allreduce"
elif [ "$op" = allgatherv ]; then ops="allgatherv allgatherv_uniform allgatherv_one"
elif [ "$op" = allgatherv_rmod3 ]; then ops=allgatherv
elif [ "$op" = alltoallv ]; then ops="alltoallv alltoallv_powerlaw"
else ops=$op; fi
out=${out:-$root/results/sim_${op}_${platform}_p${p}.tsv}
mkdir -p "$(dirname "$out")" || exit 3
if [ -n "$log" ]; then
  mkdir -p "$(dirname "$log")" && : >"$log" || die_usage "--log: cannot write '$log'"
fi

# --- set-up: SimGrid, then bench built with smpicxx ----------------------------------------
install_packages() {  # install_packages PKG...: the Debian packages not yet installed
  local missing=() sudo=""
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing ${missing[*]}"
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null && \
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
install_packages libsimgrid-dev libboost-program-options-dev python3 || { echo "simulate.sh: could not install SimGrid" >&2; exit 3; }

build="${ROSCHED_SMPI_BUILD:-$root/build-smpi}"
bench="$build/bench"
bash "$root/scripts/smpi_build.sh" "$root" "$build" || { echo "simulate.sh: build failed" >&2; exit 3; }

# --- one smpirun per (op, selector) ---------------------------------------------------------
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
hostfile="$work/hosts"
if [ "$platform" = paper ]; then  # block mapping: ceil(p / 36) consecutive ranks per node
  ppn=$(( (p + 35) / 36 ))
  for ((r = 0; r < p; ++r)); do echo "node-$((r / ppn))"; done >"$hostfile"
else
  for ((r = 0; r < p; ++r)); do echo "node-$r"; done >"$hostfile"
fi
cfg=(--log=root.thres:warning --cfg=smpi/display-timing:no)
if [ -n "$compute" ]; then  # kernels: charged one by one (compute_charge.h), nothing else
  cfg+=(--cfg=smpi/simulate-computation:no --cfg=smpi/host-speed:1e9f --cfg=smpi/cpu-threshold:-1)
  export ROSCHED_CHARGE_KERNELS=1
  [ $check -eq 1 ] || cfg+=(--cfg=smpi/auto-shared-malloc-thresh:$kernels_shared_from)
elif [ $check -eq 0 ]; then
  cfg+=(--cfg=smpi/auto-shared-malloc-thresh:65536)
fi
[ -z "$host_speed" ] || cfg+=(--cfg=smpi/host-speed:"${host_speed}f")  # f: flop/s (a bare number is deprecated)
if [ -n "$overhead" ]; then  # one constant per message from size 0: "size:seconds:seconds per byte"
  o=$(awk -v us="$overhead" 'BEGIN { printf "%.9g", us * 1e-6 }')
  cfg+=(--cfg=smpi/os:0:$o:0 --cfg=smpi/ois:0:$o:0 --cfg=smpi/or:0:$o:0)
fi
extra=(--measure "$measure" --sizes "$ints")
[ $check -eq 0 ] || extra+=(--check)
# SimGrid sets a communicator up once (bench_setup.h): native's untimed call before each size
# only until bench has seen that happen (the first MPI_Allreduce at 1,152 ranks on flat). Not
# in the pmpi run: its native collective is the interposer's, which routes to Rosched_* and so
# pays their trial at each size's first call (a broadcast of 1 KiB on 36 x 1 timed with it:
# 1,104.7 us, without 8.4), so it is warmed before every size, as bench's auto.
rewarm=()
[ "$measure" = slowest ] || rewarm=(--rewarm until-setup)

impls_arg=$ours
pmpi=0  # "pmpi" is a run of its own (bench_pmpi), not a bench --impl
if [[ ",$ours," == *,pmpi,* ]]; then
  pmpi=1
  ours=$(echo ",$ours," | sed 's/,pmpi,/,/g; s/^,//; s/,$//')
  [ -n "$ours" ] || ours=native
fi
# One rank per host (flat, flatnb, paper up to 36 ranks): the node-aware broadcast is the
# circulant one (mpi_exec/bcast_circulant.cc), so a run of every implementation leaves it out.
one_per_host=0
{ [ "$platform" != paper ] || [ "$p" -le 36 ]; } && one_per_host=1
runs=()  # "op selector impls"
for o in $ops; do
  [ $pmpi -eq 0 ] || runs+=("$o ${sel_list[0]} pmpi")
  for s in "${sel_list[@]}"; do
    impls=native; [ "$s" = "${sel_list[0]}" ] && impls=$ours
    [ "$impls" = all ] && [ "$o" = bcast ] && [ $one_per_host -eq 1 ] && impls="all,-node"
    # On flat and flat288 the scatter + all-gather broadcast ("rsag") is not among
    # Rosched_Bcast's candidates (their backbone: mpi_exec/bcast_circulant.cc), and its streamed
    # all-gather costs most to simulate there: left out of "all" (--impls rsag runs it).
    if [[ "$impls" == all* ]] && [ "$o" = bcast ] && [[ "$platform" == flat || "$platform" == flat288 ]]; then
      impls="$impls,-rsag"
    fi
    [[ "$impls" == all* ]] || [[ ",$impls," == *,native,* ]] || [ "$impls" = native ] || impls="native,$impls"
    # auto (the library's choice) times the other implementations at each size's first call, so
    # it costs about as much as they do together: a run of its own, beside theirs (--jobs 2).
    if [[ ",$impls," == *,auto,* ]] && [ "$(echo "$impls" | tr ',' '\n' | grep -cv '^\(native\|auto\)$')" -gt 0 ]; then
      runs+=("$o $s $(echo ",$impls," | sed 's/,auto,/,/; s/^,//; s/,$//')")
      runs+=("$o $s native,auto")
    elif [[ "$impls" == all* ]] && [[ ",$impls," != *,-auto,* ]] && [[ "$o" =~ ^(bcast|allgather|allgatherv.*|reduce|allreduce|reduce_scatter.*)$ ]]; then
      runs+=("$o $s $impls,-auto")
      runs+=("$o $s native,auto")
    else
      runs+=("$o $s $impls")
    fi
  done
done
# bench's progress lines on stderr: passed on as they come, left out of a failed run's report
progress_lines='^bench: (size|MPI_COMM_WORLD)'
pass_progress() {  # bench's progress, the real time each size took and where SimGrid set
  # MPI_COMM_WORLD up (--rewarm until-setup), as they come (run_one's); where bench has said
  # nothing for 5 minutes (one call of a large broadcast can take an hour), a line that the
  # run goes on
  [ -f "$work/$i.err" ] || return 0
  n=$(wc -l <"$work/$i.err")
  if [ "$n" -le "$seen" ]; then
    if [ $((SECONDS - told)) -ge 300 ]; then
      say "$o $s ($impls): still running, $(((SECONDS - t0) / 60)) min so far"
      told=$SECONDS
    fi
    return 0
  fi
  sed -n "$((seen + 1)),${n}p" "$work/$i.err" | grep -E "$progress_lines" |
    while IFS= read -r line; do say "$o $s ($impls): ${line#bench: }"; done
  seen=$n told=$SECONDS
}
run_one() {  # run_one INDEX OP SELECTOR IMPLS
  local i=$1 o=$2 s=$3 impls=$4 bop=$2 dist=() t0=$SECONDS prog=$bench impl_arg=$4
  local rw=("${rewarm[@]}")
  [ "$impls" = pmpi ] && { prog="$build/bench_pmpi"; impl_arg=native; rw=(); }
  [ "$o" = allgatherv_uniform ] && { bop=allgatherv; dist=(--dist uniform); }
  [ "$o" = allgatherv_one ] && { bop=allgatherv; dist=(--dist one); }
  [ "$o" = alltoallv_powerlaw ] && { bop=alltoallv; dist=(--dist powerlaw); }
  [ "$o" = allmerge_half ] && { bop=allmerge; dist=(--dist half); }
  local r=$reps  # default: see --reps
  [ -n "$r" ] || { r=2; [ "$o" = bcast ] && r=1; }
  smpirun -np "$p" -platform "$xml" -hostfile "$hostfile" "${cfg[@]}" \
    --cfg=smpi/coll-selector:"$s" "$prog" --op "$bop" --impl "$impl_arg" "${dist[@]}" --reps "$r" "${extra[@]}" "${rw[@]}" \
    >"$work/$i.out" 2>"$work/$i.err" &
  local pid=$! kb seen=0 n peak=0 told=$SECONDS
  # SMPI's own collectives allocate per-rank temporaries that shared malloc does not cover
  # (MPICH's large bcast: p x message size): stop a run before it takes the machine's memory.
  # The memory is the proportional set size: shared malloc maps one block of memory at every
  # rank's buffer, which the resident set size counts once per mapping (1,152 ranks x 16 MiB:
  # 20 GB of RSS for 1.4 GB used).
  while kill -0 "$pid" 2>/dev/null; do
    for c in $(pgrep -P "$pid"); do
      kb=$(awk '/^Pss:/ { print $2; exit }' "/proc/$c/smaps_rollup" 2>/dev/null) ||
        kb=$(ps -o rss= -p "$c" 2>/dev/null || echo 0)
      [ "${kb:-0}" -le "$peak" ] || peak=$kb
      if [ "${kb:-0}" -gt $((mem_gb * 1048576)) ]; then
        echo "stopped at the memory budget of $mem_gb GiB" >"$work/$i.mem"; kill "$c"
      fi
    done
    pass_progress
    sleep 2
  done
  wait "$pid"
  echo $? >"$work/$i.rc"
  pass_progress
  say "done $o $s ($impls) in $((SECONDS - t0)) s, exit $(cat "$work/$i.rc"), peak memory $(awk -v k="$peak" 'BEGIN { printf "%.1f", k / 1048576 }') GiB"
}
say "${#runs[@]} runs: ops [$ops], selectors [$selectors], p=$p, platform $platform, sizes $sizes B, $jobs at once"
for i in "${!runs[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  read -r o s impls <<<"${runs[$i]}"
  say "start $((i + 1))/${#runs[@]}: $o under $s ($impls)"
  run_one "$i" "$o" "$s" "$impls" &
done
wait

# --- collect: rows, then ratio rows against the best selector per size ----------------------
status=0
{
  printf 'op\timpl\tselector\tplatform\tp\tbytes\tusec\n'
  for i in "${!runs[@]}"; do
    read -r o s impls <<<"${runs[$i]}"
    if [ "$(cat "$work/$i.rc")" != 0 ]; then
      : >"$work/failed"  # this group runs in a subshell (the pipe): status is set below
      if [ -f "$work/$i.mem" ]; then
        echo "simulate.sh: $o under $s $(cat "$work/$i.mem"); the sizes it finished are in the TSV" >&2
      else
        # bench's own messages first (which implementation and size --check found wrong),
        # then the end of the run's stderr (SimGrid's messages, one per rank that failed)
        { echo "simulate.sh: $o under $s failed (exit $(cat "$work/$i.rc")):"
          grep '^bench: ' "$work/$i.err" | grep -v -E "$progress_lines" | tail -5
          tail -3 "$work/$i.err"; } >&2
      fi
    fi
    awk -F'\t' -v OFS='\t' -v op="$o" -v sel="$s" -v plat="$platform" -v rename="$([ "$impls" = pmpi ] && echo pmpi)" \
      'NR > 1 && NF == 5 && $2 !~ /^(ratio|moves)-/ && $5 ~ /^[0-9.]+$/ { if (rename != "") $2 = rename; print op, $2, sel, plat, $3, $4, $5 }' \
      "$work/$i.out"
  done
} | awk -F'\t' '!($2 == "native" && seen[$1, $3, $6]++)' >"$work/rows.tsv"  # native once per selector
[ ! -e "$work/failed" ] || status=1
# The ratio rows against the fastest selector: sim_merge.py's rule, on this run's rows alone. If it
# refuses them (a row measured twice), the rows are kept without ratios.
if ! /usr/bin/python3 "$root/scripts/sim_merge.py" "$work/rows.tsv" >"$out" 2>"$work/merge.err"; then
  cat "$work/merge.err" >&2
  cp "$work/rows.tsv" "$out"
  status=1
fi
rows=$(($(wc -l <"$out") - 1))
say "wrote $out ($rows rows)"
if [ -n "$log" ]; then  # the library's own lines, run by run (a failed run's too)
  for i in "${!runs[@]}"; do
    read -r o s impls <<<"${runs[$i]}"
    echo "# $o under $s ($impls)"
    grep '^rosched ' "$work/$i.err" 2>/dev/null
  done >"$log"
  say "wrote $log ($(grep -vc '^#' "$log") lines of the library's)"
fi
for i in "${!runs[@]}"; do
  read -r o s impls <<<"${runs[$i]}"
  awk -F'\t' -v OFS='\t' -v op="$o" -v sel="$s" -v plat="$platform" \
    'NR > 1 && NF == 5 && $2 ~ /^moves-/ { print op, substr($2, 7), sel, plat, $3, $4, $5 }' "$work/$i.out"
done >"$work/moves.tsv"
if [ -s "$work/moves.tsv" ]; then
  moves_out="${out%.tsv}_moves.tsv"
  { printf 'op\timpl\tselector\tplatform\tp\tbytes\tmoves_per_element\n'; cat "$work/moves.tsv"; } >"$moves_out"
  say "wrote $moves_out (merge work)"
fi
if [ $plot -eq 1 ]; then
  install_packages python3-matplotlib || { echo "simulate.sh: could not install matplotlib" >&2; exit 3; }
  # Debian's python, where python3-matplotlib is; the plots go to plots/ beside the TSV
  # a run of some implementations only (--impls) names its plots after them
  tag=""; [ "$impls_arg" = all ] || tag=$impls_arg
  /usr/bin/python3 "$root/scripts/plot_sim.py" --outdir "$(dirname "$out")/plots" --tag "$tag" "$out" || status=1
fi
[ $status -eq 0 ] || echo "simulate.sh: some runs failed (see above)" >&2
exit $status
