# sw/shmem/shmem.mk: skifsim's OpenSHMEM (docs/shmem.md), included by the
# Makefile. make shmem: the library build/lib/libskifshmem.a,
# build/shmem/{bin,include} (oshcc, oshrun, shmem.h, shmemx.h), the examples
# under build/shmem/examples and the test programs under build/tests/shmem.
# make bench-shmem: the figures.
SHMEM_B      := $(B)/shmem
SHMEM_LIB    := $(B)/lib/libskifshmem.a
SHMEM_TOOLS  := $(SHMEM_B)/bin/oshcc $(SHMEM_B)/bin/oshrun $(SHMEM_B)/include/shmem.h \
                $(SHMEM_B)/include/shmemx.h
SHMEM_EXAMPLES := $(patsubst sw/shmem/examples/%.c,$(SHMEM_B)/examples/%,$(wildcard sw/shmem/examples/*.c))
SHMEM_TESTS  := $(patsubst tests/shmem/%.c,$(B)/tests/shmem/%,$(wildcard tests/shmem/*.c))
SHMEM_BENCH  := $(patsubst sw/shmem/bench/%.c,$(SHMEM_B)/bench/%,$(wildcard sw/shmem/bench/*.c))
# programs built by our oshcc, as a user would
SHMEM_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror

.PHONY: shmem bench-shmem
shmem: $(SHMEM_LIB) $(B)/lib/libskif.a $(SHMEM_TOOLS) $(SHMEM_EXAMPLES) $(SHMEM_TESTS) $(SHMEM_BENCH)
test: shmem
C_SOURCES += $(wildcard sw/shmem/*.c sw/shmem/*.h sw/shmem/examples/*.c sw/shmem/bench/*.c tests/shmem/*.c tests/shmem/*.h)

$(SHMEM_LIB): $(call obj,sw/shmem/shmem.c)
	@mkdir -p $(dir $@)
	ar rcs $@ $^

$(SHMEM_B)/include/%.h: sw/shmem/%.h
	@mkdir -p $(dir $@)
	cp $< $@
$(SHMEM_B)/bin/oshcc: sw/wrapcc.in
	@mkdir -p $(dir $@)
	sed $(call wrap_sed,NAME=oshcc A=an WHAT=OpenSHMEM LIB=libskifshmem.a DIR=shmem HDR=shmem.h \
	    CCVAR=OSHCC_CC RUN=oshrun) $< >$@ && chmod +x $@
$(SHMEM_B)/bin/oshrun: sw/wraprun.in
	@mkdir -p $(dir $@)
	sed $(call wrap_sed,NAMES=oshrun A=an WHAT=OpenSHMEM UNIT=PE CC=oshcc DIR=shmem ALONE=0) \
	    -e 's|@ALONE_DOC@|A SHMEM program always runs in the simulator (it needs the adapter).|' \
	    -e 's|@ALONE_USAGE@|-np 1 runs one\nPE on one simulated node.|' $< >$@ && chmod +x $@

$(SHMEM_B)/examples/%: sw/shmem/examples/%.c $(SHMEM_LIB) $(B)/lib/libskif.a $(SHMEM_TOOLS)
	@mkdir -p $(dir $@)
	$(SHMEM_B)/bin/oshcc $(SHMEM_CFLAGS) $< -o $@ -lm
$(SHMEM_B)/bench/%: sw/shmem/bench/%.c $(SHMEM_LIB) $(B)/lib/libskif.a $(SHMEM_TOOLS)
	@mkdir -p $(dir $@)
	$(SHMEM_B)/bin/oshcc $(SHMEM_CFLAGS) $< -o $@ -lm
$(B)/tests/shmem/%: tests/shmem/%.c tests/shmem/shmem_check.h $(SHMEM_LIB) $(B)/lib/libskif.a $(SHMEM_TOOLS)
	@mkdir -p $(dir $@)
	$(SHMEM_B)/bin/oshcc $(SHMEM_CFLAGS) -Iinclude -Idriver $< -o $@ -lm

bench-shmem: deps all shmem
	@sw/shmem/bench/bench.sh
