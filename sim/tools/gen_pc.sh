#!/usr/bin/env bash
# gen_pc.sh PREFIX INCLUDEDIR LIBDIR CFLAGS VERSION: print skifch.pc, the
# pkg-config file of the SkifCh library (INCLUDEDIR, LIBDIR relative to
# PREFIX; CFLAGS may use ${includedir} and ${prefix}). Used by sim/launcher/install.mk.
set -eu
[ $# -eq 5 ] || { echo "usage: gen_pc.sh PREFIX INCLUDEDIR LIBDIR CFLAGS VERSION" >&2; exit 2; }
cat <<PC
prefix=$1
includedir=\${prefix}/$2
libdir=\${prefix}/$3

Name: skifch
Description: SkifCh message passing over the skifsim network adapter model
Version: $5
Cflags: $4
Libs: -L\${libdir} -lskif
PC
