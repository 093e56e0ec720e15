#!/usr/bin/env bash
# run.sh: build (if needed) and run the SystemC/TLM-2.0 example platform.
#   sim/systemc/run.sh [--dims D | --nodes N] [skif_sc_platform options...]
# One binary per number of torus dimensions, build/systemc/nD/skif_sc_platform
# (built on first use, about a minute); the torus's sizes are read at run time.
# Default: --dims 2.
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
# the number of dimensions, read by the one --dims parser (build/bin/skif_dims)
[ -x build/bin/skif_dims ] || make -s build/bin/skif_dims >&2 || exit 1
shape=$(build/bin/skif_dims "$dims" 2>&1) || { echo "run.sh: ${shape#skif_dims: }" >&2; exit 2; }
read -r nd _ <<<"$shape"
make -s -f sim/systemc/Makefile.inc "build/systemc/n$nd/skif_sc_platform" >&2 || exit 1
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 exec "build/systemc/n$nd/skif_sc_platform" "${args[@]}"
