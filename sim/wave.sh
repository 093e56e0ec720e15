#!/usr/bin/env bash
# wave.sh [TRACE.fst] [VIEW]: open a waveform in GTKWave with the save file
# sim/gtkw/VIEW.gtkw (node, host, tx or rx; default node). Without a trace, the
# newest .fst under build/. Without a display, prints the command to run.
set -u
cd "$(dirname "$0")/.."
f=${1:-}; [ -n "$f" ] || f=$(ls -t $(find build -name '*.fst' 2>/dev/null) 2>/dev/null | head -1)
view=${2:-}; [ -n "$view" ] || view=node
if [ -z "$f" ]; then
    echo "wave: no waveform under build/; make one with e.g." >&2
    echo "  build/bin/skifrun -n 2 --wave build/greeting.fst build/bin/greeting" >&2
    exit 1
fi
[ -f "$f" ] || { echo "wave: no such trace: $f" >&2; exit 1; }
[ -f "sim/gtkw/$view.gtkw" ] || { echo "wave: no view '$view'; one of: $(ls sim/gtkw | sed 's/.gtkw//' | tr '\n' ' ')" >&2; exit 2; }
cmd="gtkwave $f sim/gtkw/$view.gtkw"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    echo "$cmd"
    exec $cmd
fi
echo "wave: no display here; on a machine with one, run:"
echo "  $cmd"
