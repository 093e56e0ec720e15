#!/usr/bin/env bash
# csv2json.sh FILE.csv [--wrap KEY NAME=VALUE...]: write FILE.csv (a header line,
# then rows; no quoted commas) as JSON with jq: an array with one object per row,
# keyed by the header. A field that is a number becomes a number, an empty
# field null, anything else a string. With --wrap KEY, the array becomes the
# member KEY of an object holding the NAME=VALUE pairs too (same typing).
# Every JSON file of `make bench` is written by this script, never by pasting
# strings, so it always parses (tests/launcher.sh checks).
set -eu
command -v jq >/dev/null || { echo "csv2json: needs jq (make deps installs it)" >&2; exit 1; }
[ $# -ge 1 ] && [ -r "$1" ] || { echo "usage: csv2json.sh FILE.csv [--wrap KEY NAME=VALUE...]" >&2; exit 2; }
csv=$1; shift
rows=$(jq -R -s '
    def typed: if . == "" then null else (tonumber? // .) end;
    split("\n") | map(sub("\r$"; "")) | map(select(length > 0)) | map(split(","))
    | .[0] as $h | .[1:]
    | map(. as $r | reduce range(0; $h | length) as $i ({}; .[$h[$i]] = (($r[$i] // "") | typed)))' "$csv")
if [ "${1:-}" != --wrap ]; then
    printf '%s\n' "$rows"
    exit 0
fi
key=$2; shift 2
args=(--arg key "$key" --argjson rows "$rows")
prog='{}'
i=0
for kv in "$@"; do
    args+=(--arg "k$i" "${kv%%=*}" --arg "v$i" "${kv#*=}")
    prog="$prog | .[\$k$i] = (\$v$i | if . == \"\" then null else (tonumber? // .) end)"
    i=$((i + 1))
done
jq -n "${args[@]}" "$prog | .[\$key] = \$rows"
