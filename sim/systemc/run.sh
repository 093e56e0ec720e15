#!/usr/bin/env bash
# run.sh: build (if needed) and run the SystemC/TLM-2.0 example platform.
#   sim/systemc/run.sh [--dims D | --nodes N] [skif_sc_platform options...]
# The torus is fixed at Verilation (D = 4: a ring of 4 torus routers; 2x2: a
# 2-D torus), so each has its own binary, build/systemc/tD/skif_sc_platform
# (built on first use, ~1 min). Default: --dims 2.
# Exit status: the platform's (0 PASS, 1 FAIL, 2 bad command line).
set -u
cd "$(dirname "$0")/../.." || exit 2
dims=2
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    case ${args[$i]} in
    --nodes | --dims) [ $((i + 1)) -lt ${#args[@]} ] && dims=${args[$((i + 1))]} ;;
    esac
done
# the shape, read by the one --dims parser (build/bin/skif_dims), names the build
[ -x build/bin/skif_dims ] || make -s build/bin/skif_dims >&2 || exit 1
shape=$(build/bin/skif_dims "$dims" 2>&1) || { echo "run.sh: ${shape#skif_dims: }" >&2; exit 2; }
read -r nd d0 d1 d2 d3 <<<"$shape"
dims=$d0 # (as the parser read it: 02x2 is 2x2)
for v in "$d1" "$d2" "$d3"; do [ "$nd" -gt 1 ] && dims=${dims}x$v && nd=$((nd - 1)); done
make -s -f sim/systemc/Makefile.inc "build/systemc/t$dims/skif_sc_platform" >&2 || exit 1
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 exec "build/systemc/t$dims/skif_sc_platform" --dims "$dims" "$@"
