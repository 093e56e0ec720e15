# tests/launcher.sh: tests of the launcher, its build and its outputs (issues
# 15 and 16); sourced by tests/run.sh, which provides expect_rc, has, fail,
# $RUN, $B and a fresh $T per test.

# ---------------------------------------------------------------- command line
t_launcher_getopt_forms() {
    # mpirun/GNU forms: joined values, -np, --version; options end at PROGRAM
    expect_rc 0 "$RUN" --dims=3x3 -q "$B/bin/greeting" || return 1
    has "$T/out" 'node 8: received "Hello from node 7"' || return 1
    expect_rc 0 "$RUN" -n2 -q "$B/bin/greeting" || return 1
    has "$T/out" 'node 1: received "Hello from node 0"' || return 1
    expect_rc 0 "$RUN" -np 2 --dims=2 -q "$B/bin/greeting" || return 1
    expect_rc 0 "$RUN" --version || return 1
    grep -Eq '^skifrun \(skifsim\) [0-9]+\.[0-9]+\.[0-9]+; adapter register map' "$T/out" ||
        fail "version line" || return 1
    # arguments after PROGRAM belong to it: -n 5 is the program's
    expect_rc 0 "$RUN" -n 2 -q sh -c 'echo "args: $*"' sh -n 5 --dims 3 || return 1
    [ "$(grep -c '^args: -n 5 --dims 3$' "$T/out")" -eq 2 ] || fail "program arguments" || return 1
}
t_launcher_usage_error_is_one_line() {
    local line
    for line in "--frob" "-n" "-n 2 --dims" "-n 0 x" "--tag-output=1 -n 2 x"; do
        expect_rc 2 "$RUN" $line || return 1
        [ "$(wc -l <"$T/err")" -eq 1 ] || fail "'$line': $(wc -l <"$T/err") lines on stderr" || return 1
        has "$T/err" "(see skifrun --help)" || return 1
    done
    # the simulator started directly (as skifrun execs it) says the same in one line
    for line in "--frob" "-n 2 --threads 0 x"; do
        expect_rc 2 "$B/models/n1/skifsim" $line || return 1
        [ "$(wc -l <"$T/err")" -eq 1 ] || fail "skifsim '$line': $(wc -l <"$T/err") lines" || return 1
        has "$T/err" "(see skifsim --help)" || return 1
    done
}
t_launcher_progress_lines() {
    # --progress 1: a line a second on stderr with the cycle, increasing and
    # short of the run's end, and the speed; stdout untouched
    expect_rc 3 "$RUN" --progress 1 --no-skip --dims 4x4x4 --max-cycles 100000 \
        "$B/tests/t_fail" sleep || return 1
    local re='^skifsim: cycle [0-9]+ of at most 100000: [0-9]+ cycles/s \([0-9.e+-]+ M node-cycles/s\) since the last line; 64 of 64 programs running \([0-9]+ s\)$'
    grep -E '^skifsim: cycle ' "$T/err" | tee "$T/lines"
    [ "$(grep -cE "$re" "$T/lines")" -ge 2 ] && [ "$(grep -cvE "$re" "$T/lines")" = 0 ] ||
        fail "two progress lines or more, each as documented, expected" || return 1
    local last=0 c
    for c in $(sed 's/^skifsim: cycle \([0-9]*\) .*/\1/' "$T/lines"); do
        [ "$c" -gt "$last" ] && [ "$c" -lt 100000 ] || fail "cycle $c after $last" || return 1
        last=$c
    done
    ! grep -q '^skifsim:' "$T/out" || fail "progress on stdout" || return 1
    # stderr not a terminal and no --progress: none (runs stay comparable)
    expect_rc 3 "$RUN" --no-skip --dims 4x4x4 --max-cycles 3000 "$B/tests/t_fail" sleep || return 1
    ! grep -Eq '^skifsim: (cycle|starting)' "$T/err" || fail "progress without --progress" || return 1
    local v
    for v in x -1 86401 1.5 ""; do
        expect_rc 2 "$RUN" --progress "$v" -n 2 "$B/bin/greeting" || return 1
        has "$T/err" "--progress '$v': expected a whole number from 0 to 86400" || return 1
    done
}
t_launcher_exit_status_of_first_failing_rank() {
    # like Open MPI: the status of the first program that failed
    expect_rc 3 "$RUN" -n 2 "$B/tests/t_fail" exit 0 || return 1
    has "$T/err" "node 0 (pid" && has "$T/err" "exited with status 3" || return 1
    expect_rc 7 "$RUN" -n 3 sh -c '[ "$SKIF_RANK" = 1 ] && exit 7; exit 0' || return 1
    expect_rc 139 "$RUN" -n 3 "$B/tests/t_fail" crash 1 || return 1
    has "$T/err" "killed by signal 11"
}
t_launcher_tag_output() {
    expect_rc 0 "$RUN" -n 4 --tag-output "$B/bin/greeting" || return 1
    local r
    for r in 0 1 2 3; do
        grep -q "^\[$r\] node $r: received \"Hello from node $(( (r + 3) % 4 ))\" at cycle" "$T/out" ||
            fail "no tagged line of rank $r" || return 1
    done
    [ "$(wc -l <"$T/out")" -eq 4 ] || fail "expected 4 lines" || return 1
    # stderr is tagged too, a last line without newline gets one
    expect_rc 0 "$RUN" -n 2 --tag-output sh -c 'echo "e$SKIF_RANK" >&2; printf "a\nb"' || return 1
    [ "$(grep -c '^\[[01]\] a$' "$T/out")" -eq 2 ] && [ "$(grep -c '^\[[01]\] b$' "$T/out")" -eq 2 ] &&
        grep -qx '\[1\] e1' "$T/err" || fail "tagged lines"
}
t_make_sim_waves_traces_the_demo() {
    # make sim WAVES=1 (cocotb's habit): the greeting traced into build/greeting.fst
    rm -f build/greeting.fst
    SKIF_DEMO_TB=0 expect_rc 0 make -s sim WAVES=1 NODES=2 || return 1
    has "$T/out" "waveform       build/greeting.fst (make wave)" || return 1
    [ -s build/greeting.fst ] || fail "no build/greeting.fst" || return 1
    fst2vcd build/greeting.fst >"$T/g.vcd" 2>/dev/null
    grep -q 'scope module g_node\[1\]' "$T/g.vcd" || fail "build/greeting.fst is not a trace of the 2 nodes"
}
t_launcher_waves_env() {
    # cocotb's WAVES=1: a waveform under the default name in the current directory
    (cd "$T" && WAVES=1 expect_rc 0 "$RUN" -n 2 -q "$B/bin/greeting") || return 1
    [ -s "$T/skifrun.fst" ] || fail "WAVES=1 wrote no skifrun.fst" || return 1
    fst2vcd "$T/skifrun.fst" >"$T/w.vcd" 2>/dev/null
    grep -q 'scope module g_node' "$T/w.vcd" || fail "not a trace"
}

# ---------------------------------------------------------------- bad input
t_launcher_unwritable_outputs_refused() {
    # refused before the run (exit 2): the program must not have run
    local p="sh -c 'touch $T/ran'"
    expect_rc 2 "$RUN" -n 2 --wave /nonexistent/dir/w.fst sh -c "touch $T/ran" || return 1
    has "$T/err" "--wave '/nonexistent/dir/w.fst': cannot write it" || return 1
    expect_rc 2 "$RUN" -n 2 --stats /nonexistent/dir/s.json sh -c "touch $T/ran" || return 1
    has "$T/err" "--stats '/nonexistent/dir/s.json': cannot write it" || return 1
    expect_rc 2 "$RUN" -n 2 --stats "$T" sh -c "touch $T/ran" || return 1
    has "$T/err" "is a directory" || return 1
    [ ! -e "$T/ran" ] || fail "the program ran" || return 1
    [ ! -e /nonexistent ] || return 1
    # a writable file that did not exist is not left behind by the check
    expect_rc 2 "$RUN" -n 2 --stats "$T/new.json" --bogus "$B/bin/greeting" || return 1
    [ ! -e "$T/new.json" ] || fail "left $T/new.json" || return 1
    # a write that fails at the end is reported and fails the run
    expect_rc 5 "$RUN" -n 2 --stats /dev/full "$B/bin/greeting" || return 1
    has "$T/err" "writing --stats '/dev/full' failed: No space left on device"
}
t_launcher_directory_program_refused() {
    expect_rc 2 "$RUN" -n 2 "$T" || return 1
    has "$T/err" "cannot run '$T': it is a directory" || return 1
    mkdir "$T/bin" && PATH="$T/bin:$PATH" expect_rc 2 "$RUN" -n 2 bin || return 1
}
t_launcher_skif_spin_checked() {
    local v
    for v in abc -1 99999999999999999999 2000000 "5x"; do
        SKIF_SPIN=$v expect_rc 2 "$RUN" -n 2 "$B/bin/greeting" || return 1
        has "$T/err" "SKIF_SPIN='$v': expected a whole number from 0 to" || return 1
    done
    SKIF_SPIN=50 expect_rc 0 "$RUN" -n 2 -q "$B/bin/greeting"
}
t_launcher_forked_child_does_not_hold_the_run() {
    # the program forks a child that outlives it (and inherits its socket):
    # the run ends when the program does, without a stall notice
    local start=$SECONDS
    expect_rc 0 "$RUN" -n 2 --stall-warn 1 \
        sh -c 'sleep 20 </dev/null >/dev/null 2>&1 & echo $! >>"$0"; exit 0' "$T/pids" || return 1
    local took=$((SECONDS - start))
    kill $(cat "$T/pids") 2>/dev/null
    echo "took $took s"
    [ "$took" -lt 10 ] || fail "the run waited for the child" || return 1
    ! grep -q "without entering the driver" "$T/err" || fail "a wrong stall notice"
}

# ---------------------------------------------------------------- build
t_model_build_concurrent_runs() {
    # three runs on a model not yet built: one build, all three use it whole
    rm -rf "$B/models/t4x2-icarus"
    local i pids=()
    for i in 1 2 3; do
        timeout 300 "$RUN" --dims 4x2 --sim icarus -q "$B/bin/greeting" >"$T/o$i" 2>"$T/e$i" &
        pids+=($!)
    done
    local bad=0
    for i in 1 2 3; do wait "${pids[$((i - 1))]}" || { echo "run $i failed"; cat "$T/e$i"; bad=1; }; done
    [ $bad -eq 0 ] || return 1
    for i in 1 2 3; do has "$T/o$i" 'node 7: received "Hello from node 6" at cycle' || return 1; done
    local builds
    builds=$(cat "$T"/e? | grep -c "iverilog: building the 4x2 torus model")
    echo "builds: $builds"
    [ "$builds" -eq 1 ] || fail "$builds builds, expected 1" || return 1
    rm -rf "$B/models/t4x2-icarus"
}
t_launcher_watches_every_model_source_folder() {
    # skifrun rebuilds a model when a file in one of its source folders is
    # newer than it (then asks make): every folder of an RTL file and of the
    # simulator's own sources must be among them (rtl/rma was not)
    local d list
    list=$(sed -n '/src_dirs\[\] = {/,/};/p' sim/launcher/skifrun.c)
    [ -n "$list" ] || fail "src_dirs not found in sim/launcher/skifrun.c" || return 1
    for d in $(xargs -n1 dirname <rtl/files.txt | sort -u) sim/hdl sim/kernel sim/options include; do
        echo "$d"
        grep -qF "\"$d\"" <<<"$list" || fail "skifrun does not look for changes in $d" || return 1
    done
}
t_hw_header_compared_by_content() {
    # a checkout where include/skif_hw.h is older than rtl/skif_defs.vh (a fresh
    # clone) must not rewrite it, or every model would be rebuilt
    mkdir -p "$T/r/rtl" "$T/r/sim/systemc" "$T/r/sim/tools" "$T/r/sim/launcher" "$T/r/sim/options" "$T/r/include" "$T/r/sw/mpi" "$T/r/sw/shmem"
    cp Makefile "$T/r/" && cp sim/tools/gen_hw_h.awk "$T/r/sim/tools/" &&
        cp sim/launcher/install.mk "$T/r/sim/launcher/" && cp sim/options/skif_opts.h "$T/r/sim/options/" && cp sim/systemc/Makefile.inc "$T/r/sim/systemc/" &&
        cp sw/mpi/mpi.mk "$T/r/sw/mpi/" && cp sw/shmem/shmem.mk "$T/r/sw/shmem/" &&
        cp rtl/skif_defs.vh rtl/files.txt "$T/r/rtl/" && cp include/skif_hw.h "$T/r/include/" || return 1
    touch -d '2020-01-01' "$T/r/include/skif_hw.h"
    local before after
    before=$(stat -c %Y "$T/r/include/skif_hw.h")
    make -s -C "$T/r" include/skif_hw.h || return 1
    after=$(stat -c %Y "$T/r/include/skif_hw.h")
    [ "$before" = "$after" ] || fail "include/skif_hw.h rewritten although its content is the same" || return 1
    # a real change of the definitions does reach it
    echo '`define SKIF_TEST_ONLY 32'"'"'h5' >>"$T/r/rtl/skif_defs.vh"
    make -s -C "$T/r" include/skif_hw.h >/dev/null || return 1
    cmp -s include/skif_hw.h "$T/r/include/skif_hw.h" && fail "a changed definition did not regenerate it"
    return 0
}

# ---------------------------------------------------------------- docs and outputs
t_docs_no_absolute_paths() {
    # docs and comments name files relative to the repository
    ! grep -nE '(^|[ (`"])/(work|home|root|Users)/' README.md docs/*.md sim/*/*.c sim/*/*.h sim/*/*.cpp \
        sim/*/*.sh sw/*.h driver/*.h include/*.h || fail "absolute paths above"
}
t_docs_named_source_files_exist() {
    # every source file a doc or header comment names exists, and style.md
    # names every C++ file
    local f miss=0
    for f in $(grep -ohE '\b(sim|include|driver|sw|tests|tb)/[A-Za-z0-9_/.-]+\.(c|h|cpp|sh|svh)\b' \
                   docs/style.md docs/waveforms.md sim/*/*.h include/*.h | sort -u); do
        [ -e "$f" ] || { echo "names $f, which does not exist"; miss=1; }
    done
    for f in $(git ls-files '*.cpp'); do
        grep -qF "$f" docs/style.md || grep -qF "$(dirname "$f")/" docs/style.md ||
            { echo "docs/style.md does not name $f"; miss=1; }
    done
    [ $miss -eq 0 ]
}
t_stats_simulator_cpu_excludes_programs() {
    # --stats run_cpu_s is the simulator's own CPU time after start-up: a
    # program that spins 2-3 s outside the library (whole seconds of time())
    # takes wall time from the run (run_s), not CPU time from the simulator,
    # which sleeps meanwhile
    expect_rc 0 "$RUN" -n 2 -q --stats "$T/s.json" "$B/tests/t_fail" spin 1 || return 1
    jq -c '{cycles, run_s, run_cpu_s}' "$T/s.json"
    jq -e '.run_s >= 1.9 and .run_cpu_s > 0 and .run_cpu_s < 1' "$T/s.json" >/dev/null ||
        fail "run_cpu_s should be above 0 and well below the 2-3 s the program spun" || return 1
}
t_torus_net_header_current() {
    ! grep -n 'skif_ring_net' rtl/net/skif_torus_net.sv || fail "names the removed skif_ring_net"
}
t_json_outputs_parse() {
    # every JSON the project writes parses: run statistics, and the bench
    # tables written from CSV (with empty fields, as the idle runs give)
    "$RUN" -n 2 -q --stats "$T/s.json" "$B/bin/greeting" >/dev/null || return 1
    python3 -m json.tool "$T/s.json" >/dev/null || fail "--stats JSON" || return 1
    "$RUN" -n 2 -q --stats "$T/f.json" "$B/tests/t_fail" exit 0 >/dev/null 2>&1
    jq -e '.exit == 3' "$T/f.json" >/dev/null || fail "--stats exit field" || return 1
    printf 'run,nodes,cycles,msgs_per_cycle,note\nidle,2,,,\nstream,2,400000,0.49,a b\n' >"$T/t.csv"
    sw/bench/csv2json.sh "$T/t.csv" >"$T/t.json" || return 1
    python3 -m json.tool "$T/t.json" >/dev/null || fail "csv2json output" || return 1
    jq -e '.[0].cycles == null and .[1].cycles == 400000 and .[1].note == "a b"' "$T/t.json" >/dev/null ||
        fail "csv2json values" || return 1
    sw/bench/csv2json.sh "$T/t.csv" --wrap runs date=2026-11-25 cpus=2 >"$T/w.json" || return 1
    jq -e '.cpus == 2 and .date == "2026-11-25" and (.runs | length) == 2' "$T/w.json" >/dev/null ||
        fail "wrapped JSON" || return 1
    # no bench script writes JSON by pasting strings
    ! grep -n 'printf.*\\"[a-z_]*\\": ' sw/bench/*.sh sim/*/*.sh || fail "JSON pasted by printf above"
}

# ---------------------------------------------------------------- waveform views
t_flitdec_ranks_and_coordinates() {
    local D="$B/bin/skif_flitdec" got
    hdr() { printf '%016x' $(( ($1 << 60) | ($2 << 44) | ($3 << 28) | ($4 << 20) | ($5 << 8) | $6 )); }
    # rank 4 of a 2x2x2 torus is id 0x100 (x=0, y=0, z=1)
    got=$("$D" --dims 2x2x2 "$(hdr 0 0x100 0x011 3 64 0)")
    [ "$got" = "MSG 3>4 ch3 len64" ] || fail "ranks: '$got'" || return 1
    got=$("$D" "$(hdr 0 0x100 0x011 3 64 0)")
    [ "$got" = "MSG (1,1,0)>(0,0,1) ch3 len64" ] || fail "coordinates: '$got'" || return 1
    got=$(SKIF_DIMS=4x4 "$D" "$(hdr 0 0x33 0x30 0 8 0)")
    [ "$got" = "MSG 12>15 ch0 len8" ] || fail "SKIF_DIMS: '$got'" || return 1
    got=$("$D" --dims=3 "$(hdr 0 5 1 0 8 0)")
    [ "$got" = "MSG 1>?id0x5 ch0 len8" ] || fail "outside the torus: '$got'" || return 1
    got=$("$D" "$(hdr 0 0x1000 0 0 8 0)")
    [ "$got" = "MSG (0,0,0)>(0,0,0,1) ch0 len8" ] || fail "4-D: '$got'" || return 1
    expect_rc 2 "$D" --dims 1x4 00 || return 1
    has "$T/err" "dims '1x4'" || return 1
    expect_rc 2 "$D" --dims || return 1
}
t_docs_flitdec_examples_true() {
    # each decoder line of docs/waveforms.md prints what its comment says
    local n=0 line cmd want got
    while IFS= read -r line; do
        cmd=${line%%#*} want=${line#*# }
        got=$(bash -c "$cmd") || fail "'$cmd' failed" || return 1
        echo "$cmd -> $got"
        [ "$got" = "$want" ] || fail "docs say '$want'" || return 1
        n=$((n + 1))
    done < <(grep -E '^(SKIF_DIMS=[^ ]+ )?build/bin/skif_flitdec .*# ' docs/waveforms.md)
    [ "$n" -ge 3 ] || fail "found $n examples"
}
t_gtkw_bit_ranges_checked() {
    # a save file naming a signal with another range than the trace's fails
    "$RUN" -n 2 -q --wave "$T/g.fst" "$B/bin/greeting" >/dev/null 2>&1 || return 1
    sed 's/u_tx\.inflight_q\[[0-9]*:0\]/u_tx.inflight_q[3:0]/' sim/tools/gtkw/tx.gtkw >"$T/bad.gtkw"
    grep -q 'inflight_q\[3:0\]' "$T/bad.gtkw" || fail "no inflight_q in tx.gtkw" || return 1
    ! tests/check_gtkw.sh "$T/bad.gtkw" "$T/g.fst" >"$T/out" 2>&1 || fail "not caught" || return 1
    cat "$T/out"; grep -Eq 'names .*inflight_q\[3:0\], but the trace has .*inflight_q\[[0-9]+:0\]' "$T/out"
}
t_gtkw_generated_views_match_node_trace() {
    # a trace of node 1 only: the views made for it name node 1, all present
    "$RUN" -n 3 -q --wave "$T/n1.fst" --trace-node 1 "$B/bin/greeting" >/dev/null 2>&1 || return 1
    sim/tools/gen_gtkw.sh "$T/n1.fst" "$T/v" || return 1
    local f
    for f in node host tx rx router; do
        tests/check_gtkw.sh "$T/v/$f.gtkw" "$T/n1.fst" || return 1
    done
    grep -q 'g_node\[1\]' "$T/v/node.gtkw" && ! grep -q 'g_node\[0\]' "$T/v/node.gtkw" ||
        fail "node.gtkw is not for node 1" || return 1
    # the tracked files are never overwritten without --tracked
    local sum
    sum=$(cat sim/tools/gtkw/*.gtkw | md5sum)
    expect_rc 2 sim/tools/gen_gtkw.sh "$T/n1.fst" sim/tools/gtkw || return 1
    [ "$(cat sim/tools/gtkw/*.gtkw | md5sum)" = "$sum" ] || fail "sim/tools/gtkw changed"
}
t_wave_opens_matching_views() {
    # the docs' example session: make wave pairs each trace with views made for it
    rm -f build/greeting.fst
    local cmds
    cmds=$(awk '/^## Example session/{f=1} f&&/^```sh/{g=1;next} g&&/^```/{exit} g' docs/waveforms.md |
        sed 's/#.*//' | grep -v '^make all' | sed -e :a -e '/\\$/N; s/\\\n//; ta')
    echo "$cmds"
    DISPLAY= WAYLAND_DISPLAY= bash -ec "$cmds" >"$T/out" 2>&1 || { cat "$T/out"; fail "the session failed"; } || return 1
    cat "$T/out"
    local n=0 trace view
    while read -r _ trace view; do
        tests/check_gtkw.sh "$view" "$trace" || return 1
        grep -q 'g_node\[1\]' "$view" || fail "$view is not for node 1" || return 1
        n=$((n + 1))
    done < <(grep '^  gtkwave ' "$T/out")
    [ "$n" -eq 2 ] || fail "expected 2 gtkwave commands, got $n" || return 1
    grep -q '/rx.gtkw$' "$T/out" || fail "VIEW=rx not used"
}
t_wave_testbench_trace_gets_tb_view() {
    # its own output folder: t_icarus_skif_regs may be running beside it
    TB_OUT=$T/tb WAVES=1 tb/run_icarus.sh skif_regs >"$T/tb.log" 2>&1 || { cat "$T/tb.log"; return 1; }
    local trace
    trace=$(ls -t "$T"/tb/*.fst | head -1)
    [ -n "$trace" ] || fail "no testbench trace" || return 1
    DISPLAY= WAYLAND_DISPLAY= expect_rc 0 sim/tools/wave.sh "$trace" || return 1
    local view
    view=$(awk '/^  gtkwave /{print $3}' "$T/out")
    case "$view" in */tb.gtkw) ;; *) fail "opened '$view', not a testbench view"; return 1 ;; esac
    tests/check_gtkw.sh "$view" "$trace" || return 1
    DISPLAY= WAYLAND_DISPLAY= expect_rc 2 sim/tools/wave.sh "$trace" node || return 1
    has "$T/err" "its views: tb"
}

# ---------------------------------------------------------------- install, wrappers
t_install_tree_used_elsewhere() {
    make -s install PREFIX="$T/inst" >"$T/inst.log" 2>&1 || { cat "$T/inst.log"; return 1; }
    local I=$T/inst
    for f in bin/skifrun bin/skifcc bin/skif_flitdec lib/libskif.a lib/pkgconfig/skifch.pc \
             include/skifsim/skifch.h include/skifsim/skifch_util.h share/skifsim/gtkw/node.gtkw \
             libexec/skifsim/models/n1/skifsim libexec/skifsim/models/n1/skifsim-mpi \
             libexec/skifsim/examples/greeting; do
        [ -e "$I/$f" ] || fail "not installed: $f" || return 1
    done
    mkdir "$T/away" && cp sw/examples/greeting.c "$T/away/" || return 1
    # compile with the wrapper and with pkg-config, run with the installed launcher,
    # from a directory outside the source tree
    (
        cd "$T/away" || exit 1
        unset SKIF_ROOT
        "$I/bin/skifcc" -show -o g greeting.c >show && grep -q -- "-I$I/include/skifsim .*-L$I/lib -lskif" show ||
            { echo "skifcc -show: $("$I/bin/skifcc" -show)"; exit 1; }
        "$I/bin/skifcc" -O2 -o g greeting.c || exit 1
        cc -o g2 greeting.c $(PKG_CONFIG_PATH="$I/lib/pkgconfig" pkg-config --cflags --libs skifch) || exit 1
        "$I/bin/skifrun" -n 2 ./g >out1 2>err1 || { cat err1; exit 1; }
        "$I/bin/skifrun" -n 2 ./g2 >out2 2>/dev/null || exit 1
        grep -q 'node 1: received "Hello from node 0"' out1 && cmp out1 out2 || { cat out1 out2; exit 1; }
        # any ring runs on the installed one-node model of rings
        "$I/bin/skifrun" -n 9 ./g >out9 2>/dev/null && grep -q 'node 8: received' out9 || exit 1
        # and over MPI ranks, with the installed skifsim-mpi
        "$I/bin/skifrun" --ranks 2 -n 4 ./g >outr 2>errr && grep -q 'node 3: received' outr &&
            grep -q '2 MPI ranks' errr || { cat outr errr; exit 1; }
        # a number of dimensions whose model was not installed: a clear message,
        # no attempt to build
        rm -rf "$I/libexec/skifsim/models/n4"
        "$I/bin/skifrun" --dims 2x2x2x2 ./g >/dev/null 2>err3; rc=$?
        cat err3
        [ $rc -eq 5 ] && grep -q "has no model for n4" err3 && grep -q "installed models:.* n1" err3
    ) || fail "the installed tree does not work outside the source tree"
}
t_skifcc_in_tree() {
    "$B/bin/skifcc" --help >"$T/help" && grep -q "skifcc -show" "$T/help" || fail "--help" || return 1
    "$B/bin/skifcc" -o "$T/g" sw/examples/greeting.c || return 1
    expect_rc 0 "$RUN" -n 2 "$T/g" || return 1
    has "$T/out" 'node 0: received "Hello from node 1"' || return 1
    expect_rc 2 "$B/bin/skifcc" || return 1
    has "$T/err" "no input files"
}
t_make_help_lists_targets() {
    expect_rc 0 make -s help || return 1
    has "$T/out" "NET=quick" && has "$T/out" "make install"
}
# A program that cannot be started when its turn comes (skifrun checks it
# first; the simulator alone, or a program removed meanwhile): named, 127 as
# a shell or mpirun gives, the run stopped.
t_simulator_program_not_startable() {
    expect_rc 127 "$B/models/n1/skifsim" -n 2 "$T/nonexistent" || return 1
    has "$T/err" "skifsim: node 0: cannot run '$T/nonexistent': No such file or directory" &&
        has "$T/err" "exited with status 127 at cycle 0; stopping the other programs"
}
# A run started where SKIF_* variables are already set (from a program of
# another run): each program gets its own node's values, not those.
t_launcher_stale_skif_environment_replaced() {
    SKIF_RANK=7 SKIF_SIZE=9 SKIF_DIMS=9x9 SKIF_SOCK_FD=99 SKIF_MEM_FD=98 \
        expect_rc 0 valgrind -q --error-exitcode=9 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect "$B/models/n1/skifsim" -n 3 "$B/bin/greeting" ||
        return 1
    has "$T/out" 'node 2: received "Hello from node 1"' &&
        has "$T/out" 'node 0: received "Hello from node 2"'
}
t_launcher_one_node() {
    # -n 1: one program (SKIF_SIZE=1) on a ring of 2 whose node 1 runs none
    expect_rc 0 "$RUN" -n 1 sh -c 'echo "rank $SKIF_RANK of $SKIF_SIZE"' || return 1
    [ "$(cat "$T/out")" = "rank 0 of 1" ] || fail "expected one program" || return 1
    expect_rc 0 "$RUN" -n 1 "$B/bin/greeting" || return 1
    grep -q '^node 0: received "Hello from node 0" at cycle' "$T/out" && [ "$(wc -l <"$T/out")" -eq 1 ] ||
        fail "greeting on one node"
}
t_icarus_wave_fst() {
    # --sim icarus --wave: vvp -fst dumps the whole network; the views made
    # for that trace match it
    expect_rc 0 "$RUN" -n 2 --sim icarus --wave "$T/i.fst" "$B/bin/greeting" || return 1
    has "$T/out" 'node 1: received "Hello from node 0"' || return 1
    [ -s "$T/i.fst" ] || fail "no waveform" || return 1
    fst2vcd "$T/i.fst" >"$T/i.vcd" 2>/dev/null
    grep -Eq 'scope (module|generate) g_node\[1\]' "$T/i.vcd" || fail "not a trace of the network" || return 1
    sim/tools/gen_gtkw.sh "$T/i.fst" "$T/v" || return 1
    tests/check_gtkw.sh "$T/v/node.gtkw" "$T/i.fst" || return 1
    expect_rc 2 "$RUN" -n 2 --sim icarus --wave "$T/j.fst" --trace-to 50 "$B/bin/greeting" || return 1
    has "$T/err" "need the Verilator model"
}
t_readme_example_program_runs() {
    # the README's example program, built and run the way the README says
    awk '/^## Run your own SkifCh program/{f=1} f&&/^```c/{g=1;next} g&&/^```/{exit} g' README.md >"$T/myprog.c"
    [ -s "$T/myprog.c" ] || fail "no C example in README.md" || return 1
    grep -q 'build/bin/skifcc -o myprog myprog.c' README.md || fail "README does not build with skifcc" || return 1
    "$B/bin/skifcc" -o "$T/myprog" "$T/myprog.c" || return 1
    expect_rc 0 "$RUN" -n 4 "$T/myprog"
}
t_bench_scripts_build_what_they_run() {
    # every build/bin or build/tests program a bench script runs is built by
    # that script or by `make all` (make bench on a fresh clone once ran
    # build/tests/t_fail without building it: "2-node idle model: 0 cycles/s")
    local all f p bad=0
    all=$(make -s -p -n all 2>/dev/null | sed -n 's/^all: //p' | head -1)
    for f in sw/bench/*.sh; do
        for p in $(grep -v '^ *#' "$f" | grep -oE 'build/(bin|tests)/[a-z_]+' | sort -u); do
            case " $all " in *" $p "*) continue ;; esac
            grep -E '^ *make -s .*'"$p"'( |$)' "$f" >/dev/null ||
                { echo "$f runs $p without building it"; bad=1; }
        done
    done
    [ $bad -eq 0 ]
}
t_bench_bad_settings_refused() {
    # a bench's bad setting stops it before any run, exit 2, naming the
    # setting; shapes are read by build/bin/skif_dims (sw/bench/dims.sh)
    local c
    for c in "NET_REPS=0|NET_REPS '0': expected 1..99" \
             "NET_LOADS=0.1 1.5|NET_LOADS: '1.5' is not an offered load" \
             "NET_REF=nonesuch|NET_REF 'nonesuch' is not a commit" \
             "NET_DIMS=8x8 8x17|NET_DIMS: --dims '8x17': each dimension must be a number from 2 to 16"; do
        expect_rc 2 env NET_REF=HEAD "${c%%|*}" sw/bench/net_speed.sh || return 1
        has "$T/err" "net_speed: ${c#*|}" || return 1
    done
    expect_rc 2 env SCALE_DIMS="2 4x" sw/bench/scale.sh || return 1
    has "$T/err" "scale: SCALE_DIMS: --dims '4x': expected sizes separated by 'x'" || return 1
    expect_rc 2 env SCALE_CPU=first sw/bench/scale.sh || return 1
    has "$T/err" "scale: SCALE_CPU 'first': expected a CPU number or 'here'"
}
t_handover_tool() {
    # build/bin/skif_handover (bench-scale's figure of the machine's process
    # hand-over): a positive time per release; bad options refused, exit 2,
    # naming the option
    local H="$B/bin/skif_handover" c
    expect_rc 0 "$H" --procs 4 --rounds 50 --cpu 0 -q || return 1
    grep -Eq '^[0-9]+\.[0-9]$' "$T/out" && awk '{exit !($1 > 0)}' "$T/out" ||
        fail "expected a positive number of microseconds, got '$(cat "$T/out")'" || return 1
    expect_rc 0 "$H" --procs 3 --rounds 4 || return 1
    grep -Eq '^hand-over: 3 processes, 16 pages each, 4 rounds on CPU 0: [0-9.]+ us a release$' \
        "$T/out" || fail "unexpected summary line" || return 1
    # in chains: 7 processes in groups of 3, 3 and 1, every one released
    # each round (the tool checks it) and the run said so
    expect_rc 0 "$H" --procs 7 --rounds 5 --chain 3 || return 1
    grep -Eq '^hand-over: 7 processes, 16 pages each, 5 rounds on CPU 0, in chains of 3: [0-9.]+ us a release$' \
        "$T/out" || fail "unexpected summary line in chains" || return 1
    expect_rc 0 "$H" --help || return 1
    has "$T/out" "usage: skif_handover" || return 1
    for c in "--procs 0|--procs '0': expected a number from 1 to 8192" \
             "--chain 0|--chain '0': expected a number from 1 to 64" \
             "--chain 65|--chain '65': expected a number from 1 to 64" \
             "--rounds 1|--rounds '1': expected a number from 2 to 100000" \
             "--pages 4097|--pages '4097': expected a number from 0 to 4096" \
             "--cpu x|--cpu 'x': expected a number from 0 to 1023" \
             "--procs|--procs needs a value" \
             "--fast|unknown option '--fast'"; do
        expect_rc 2 "$H" ${c%%|*} || return 1
        has "$T/err" "skif_handover: ${c#*|}" || return 1
    done
    expect_rc 2 "$H" --cpu 1023 || return 1
    has "$T/err" "skif_handover: --cpu 1023: not a CPU this process may run on"
}
