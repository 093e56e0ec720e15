#!/usr/bin/env bash
# test.sh: self-checks of the SystemC path (docs/systemc.md). Builds what is
# missing, runs each case, prints ok/FAIL per case and "N passed, N failed";
# exit status 0 only if all passed. Logs: build/systemc/test-logs/.
set -u
cd "$(dirname "$0")/../.." || exit 2
RUN=sim/systemc/run.sh
LOGS=build/systemc/test-logs
mkdir -p "$LOGS"
pass=0
failed=0

# check NAME WANT_RC WANT_TEXT CMD...: run CMD, check its status and output.
check() {
    local name=$1 want=$2 text=$3
    shift 3
    local log=$LOGS/$name.log
    timeout 300 "$@" >"$log" 2>&1
    local rc=$?
    if [ "$rc" -eq "$want" ] && grep -qF -- "$text" "$log"; then
        echo "ok   $name"
        pass=$((pass + 1))
    else
        echo "FAIL $name (exit $rc, want $want and '$text'; log $log)"
        tail -20 "$log"
        failed=$((failed + 1))
    fi
}

for n in 2 3; do
    for lat in 1 2 128 300; do
        check "n${n}_lat${lat}" 0 "PASS skif_sc_platform" "$RUN" --nodes "$n" --messages 60 --latency "$lat"
    done
    check "n${n}_lat128_latency_seen" 0 "(latency 128..128 cycles)" "$RUN" --nodes "$n" --messages 10
    check "n${n}_memory_waits" 0 "PASS skif_sc_platform" "$RUN" --nodes "$n" --messages 30 --latency 4 \
        --memory-waits
    check "n${n}_big_ring" 0 "PASS skif_sc_platform" "$RUN" --nodes "$n" --messages 100 --ring-log2 16
    check "n${n}_no_messages" 0 "PASS skif_sc_platform" "$RUN" --nodes "$n" --messages 0
done
# The checker must catch a corrupted payload byte and a corrupted header.
check corrupt_payload 1 "FAIL skif_sc_platform" "$RUN" --nodes 2 --messages 20 --corrupt 3
check corrupt_payload_named 1 "message 3 from node 0 byte" "$RUN" --nodes 2 --messages 20 --corrupt 3
check corrupt_header 1 "message 0: src 0 chan 1 len 0, want src 0 chan 0" "$RUN" --nodes 2 --messages 20 \
    --corrupt 0
check timeout_fails 1 "timeout: not finished" "$RUN" --nodes 2 --messages 50 --max-cycles 2000
# Bad command lines: usage and exit status 2.
check bad_option 2 "usage:" "$RUN" --nodes 2 --bogus
check bad_value 2 "bad or missing value for --latency" "$RUN" --nodes 2 --latency 0
check missing_value 2 "bad or missing value for --messages" "$RUN" --nodes 2 --messages
check wrong_nodes 2 "built for 2 nodes, not 3" build/systemc/nodes2/skif_sc_platform --nodes 3
check help 0 "--latency C" "$RUN" --nodes 2 --help

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
