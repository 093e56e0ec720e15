#!/usr/bin/env bash
# check_gtkw.sh SAVEFILE TRACE.fst: every signal the GTKWave save file names
# must exist in the trace with the same bit range (GTKWave shows a signal
# named with another range as missing); prints each mismatch and fails.
set -u
[ $# -eq 2 ] || { echo "usage: check_gtkw.sh SAVEFILE TRACE.fst" >&2; exit 2; }
gtkw=$1 fst=$2
vars=$(mktemp)
trap 'rm -f "$vars"' EXIT
# one line per variable: hierarchical name with its range as GTKWave writes
# it (name[msb:lsb]; a 1-bit signal has none)
fst2vcd "$fst" 2>/dev/null | awk '/\$scope/{s[++d]=$3} /\$upscope/{d--}
    /\$var/{p=""; for(i=1;i<=d;i++) p=p s[i] "."; r=($6 ~ /^\[/) ? $6 : ""; print p $5 r}' |
    sort -u >"$vars"
[ -s "$vars" ] || { echo "check_gtkw: cannot read $fst"; exit 1; }
missing=0; n=0
while read -r sig; do
    n=$((n + 1))
    grep -qxF -- "$sig" "$vars" && continue
    base=$(printf "%s" "$sig" | sed -E "s/\\[[0-9]+:[0-9]+\\]$//")
    have=$(grep -E "^$(printf '%s' "$base" | sed 's/[]$*.^[]/\\&/g')(\[[0-9]+:[0-9]+\])?$" "$vars" | head -1)
    if [ -n "$have" ]; then
        echo "check_gtkw: $gtkw names $sig, but the trace has $have"
    else
        echo "check_gtkw: $gtkw names $sig, which the model lacks"
    fi
    missing=$((missing + 1))
done < <(grep -v '^[][*@^#-]' "$gtkw" | grep .)
echo "check_gtkw: $n signals named, $missing missing or of another width"
[ "$n" -gt 0 ] && [ "$missing" -eq 0 ]
