# dims.sh: the shape of a torus (a --dims value such as 8x8x8), for the bench
# scripts, which source it. Every answer comes from build/bin/skif_dims, the
# project's one --dims parser (sim/options/skif_opts.c), so no script parses
# a shape itself; build/bin/skif_dims is built by `make all`.

# dims_check WHO NAME D...: exit 2 with skif_dims' message, naming the setting
# NAME, if any D is not a torus shape
dims_check() {
    local who=$1 name=$2 d err
    shift 2
    for d in "$@"; do
        err=$(build/bin/skif_dims "$d" 2>&1 >/dev/null) ||
            { echo "$who: $name: ${err#skif_dims: }" >&2; exit 2; }
    done
}
# dims_nd D: its number of dimensions
dims_nd() { local s; read -r -a s <<<"$(build/bin/skif_dims "$1")" && echo "${s[0]}"; }
# dims_nodes D: its number of nodes
dims_nodes() { local s; read -r -a s <<<"$(build/bin/skif_dims "$1")" && echo $((s[1] * s[2] * s[3] * s[4])); }
# netbench_of D [TREE [VARIANT]]: the skifnet (sim/netbench) that simulates D,
# the one built for its number of dimensions, in the source tree TREE
# (default .); VARIANT "prev": the build with the router before the
# throughput work
netbench_of() { echo "${2:-.}/build/netbench/n$(dims_nd "$1")${3:+-$3}/skifnet"; }
