#!/usr/bin/env bash
# check_gtkw.sh SAVEFILE TRACE.fst: every signal the GTKWave save file names
# must exist in the trace; prints each missing one and fails.
set -u
gtkw=$1 fst=$2
vars=$(mktemp)
fst2vcd "$fst" 2>/dev/null | awk '/\$scope/{s[++d]=$3} /\$upscope/{d--}
    /\$var/{p=""; for(i=1;i<=d;i++) p=p s[i] "."; print p $5}' | sort -u >"$vars"
[ -s "$vars" ] || { echo "check_gtkw: cannot read $fst"; rm -f "$vars"; exit 1; }
missing=0; n=0
while read -r sig; do
    base=$(echo "$sig" | sed -E 's/\[[0-9]+:[0-9]+\]$//')
    n=$((n + 1))
    grep -qxF -- "$base" "$vars" || { echo "check_gtkw: $gtkw names $sig, which the model lacks"; missing=$((missing + 1)); }
done < <(grep '^TOP\.' "$gtkw")
rm -f "$vars"
echo "check_gtkw: $n signals named, $missing missing"
[ "$n" -gt 0 ] && [ "$missing" -eq 0 ]
