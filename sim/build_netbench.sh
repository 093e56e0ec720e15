#!/usr/bin/env bash
# build_netbench.sh DIMS [NUMVCS VCDEPTH]: build skifnet, the Verilated torus
# fabric with the synthetic-traffic scoreboard, for a torus such as 4x4x4,
# into build/netbench/DIMS[-vNdD]/skifnet. Called by make.
set -eu
cd "$(dirname "$0")/.."
. sim/build_progress.sh
dims=$1 vcs=${2:-} depth=${3:-}
IFS=x read -r -a d <<<"$dims"
nd=${#d[@]}
[ "$nd" -ge 1 ] && [ "$nd" -le 4 ] || { echo "build_netbench: bad dims '$dims'" >&2; exit 2; }
for v in "${d[@]}"; do
    case $v in [2-9] | 1[0-6]) ;; *) echo "build_netbench: bad size '$v' in '$dims' (2..16)" >&2; exit 2 ;; esac
done
while [ ${#d[@]} -lt 4 ]; do d+=(1); done
tag=$dims
params=(-GNDims="$nd" -GSizeX="${d[0]}" -GSizeY="${d[1]}" -GSizeZ="${d[2]}" -GSizeW="${d[3]}")
if [ -n "$vcs" ]; then params+=(-GNumVcs="$vcs"); tag="$tag-v$vcs"; fi
if [ -n "$depth" ]; then params+=(-GVcDepth="$depth"); tag="$tag-d$depth"; fi
numvcs=${vcs:-$(sed -n 's/.*parameter int NumVcs *= *\([0-9]*\).*/\1/p' rtl/net/skif_torus_fabric.sv | head -1)}
out=build/netbench/$tag
mkdir -p "$out"
# the Verilated makefile does not relink when only our C library changed
rm -f "$out/skifsim" "$out/skifnet"
echo "verilator: building the $dims fabric for skifnet ($out/skifnet)"
with_progress "skifnet $tag" "$out/obj" "$out/build.log" \
verilator --cc --exe --build -j 2 --top-module skif_torus_fabric -Irtl \
    -O3 --x-assign fast --x-initial fast -Wno-fatal "${params[@]}" \
    -MAKEFLAGS "OPT_FAST=-O2 OPT_GLOBAL=-O2" \
    -CFLAGS "-O2 -I$PWD/csrc -I$PWD/driver -DSKIFNET_NDIMS=$nd -DSKIFNET_DIMS=${d[0]},${d[1]},${d[2]},${d[3]} -DSKIFNET_NUMVCS=$numvcs" \
    -Mdir "$out/obj" -o "$PWD/$out/skifnet" \
    sim/sim.vlt $(cat rtl/files.txt) "$PWD/csrc/netbench_main.cpp" "$PWD/build/lib/libskifnet.a" \
    || { tail -30 "$out/build.log"; exit 1; }
