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
IFS=x read -r -a d <<<"$dims"
ok=1
[ ${#d[@]} -ge 1 ] && [ ${#d[@]} -le 4 ] || ok=0
for v in "${d[@]}"; do case $v in [2-9] | 1[0-6]) ;; *) ok=0 ;; esac; done
[ "$ok" = 1 ] || { echo "run.sh: --dims must be 1 to 4 sizes of 2..16 joined by x (e.g. 4, 2x2), not '$dims'" >&2; exit 2; }
make -s -f sim/systemc/Makefile.inc "build/systemc/t$dims/skif_sc_platform" >&2 || exit 1
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 exec "build/systemc/t$dims/skif_sc_platform" --dims "$dims" "$@"
