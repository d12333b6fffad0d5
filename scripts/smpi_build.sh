#!/usr/bin/env bash
# smpi_build.sh ROOT BUILD_DIR: builds mpi_exec/bench with SimGrid's smpicxx, outside Bazel, and
# bench_pmpi: the same bench linked with the interposition library (pmpi/), so that its native
# collectives (--impl native) go through librosched_pmpi's routing, as an unmodified program's.
# The library sources are found recursively (sched/, sim/ if present, mpi_exec/ without bench.cc
# and without any file that has a main), includes are relative to ROOT (-I ROOT), so the build
# follows files moved between subfolders. Everything goes into an archive and the linker takes
# only what bench needs. Rebuilds when any source or header is newer than the binary.
set -euo pipefail
root=$1 build=$2
mkdir -p "$build/obj"
# One build at a time per directory: a second simulate.sh started meanwhile waits here, then
# finds the binaries current (without the lock, two builds removed each other's objects).
exec 9>"$build/.lock"
flock 9
cd "$root"
dirs=(sched mpi_exec); [ -d sim ] && dirs+=(sim)
if [ -x "$build/bench" ] && [ -x "$build/bench_pmpi" ] &&
   [ -z "$(find "${dirs[@]}" pmpi \( -name '*.cc' -o -name '*.h' \) -newer "$build/bench_pmpi")" ]; then
  exit 0
fi
srcs=$(find "${dirs[@]}" -name '*.cc' ! -name bench.cc | xargs grep -L -E '^int main\(' | sort || true)
echo "[smpi_build] compiling $(echo "$srcs" | wc -l) sources with smpicxx into $build" >&2
rm -f "$build/obj/"*.o "$build/librosched_smpi.a"
echo "$srcs" | xargs -P 2 -I{} sh -c \
  'smpicxx -O2 -std=c++17 -I. -c "$1" -o "$2/obj/$(echo "$1" | tr / _).o"' _ {} "$build"
ar rcs "$build/librosched_smpi.a" "$build/obj/"*.o
smpicxx -O2 -std=c++17 -I. mpi_exec/bench.cc "$build/librosched_smpi.a" -lboost_program_options \
  -o "$build/bench.tmp"
mv "$build/bench.tmp" "$build/bench"
# The interposer's objects come before the archive, so bench's MPI_ calls bind to them (SMPI
# declares its MPI_ functions weak) while rosched's own PMPI_ calls bind to SimGrid.
smpicxx -O2 -std=c++17 -I. mpi_exec/bench.cc pmpi/interpose.cc pmpi/report.cc pmpi/policy.cc \
  "$build/librosched_smpi.a" -lboost_program_options -o "$build/bench_pmpi.tmp"
mv "$build/bench_pmpi.tmp" "$build/bench_pmpi"
