#!/usr/bin/env bash
# deps.sh: install the Debian packages skifsim needs, if any is missing.
# Silent and fast when everything is there; uses sudo when not root; when it
# cannot install, says exactly what to run by hand.
set -u
need=()
have() { command -v "$1" >/dev/null 2>&1; }
have verilator || need+=(verilator)
have iverilog || need+=(iverilog)
have gtkwave || need+=(gtkwave)
have gnuplot || need+=(gnuplot-nox)
have valgrind || need+=(valgrind)
have g++ || need+=(g++)
have jq || need+=(jq)
have make || need+=(make)
[ -f /usr/include/systemc.h ] || need+=(libsystemc-dev)
# Open MPI: only for skifsim-mpi (skifrun --ranks K: one torus over K
# processes); the rest of skifsim does not use it
{ have mpiexec.openmpi && pkg-config --exists ompi-c 2>/dev/null; } ||
    have mpiexec.mpich || need+=(openmpi-bin libopenmpi-dev pkgconf)
[ ${#need[@]} -eq 0 ] && exit 0

echo "deps: installing ${need[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=""; elif have sudo; then sudo="sudo"; else
    echo "deps: missing ${need[*]}; run as root: apt-get install -y ${need[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! { $sudo apt-get update -qq >/dev/null && \
       $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }; then
    echo "deps: apt-get failed; install by hand: ${sudo:+sudo }apt-get install -y ${need[*]}" >&2
    exit 1
fi
# Verilator 5.006 is the version the project is tested with.
v=$(verilator --version 2>/dev/null | awk '{print $2}')
case "$v" in 5.*) ;; *) echo "deps: warning: verilator $v found; skifsim is tested with 5.006" >&2 ;; esac
exit 0
