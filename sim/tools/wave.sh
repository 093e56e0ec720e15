#!/usr/bin/env bash
# wave.sh [TRACE.fst] [VIEW]: open a waveform in GTKWave with a save file made
# for that trace by sim/tools/gen_gtkw.sh (under build/gtkw/<trace name>/): the node
# the trace holds (--trace-node K), the testbench of a testbench trace, bit
# ranges as traced. VIEW: node (default), host, tx, rx, router or coll for a trace
# of the network; a testbench trace has the one view tb. Without a trace, the
# newest .fst under build/. Without a display, prints the command to run.
set -u
cd "$(dirname "$0")/../.."
f=${1:-}; [ -n "$f" ] || f=$(ls -t $(find build -name '*.fst' 2>/dev/null) 2>/dev/null | head -1)
view=${2:-}
if [ -z "$f" ]; then
    echo "wave: no waveform under build/; make one with e.g." >&2
    echo "  build/bin/skifrun -n 2 --wave build/greeting.fst build/bin/greeting" >&2
    exit 1
fi
[ -f "$f" ] || { echo "wave: no such trace: $f" >&2; exit 1; }
# one directory of save files per trace, named after its path
dir=build/gtkw/$(realpath -m "$f" | sed 's#^/##; s#[^A-Za-z0-9_.-]#_#g')
if [ ! -d "$dir" ] || [ "$f" -nt "$dir" ]; then
    rm -rf "$dir"
    sim/tools/gen_gtkw.sh "$f" "$dir" >/dev/null || exit 1
    touch "$dir"
fi
views=$(ls "$dir" | sed -n 's/\.gtkw$//p' | tr '\n' ' ')
if [ -z "$view" ]; then
    [ -f "$dir/node.gtkw" ] && view=node || view=tb
fi
if [ ! -f "$dir/$view.gtkw" ]; then
    echo "wave: no view '$view' for $f; its views: $views" >&2
    exit 2
fi
cmd="gtkwave $f $dir/$view.gtkw"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    echo "$cmd"
    exec $cmd
fi
echo "wave: no display here; on a machine with one, run:"
echo "  $cmd"
