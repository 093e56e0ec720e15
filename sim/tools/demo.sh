#!/usr/bin/env bash
# demo.sh: what `make sim` runs: the greeting on an N-node ring, the
# collective example (broadcast and allreduce in the adapters' collective
# engines) on a 3x3 torus, then every RTL testbench under Icarus, then a
# summary.
set -u
n=${1:-4}
simr=${2:-verilator}
cd "$(dirname "$0")/../.."
# WAVES=1 (make sim WAVES=1, as cocotb users write it): trace the greeting into
# build/greeting.fst (Verilator; open it with make wave)
wave=()
if [ -n "${WAVES:-}" ] && [ "${WAVES:-}" != 0 ] && [ "$simr" != icarus ]; then
    wave=(--wave build/greeting.fst)
fi
echo "== greeting on a ring of $n simulated nodes ($simr)"
WAVES= build/bin/skifrun -n "$n" --sim "$simr" --stats build/demo-stats.json "${wave[@]}" build/bin/greeting
demo=$?
echo
coll=0
if [ "$simr" = verilator ]; then
    echo "== collectives on a 3x3 torus: broadcast and allreduce in the collective engines"
    WAVES= build/bin/skifrun --dims 3x3 build/bin/coll
    coll=$?
    echo
fi
echo "== RTL testbenches (Icarus)"
pass=0; fail=0
# SKIF_DEMO_TB=0: leave them out (the test of make sim WAVES=1 does)
[ "${SKIF_DEMO_TB:-1}" = 0 ] && echo "  (skipped: SKIF_DEMO_TB=0)"
[ "${SKIF_DEMO_TB:-1}" = 0 ] || while read -r blk; do
    [ -z "$blk" ] && continue
    if tb/run_icarus.sh "$blk" >"build/tb-$blk.log" 2>&1; then
        echo "  PASS $blk"; pass=$((pass + 1))
    else
        echo "  FAIL $blk (log: build/tb-$blk.log)"; fail=$((fail + 1))
    fi
done < tb/blocks.txt
echo
echo "== summary"
if [ -f build/demo-stats.json ]; then
    jq -r '("cycles", "sim_time_us", "packets", "wall_s", "cycles_per_s") as $k
           | "  \($k | . + "               " | .[:14]) \(.[$k])"' build/demo-stats.json
fi
[ ${#wave[@]} -gt 0 ] && [ -s build/greeting.fst ] && echo "  waveform       build/greeting.fst (make wave)"
echo "  greeting       $([ $demo -eq 0 ] && echo ok || echo "FAILED (exit $demo)")"
[ "$simr" = verilator ] && echo "  collectives    $([ $coll -eq 0 ] && echo ok || echo "FAILED (exit $coll)")"
echo "  testbenches    $pass passed, $fail failed"
[ $demo -eq 0 ] && [ $coll -eq 0 ] && [ $fail -eq 0 ]
