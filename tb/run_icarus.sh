#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run_icarus.sh: compile and run one self-checking testbench with Icarus.
#
# Usage (from the repo root): tb/run_icarus.sh <block> [iverilog options...]
# Compiles rtl/files.txt + tb/<block>/*.sv into build/tb/<block>/ and runs it
# once per line of tb/<block>/sweep.txt (each line: extra iverilog options,
# e.g. -Ptb_skif_adapter.NODES=3), or once if there is no sweep file. Extra
# options on the command line apply to every run. WAVES=1 dumps FST waves to
# build/tb/<block>/<run>.fst (the testbench honours +wave=<file>). Exits
# non-zero if a run fails to build, exits non-zero, reports an error, or does
# not print "PASS tb_<block>". TB_OUT=DIR puts the outputs in DIR instead.
set -u
blk=${1:?usage: tb/run_icarus.sh <block> [iverilog options...]}
shift
IVERILOG=${IVERILOG:-iverilog}
VVP=${VVP:-vvp}
out=${TB_OUT:-build/tb/$blk}
mkdir -p "$out"
[ -d "tb/$blk" ] || { echo "no such testbench: tb/$blk" >&2; exit 2; }

if [ -f "tb/$blk/sweep.txt" ]; then
  sweep=$(grep -v '^[[:space:]]*#' "tb/$blk/sweep.txt" | grep -v '^[[:space:]]*$')
else
  sweep="-DDEFAULT_RUN"
fi

fail=0
n=0
echo "$sweep" | {
  while IFS= read -r opts; do
    n=$((n + 1))
    run=run$n
    echo "== $blk $run: $opts $*"
    # shellcheck disable=SC2086
    if ! "$IVERILOG" -g2012 -Wall -Irtl -Itb/common -Itb/"$blk" -s tb_"$blk" -o "$out/$run.vvp" \
        $opts "$@" $(cat rtl/files.txt) tb/"$blk"/*.sv; then
      echo "FAIL $blk $run: compile"; fail=1; continue
    fi
    if [ "${WAVES:-0}" = 1 ]; then
      "$VVP" -n "$out/$run.vvp" -fst +wave="$out/$run.fst" > "$out/$run.log" 2>&1
    else
      "$VVP" -n "$out/$run.vvp" > "$out/$run.log" 2>&1
    fi
    rc=$?
    cat "$out/$run.log"
    if [ $rc -ne 0 ] || grep -q -E '^(ERROR|FATAL)|Error:' "$out/$run.log" || \
       ! grep -q "^PASS tb_$blk" "$out/$run.log"; then
      echo "FAIL $blk $run (rc=$rc)"; fail=1
    fi
  done
  exit $fail
}
rc=$?
if [ $rc -eq 0 ]; then echo "ALL PASS $blk"; else echo "SOME FAILED $blk"; fi
exit $rc
