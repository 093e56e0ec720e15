# build_progress.sh: sourced by sim/tools/build_model.sh and sim/tools/build_netbench.sh.
# with_progress WHAT OBJDIR LOG CMD...: run CMD (a Verilator build) with its
# output in LOG; every 15 s say how far along it is (verilating, or how many
# of the Verilated C++ files are compiled), and at the end how long it took.
# Returns CMD's status.
with_progress() {
    local what=$1 obj=$2 log=$3; shift 3
    local t0=$SECONDS mark d f
    # A dependency file of an earlier build that names a file no longer there
    # (a source moved) would stop make ("No rule to make target"): drop it
    # with its object, which then rebuilds.
    for d in "$obj"/*.d; do
        # (Verilator's own __ver.d: it re-verilates by itself when a source moved)
        case $d in *__ver.d) continue ;; esac
        [ -f "$d" ] || continue
        for f in $(sed 's/\\$//; s/^[^:]*://' "$d"); do
            case $f in /*) ;; *) f=$obj/$f ;; esac # (relative: to the objects)
            [ -e "$f" ] || { rm -f "$d" "${d%.d}.o"; break; }
        done
    done
    mark=$(mktemp)
    "$@" >"$log" 2>&1 &
    local pid=$! next=15
    while kill -0 "$pid" 2>/dev/null; do
        sleep 1
        if [ $((SECONDS - t0)) -ge $next ]; then
            next=$((next + 15))
            local ncpp ndone
            ncpp=$(find "$obj" -maxdepth 1 -name '*.cpp' -newer "$mark" 2>/dev/null | wc -l)
            ndone=$(find "$obj" -maxdepth 1 -name '*.o' -newer "$mark" 2>/dev/null | wc -l)
            if [ "$ncpp" -eq 0 ] && [ "$ndone" -eq 0 ]; then
                echo "  $what: $((SECONDS - t0)) s, verilating the RTL" >&2
            else
                ncpp=$(find "$obj" -maxdepth 1 -name '*.cpp' | wc -l)
                echo "  $what: $((SECONDS - t0)) s, compiled $ndone of about $((ncpp + 2)) files" >&2
            fi
        fi
    done
    wait "$pid"
    local rc=$?
    rm -f "$mark"
    [ $rc -eq 0 ] && echo "  $what: built in $((SECONDS - t0)) s" >&2
    return $rc
}

# pgo_build WHAT OBJDIR BUILD TRAIN: build a Verilated program twice, with
# GCC's profile-guided optimisation. BUILD FLAGS is a function that compiles
# and links it with the extra compiler and linker flags FLAGS; TRAIN runs the
# instrumented program on a short training set. The first build is
# instrumented (-fprofile-generate), the second uses the profile TRAIN left
# (-fprofile-use). The generated models are mostly data-dependent branches;
# laid out by a profile they run markedly faster (docs/scale.md). The results
# are the same either way: only the machine code's layout and branch choices
# change. SKIF_PGO=0 builds once, without a profile (a quicker build to try a
# change). No object of one kind of build is reused by the other. A source
# edited between the two passes leaves a profile that does not match it: GCC
# then warns (coverage-mismatch, by default an error) and ignores the profile
# of the functions that changed.
pgo_build() {
    local what=$1 obj=$2 build=$3 train=$4 t0
    pgo_drop() { rm -f "$obj"/*.o "$obj"/*.a; }
    pgo_drop
    rm -f "$obj"/*.gcda
    if [ "${SKIF_PGO:-1}" = 0 ]; then
        "$build" ""
        return
    fi
    echo "  $what: pass 1 of 2, instrumented for the profile" >&2
    "$build" "-fprofile-generate -fprofile-update=single"
    t0=$SECONDS
    "$train"
    pgo_drop
    if ! ls "$obj"/*.gcda >/dev/null 2>&1; then
        echo "  $what: the training left no profile; building without one" >&2
        "$build" ""
        return
    fi
    echo "  $what: trained in $((SECONDS - t0)) s; pass 2 of 2, with the profile" >&2
    "$build" "-fprofile-use -fprofile-partial-training -Wno-missing-profile -Wno-error=coverage-mismatch"
}
