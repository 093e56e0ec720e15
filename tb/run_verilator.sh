#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run_verilator.sh: compile and run one self-checking testbench with Verilator
# (--binary --timing), the same sources tb/run_icarus.sh runs under Icarus.
#
# Usage (from the repo root): tb/run_verilator.sh <block> [all]
# Runs the first parameter set of tb/<block>/sweep.txt (or the defaults), or
# every set with "all" (Icarus runs them all in `make test`; a Verilator build
# takes ~15 s per set). Icarus-style -P<top>.<NAME>=<v> options become
# -G<NAME>=<v>. Exits non-zero if a build fails, the run fails, reports an
# error, or does not print "PASS tb_<block>". Output under build/tbv/<block>/.
set -u
blk=${1:?usage: tb/run_verilator.sh <block> [all]}
which=${2:-first}
out=build/tbv/$blk
mkdir -p "$out"
[ -d "tb/$blk" ] || { echo "no such testbench: tb/$blk" >&2; exit 2; }
if [ -f "tb/$blk/sweep.txt" ]; then
  sweep=$(grep -v '^[[:space:]]*#' "tb/$blk/sweep.txt" | grep -v '^[[:space:]]*$')
else
  sweep="-DDEFAULT_RUN"
fi
[ "$which" = all ] || sweep=$(echo "$sweep" | head -1)
n=0
echo "$sweep" | {
  fail=0
  while IFS= read -r opts; do
    n=$((n + 1))
    run=run$n
    vopts=$(echo "$opts" | sed -E "s/-Ptb_$blk\.([A-Za-z_0-9]+)=/-G\1=/g")
    echo "== $blk $run (verilator): $vopts"
    # shellcheck disable=SC2086
    if ! verilator --binary --timing -Wno-fatal -Wno-lint -Wno-style -Irtl -Itb/common -Itb/"$blk" \
        --top-module tb_"$blk" $vopts -Mdir "$out/$run" -o tb -j 2 \
        -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O0" \
        $(cat rtl/files.txt) tb/"$blk"/*.sv > "$out/$run.build.log" 2>&1; then
      tail -20 "$out/$run.build.log"; echo "FAIL $blk $run: build"; fail=1; continue
    fi
    "$out/$run/tb" > "$out/$run.log" 2>&1
    rc=$?
    cat "$out/$run.log"
    if [ $rc -ne 0 ] || grep -q -E '^(ERROR|FATAL)|%Error|Error:' "$out/$run.log" || \
       ! grep -q "^PASS tb_$blk" "$out/$run.log"; then
      echo "FAIL $blk $run (rc=$rc)"; fail=1
    fi
  done
  exit $fail
}
rc=$?
if [ $rc -eq 0 ]; then echo "ALL PASS $blk (verilator)"; else echo "SOME FAILED $blk (verilator)"; fi
exit $rc
