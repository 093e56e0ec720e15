#!/usr/bin/env bash
# verilate.sh TAG: Verilate skif_torus_net for the SystemC path (docs/systemc.md).
# TAG names the torus as skifrun's models do: tX[xY[xZ[xW]]] (t4: a ring of 4,
# t2x2: a 2-D torus of 4). Output: build/systemc/TAG/obj/Vskif_torus_net__ALL.a,
# its headers, verilated.o and verilated_threads.o; log build/systemc/TAG/build.log.
# Environment: VERILATOR, MAKE, SYSTEMC_INCLUDE, SYSTEMC_LIBDIR (set by Makefile.inc).
set -eu
cd "$(dirname "$0")/../.."
tag=$1
dims=${tag#t}
# the shape, read by the one --dims parser (build/bin/skif_dims)
[ -x build/bin/skif_dims ] || ${MAKE:-make} -s build/bin/skif_dims >&2
read -r nd d0 d1 d2 d3 < <(build/bin/skif_dims "$dims" 2>/dev/null || echo bad) || true
case "${tag:0:1}$nd" in t[1-4]) d=("$d0" "$d1" "$d2" "$d3") ;; *)
    echo "verilate.sh: bad torus tag '$tag' (expected e.g. t4, t2x2, t2x2x2): $(build/bin/skif_dims "$dims" 2>&1)" >&2
    exit 2 ;;
esac
out=build/systemc/$tag
mkdir -p "$out/obj"
echo "verilator --sc: building the ${dims} torus ($out/obj)"
{
    ${VERILATOR:-verilator} --sc --top-module skif_torus_net -Irtl -O3 --x-assign fast --x-initial fast \
        -Wno-fatal -GNDims="$nd" -GSizeX="${d[0]}" -GSizeY="${d[1]}" -GSizeZ="${d[2]}" \
        -GSizeW="${d[3]}" -Mdir "$out/obj" $(cat rtl/files.txt) &&
    ${MAKE:-make} -s -C "$out/obj" -f Vskif_torus_net.mk OPT_FAST=-O2 \
        Vskif_torus_net__ALL.a verilated.o verilated_threads.o
} >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
