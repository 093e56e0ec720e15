# gen_hw_h.awk: turn the `define lines of rtl/skif_defs.vh into C #defines.
# Usage: awk -f sim/tools/gen_hw_h.awk rtl/skif_defs.vh > include/skif_hw.h
BEGIN {
    print "/* SPDX-License-Identifier: Apache-2.0 */"
    print "/* skif_hw.h: adapter register, packet and ring formats for C."
    print " * GENERATED from rtl/skif_defs.vh by sim/tools/gen_hw_h.awk; do not edit."
    print " * `make test` checks that this file matches its source. */"
    print "#ifndef SKIF_HW_H"
    print "#define SKIF_HW_H"
    print ""
}
/^`define SKIF_DEFS_VH/ { next }
/^`define [A-Za-z_0-9]+\(/ { next }  # macros with arguments are Verilog-only
/^`define / {
    name = $2; val = $3
    comment = ""
    i = index($0, "//")
    if (i > 0) comment = substr($0, i + 2)
    gsub(/^ +| +$/, "", comment)
    if (val ~ /'h/) { sub(/^[0-9]*'h/, "", val); val = "0x" val "u" }
    else if (val ~ /'d/) { sub(/^[0-9]*'d/, "", val); val = val "u" }
    else if (val ~ /'b/) { print "#error unsupported binary literal in " name; next }
    else val = val "u"
    if (comment != "") printf "#define %-24s %-12s /* %s */\n", name, val, comment
    else printf "#define %-24s %s\n", name, val
}
END {
    print ""
    print "#endif /* SKIF_HW_H */"
}
