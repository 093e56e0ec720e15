#!/usr/bin/env bash
# verilate.sh nD: Verilate the node model of the SystemC path (docs/systemc.md)
# for tori of D dimensions (1..4): skifsim's sim/hdl/skif_node_top.sv with
# Pins = 1 (the adapter's host ports as pins, no DPI shim), of which
# skif_tlm_adapter makes one per node, so one build serves every torus of D
# dimensions. Output: build/systemc/nD/obj/Vskif_node_top__ALL.a, its
# headers, verilated.o and verilated_threads.o; log build/systemc/nD/build.log.
# Environment: VERILATOR, MAKE (set by Makefile.inc).
set -eu
cd "$(dirname "$0")/../.."
tag=${1:-}
[[ $tag =~ ^n([1-4])$ ]] || { echo "verilate.sh: bad model '$tag' (expected n1..n4: the torus's dimensions)" >&2; exit 2; }
nd=${BASH_REMATCH[1]}
out=build/systemc/$tag
mkdir -p "$out/obj"
echo "verilator: building the SystemC path's node model for $nd-dimensional tori ($out/obj)"
{
    ${VERILATOR:-verilator} --cc --top-module skif_node_top -Irtl -Isim/hdl -f sim/hdl/fast.f \
        -GNDims="$nd" -GPins=1 -Mdir "$out/obj" sim/hdl/sim.vlt \
        $(cat rtl/files.txt) sim/hdl/skif_link_regs.sv sim/hdl/skif_host_shim.sv sim/hdl/skif_node_top.sv &&
    ${MAKE:-make} -s -C "$out/obj" -f Vskif_node_top.mk OPT_FAST=-O2 \
        Vskif_node_top__ALL.a verilated.o verilated_threads.o
} >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
