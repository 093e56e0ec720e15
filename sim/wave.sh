#!/usr/bin/env bash
# wave.sh: open the newest FST waveform under build/ (or given as $1) in
# GTKWave with the save file sim/skif_node0.gtkw; without a display, print the
# command to run instead.
set -u
cd "$(dirname "$0")/.."
f=${1:-$(ls -t $(find build -name '*.fst' 2>/dev/null) 2>/dev/null | head -1)}
if [ -z "$f" ]; then
    echo "wave: no waveform under build/; make one with e.g." >&2
    echo "  build/bin/skifrun -n 2 --wave build/greeting.fst build/bin/greeting" >&2
    exit 1
fi
cmd="gtkwave $f sim/skif_node0.gtkw"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    echo "$cmd"
    exec $cmd
fi
echo "wave: no display here; on a machine with one, run:"
echo "  $cmd"
