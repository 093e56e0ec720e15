#!/usr/bin/env bash
# build_model.sh TAG: build a simulator model, as skifrun names them:
#   nD        (D = 1..4) the one-node model of a D-dimensional torus under
#             Verilator (sim/hdl/skif_node_top.sv): one build serves every size
#             of that many dimensions; the simulator makes one model per node
#   tX[xY[xZ[xW]]]-icarus  the whole network of one size under Icarus, with
#             the VPI kernel (4-state: any X reaching the host is an error)
# Output: build/models/TAG/skifsim[.vvp]. Called by make (make model
# MODEL=TAG) and, through it, by skifrun.
# The Verilated code is compiled with -O2 (OPT_FAST/OPT_GLOBAL): Verilator's
# makefile defaults to -Os, which made the model 9% slower.
# The one-node models are built with GCC's profile-guided optimisation
# (pgo_build, sim/tools/build_progress.sh), trained on an all-to-all, the
# collective example and (n1) a two-node stream: build/bin programs. It ran
# the sustained 8x8x8 all-to-all 17-23% faster. SKIF_PGO=0: one plain build.
set -eu
cd "$(dirname "$0")/../.."
. sim/tools/build_progress.sh
tag=$1
case $tag in
n[1-4]) nd=${tag#n}; d=(1 1 1 1); dims="$nd-dimensional" ;;
t*-icarus)
    # the shape, read by the one --dims parser (build/bin/skif_dims)
    dims=${tag%-icarus}; dims=${dims#t}
    [ -x build/bin/skif_dims ] || make -s build/bin/skif_dims >&2
    read -r nd d0 d1 d2 d3 < <(build/bin/skif_dims "$dims" 2>&1 || echo bad) || true
    case $nd in [1-4]) d=("$d0" "$d1" "$d2" "$d3") ;; *)
        echo "build_model: bad model tag '$tag': $(build/bin/skif_dims "$dims" 2>&1)" >&2; exit 2 ;;
    esac
    ;;
*) echo "build_model: bad model tag '$tag' (expected n1..n4 or e.g. t2x3x4-icarus)" >&2; exit 2 ;;
esac
out=build/models/$tag
mkdir -p "$out"
# One build of a model at a time: concurrent skifrun runs on a size not yet
# built wait here for the first build and then use it. The simulator is
# linked under a temporary name and renamed into place, so a model that is
# there is always whole (and a running one is never overwritten).
stamp=$(mktemp)
trap 'rm -f "$stamp"' EXIT
exec 9>"build/models/.$tag.lock"
if ! flock -n 9; then
    echo "build_model: waiting for another build of $tag to finish" >&2
    flock 9
    case $tag in *-icarus) f=$out/skifsim.vvp ;; *) f=$out/skifsim ;; esac
    if [ "$f" -nt "$stamp" ]; then
        echo "build_model: $tag was just built by another run; using it" >&2
        exit 0
    fi
fi
tmp=skifsim.tmp.$$
trap 'rm -f "$stamp" "$out/$tmp" "$out/$tmp.vvp"' EXIT
RTL=$(cat rtl/files.txt)
SIM="sim/hdl/skif_host_shim.sv sim/hdl/skif_sim_top.sv"   # the whole network (Icarus)
case $tag in
*-icarus)
    echo "iverilog: building the $dims torus model ($out/skifsim.vvp)"
    iverilog -g2012 -DSKIF_VPI -Irtl -Isim/hdl -s skif_icarus_top \
        -Pskif_icarus_top.NDims="$nd" -Pskif_icarus_top.SizeX="${d[0]}" \
        -Pskif_icarus_top.SizeY="${d[1]}" -Pskif_icarus_top.SizeZ="${d[2]}" \
        -Pskif_icarus_top.SizeW="${d[3]}" -L build/vpi -m skif -o "$out/$tmp.vvp" \
        $RTL $SIM sim/hdl/skif_icarus_top.sv >"$out/build.log" 2>&1 ||
        { tail -30 "$out/build.log"; exit 1; }
    mv -f "$out/$tmp.vvp" "$out/skifsim.vvp"
    ;;
*)
    echo "verilator: building the one-node model of a $dims torus ($out/skifsim)"
    # verilate_build FLAGS: compile and link $out/obj/skifsim with FLAGS
    verilate_build() {
        rm -f "$out/obj/skifsim" # (the Verilated makefile does not relink when only our C library changed)
        with_progress "$tag" "$out/obj" "$out/build.log" \
        verilator --cc --exe --build -j 2 --top-module skif_node_top -Irtl -Isim/hdl --trace-fst \
            -f sim/hdl/fast.f ${VFLAGS_EXTRA:-} \
            -MAKEFLAGS "OPT_FAST=-O2 OPT_GLOBAL=-O2" -GNDims="$nd" -LDFLAGS "-pthread $1" \
            -CFLAGS "-O2 $1 -I$PWD/sim/kernel -I$PWD/include -I$PWD/sim/options" \
            -Mdir "$out/obj" -o "$PWD/$out/obj/skifsim" sim/hdl/sim.vlt $RTL sim/hdl/skif_host_shim.sv \
            sim/hdl/skif_link_regs.sv sim/hdl/skif_node_top.sv "$PWD/sim/kernel/sim_main.cpp" "$PWD/build/lib/libskifsim.a" ||
            { tail -40 "$out/build.log"; exit 1; }
    }
    # train: the instrumented simulator on a torus of its dimensions (their
    # exit status does not matter, only the profile they leave)
    train() {
        local t=(8 4x4 4x4x4 2x2x2x2) d run runs
        d=${t[$((nd - 1))]}
        runs=("--dims $d build/bin/alltoall 8 11 2" "--dims $d build/bin/coll")
        [ "$nd" != 1 ] || runs+=("--dims 2 build/bin/stream 20000 8")
        echo "  $tag: training on --dims $d (all-to-all, collectives)" >&2
        : >"$out/train.log"
        for run in "${runs[@]}"; do
            # shellcheck disable=SC2086
            "$out/obj/skifsim" -q --max-cycles 60000 $run >>"$out/train.log" 2>&1 </dev/null || true
        done
    }
    pgo_build "$tag" "$out/obj" verilate_build train
    ln -f "$out/obj/skifsim" "$out/$tmp"
    mv -f "$out/$tmp" "$out/skifsim"
    ;;
esac
