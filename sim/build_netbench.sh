#!/usr/bin/env bash
# build_netbench.sh nD [NUMVCS VCDEPTH]: build skifnet, the network bench (the
# torus fabric alone under synthetic traffic with a scoreboard), for every
# torus of D dimensions (1..4): one model of a node's router and collective
# engine (sim/skif_fabric_node_top.sv), of which skifnet makes one per node.
# NUMVCS and VCDEPTH build a router variant (default: the router's own).
# Output: build/netbench/nD[-vN][-dD]/skifnet. Called by make.
set -eu
cd "$(dirname "$0")/.."
. sim/build_progress.sh
nd=${1#n} vcs=${2:-} depth=${3:-}
case $1 in n[1-4]) ;; *) echo "build_netbench: bad model '$1' (expected n1..n4)" >&2; exit 2 ;; esac
tag=$1
params=(-GNDims="$nd")
if [ -n "$vcs" ]; then params+=(-GNumVcs="$vcs"); tag="$tag-v$vcs"; fi
if [ -n "$depth" ]; then params+=(-GVcDepth="$depth"); tag="$tag-d$depth"; fi
out=build/netbench/$tag
mkdir -p "$out"
# the Verilated makefile does not relink when only our C library changed
rm -f "$out/skifnet" "$out/obj/skifnet"
echo "verilator: building skifnet's node model for $nd-dimensional tori ($out/skifnet)"
with_progress "skifnet $tag" "$out/obj" "$out/build.log" \
verilator --cc --exe --build -j 2 --top-module skif_fabric_node_top -Irtl \
    -O3 --x-assign fast --x-initial fast -Wno-fatal "${params[@]}" \
    -MAKEFLAGS "OPT_FAST=-O2 OPT_GLOBAL=-O2" \
    -CFLAGS "-O2 -std=c++17 -I$PWD/csrc -I$PWD/driver" \
    -Mdir "$out/obj" -o "$PWD/$out/obj/skifnet" \
    sim/sim.vlt $(cat rtl/files.txt) sim/skif_fabric_node_top.sv \
    "$PWD/csrc/netbench_main.cpp" "$PWD/build/lib/libskifnet.a" \
    || { tail -30 "$out/build.log"; exit 1; }
ln -f "$out/obj/skifnet" "$out/skifnet"
