#!/usr/bin/env bash
# build_netbench.sh nD[-vN][-dD][-prev]: build skifnet, the network bench (the
# torus fabric alone under synthetic traffic with a scoreboard), for every
# torus of D dimensions (1..4): one model of a node's router
# (sim/hdl/skif_fabric_node_top.sv), of which skifnet makes one per node.
# -vN -dD build a router variant: NumVcs N, VcDepth D; -prev the router as it
# was before the throughput work (Tie = 0: every half-ring tie goes PLUS;
# EjFirst = 0: plain round-robin switch allocation); default the router's own.
# Output: build/netbench/<the same tag>/skifnet. Called by make.
set -eu
cd "$(dirname "$0")/../.."
. sim/tools/build_progress.sh
tag=${1:-}
bad() { echo "build_netbench: bad model '$tag' (expected nD[-vN][-dD][-prev], D 1..4, e.g. n3, n2-v4-d16, n3-prev)" >&2; exit 2; }
[[ $tag =~ ^n([1-4])(-v([1-4]))?(-d([0-9]+))?(-prev)?$ ]] || bad
nd=${BASH_REMATCH[1]} vcs=${BASH_REMATCH[3]} depth=${BASH_REMATCH[5]} prev=${BASH_REMATCH[6]}
params=(-GNDims="$nd")
if [ -n "$vcs" ]; then params+=(-GNumVcs="$vcs"); fi
if [ -n "$depth" ]; then params+=(-GVcDepth="$depth"); fi
if [ -n "$prev" ]; then params+=(-GTie=0 -GEjFirst=0); fi
out=build/netbench/$tag
mkdir -p "$out"
rm -f "$out/skifnet"
echo "verilator: building skifnet's node model for $nd-dimensional tori ($out/skifnet)"
# verilate_build FLAGS: compile and link $out/obj/skifnet with FLAGS
verilate_build() {
    rm -f "$out/obj/skifnet" # (the Verilated makefile does not relink when only our C library changed)
    with_progress "skifnet $tag" "$out/obj" "$out/build.log" \
    verilator --cc --exe --build -j 2 --top-module skif_fabric_node_top -Irtl \
        -f sim/hdl/fast.f "${params[@]}" \
        -MAKEFLAGS "OPT_FAST=-O2 OPT_GLOBAL=-O2" -LDFLAGS "-pthread $1" \
        -CFLAGS "-O2 $1 -std=c++17 -I$PWD/sim/kernel -I$PWD/sim/netbench -I$PWD/include" \
        -Mdir "$out/obj" -o "$PWD/$out/obj/skifnet" \
        sim/hdl/sim.vlt $(cat rtl/files.txt) sim/hdl/skif_link_regs.sv sim/hdl/skif_fabric_node_top.sv \
        "$PWD/sim/netbench/netbench_main.cpp" "$PWD/build/lib/libskifnet.a" \
        || { tail -30 "$out/build.log"; exit 1; }
}
# train: uniform traffic below and past saturation on a torus of its dimensions
train() {
    local t=(16 8x8 4x4x4 3x3x3x3) d load
    d=${t[$((nd - 1))]}
    echo "  skifnet $tag: training on --dims $d (uniform traffic)" >&2
    : >"$out/train.log"
    for load in 0.1 0.3 0.9; do
        "$out/obj/skifnet" --dims "$d" --load $load --warmup 200 --measure 1000 -q \
            >>"$out/train.log" 2>&1 </dev/null || true
    done
}
pgo_build "skifnet $tag" "$out/obj" verilate_build train
ln -f "$out/obj/skifnet" "$out/skifnet"
