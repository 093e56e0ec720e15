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

# 1-D tori (rings of torus routers) of 2 and 3 nodes and a 2-D torus 2x2.
for d in 2 3 2x2; do
    for lat in 1 2 128 300; do
        check "t${d}_lat${lat}" 0 "PASS skif_sc_platform" "$RUN" --dims "$d" --messages 60 --latency "$lat"
    done
    check "t${d}_lat128_latency_seen" 0 "(latency 128..128 cycles)" "$RUN" --dims "$d" --messages 10
    check "t${d}_memory_waits" 0 "PASS skif_sc_platform" "$RUN" --dims "$d" --messages 30 --latency 4 \
        --memory-waits
    check "t${d}_big_ring" 0 "PASS skif_sc_platform" "$RUN" --dims "$d" --messages 100 --ring-log2 16
    check "t${d}_no_messages" 0 "PASS skif_sc_platform" "$RUN" --dims "$d" --messages 0
done
# Node ids on the 2-D torus are packed coordinates; messages cross both dimensions.
check t2x2_node_ids 0 "node 3 (id 0x11): sent 40, received 40" "$RUN" --dims 2x2 --messages 40
# One-way stream (the traffic of sw/bench/stream) and fixed sizes; idle cycles after the work.
check t2x2_stream 0 "node 1 (id 0x1): sent 0, received 200 (12800 payload bytes)" "$RUN" --dims 2x2 \
    --stream --size 64 --messages 200
check t2_idle_cycles 0 "PASS skif_sc_platform" "$RUN" --dims 2 --messages 5 --idle-cycles 5000
# The checker must catch a corrupted payload byte, a corrupted header (the
# message is then also missing) and a run that does not finish.
check corrupt_payload 1 "FAIL skif_sc_platform" "$RUN" --dims 2x2 --messages 20 --corrupt 3
check corrupt_payload_named 1 "message 3 from node 0 byte" "$RUN" --dims 2x2 --messages 20 --corrupt 3
check corrupt_header 1 "message 1 from node 0" "$RUN" --dims 2 --messages 20 --corrupt 0
check timeout_fails 1 "timeout: not finished" "$RUN" --dims 2 --messages 50 --max-cycles 2000
# Bad command lines: usage and exit status 2.
check bad_option 2 "usage:" "$RUN" --dims 2 --bogus
check bad_value 2 "bad or missing value for --latency" "$RUN" --dims 2 --latency 0
check missing_value 2 "bad or missing value for --messages" "$RUN" --dims 2 --messages
check bad_size 2 "bad or missing value for --size" "$RUN" --dims 2 --size 2049
check bad_dims 2 "run.sh: --dims '2x17': each dimension must be a number from 2 to 16" "$RUN" --dims 2x17
# the binary itself reads --dims with the parser of skifrun and skifnet
check bad_dims_binary 2 "--dims '2x2x': expected sizes separated by 'x'" build/systemc/n2/skif_sc_platform --dims 2x2x
check wrong_dims 2 "this node model is for 1-dimensional tori, --dims 2x2 has 2" build/systemc/n1/skif_sc_platform --dims 2x2
check wrong_dims_2d 2 "this node model is for 2-dimensional tori, --dims 4 has 1" build/systemc/n2/skif_sc_platform --nodes 4
# One build per number of dimensions: the same binary runs tori of other sizes.
check t5_same_binary 0 "torus 5 (5 nodes)" build/systemc/n1/skif_sc_platform --dims 5 --messages 20
check t3x4_same_binary 0 "torus 3x4 (12 nodes)" build/systemc/n2/skif_sc_platform --dims 3x4 --messages 10
check help 0 "--latency C" "$RUN" --dims 2 --help

# The node models give what the whole-network builds gave (tests/ref/systemc_flat.txt):
# every line of each recorded run, cycle counts included.
same_as_record() {
    local ref=tests/ref/systemc_flat.txt key runs=0 bad=0 d a want got
    while IFS= read -r key; do
        d=${key%%|*} a=${key#*|}
        want=$(awk -v k="$key|" 'index($0, k) == 1' "$ref" | cut -d'|' -f3-)
        got=$("$RUN" --dims "$d" $a 2>&1 | sed 's/ in [0-9.]* s wall.*//')
        runs=$((runs + 1))
        if [ "$got" != "$want" ]; then
            echo "--dims $d $a: differs from the record"
            diff <(echo "$want") <(echo "$got") | head -6
            bad=$((bad + 1))
        fi
    done < <(grep -v '^#' "$ref" | cut -d'|' -f1,2 | uniq)
    echo "$runs runs compared, $bad differ"
    [ "$bad" -eq 0 ] && [ "$runs" -ge 20 ]
}
export -f same_as_record
export RUN
check node_models_match_flattened_record 0 "20 runs compared, 0 differ" bash -c same_as_record

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
