# sw/mpi/mpi.mk: skifsim's MPI (docs/mpi.md), included by the Makefile.
# make mpi: the library build/lib/libskifmpi.a, build/mpi/{bin,include}
# (mpicc, mpirun, mpiexec, mpi.h), the examples under build/mpi/examples and
# the test programs under build/tests/mpi. make bench-mpi: the figures.
MPI_B      := $(B)/mpi
MPI_LIB    := $(B)/lib/libskifmpi.a
MPI_TOOLS  := $(MPI_B)/bin/mpicc $(MPI_B)/bin/mpirun $(MPI_B)/bin/mpiexec $(MPI_B)/include/mpi.h
MPI_EXAMPLES := $(patsubst sw/mpi/examples/%.c,$(MPI_B)/examples/%,$(wildcard sw/mpi/examples/*.c))
MPI_TESTS  := $(patsubst tests/mpi/%.c,$(B)/tests/mpi/%,$(wildcard tests/mpi/*.c))
MPI_BENCH  := $(patsubst sw/mpi/bench/%.c,$(MPI_B)/bench/%,$(wildcard sw/mpi/bench/*.c))
# programs built by our mpicc, as a user would
MPI_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror

.PHONY: mpi bench-mpi
mpi: $(MPI_LIB) $(B)/lib/libskif.a $(MPI_TOOLS) $(MPI_EXAMPLES) $(MPI_TESTS) $(MPI_BENCH)
test: mpi
C_SOURCES += $(wildcard sw/mpi/*.c sw/mpi/*.h sw/mpi/examples/*.c sw/mpi/bench/*.c tests/mpi/*.c)

$(MPI_LIB): $(call obj,sw/mpi/mpi.c)
	@mkdir -p $(dir $@)
	ar rcs $@ $^

$(MPI_B)/include/mpi.h: sw/mpi/mpi.h
	@mkdir -p $(dir $@)
	cp $< $@
$(MPI_B)/bin/mpicc: sw/wrapcc.in
	@mkdir -p $(dir $@)
	sed $(call wrap_sed,NAME=mpicc A=an WHAT=MPI LIB=libskifmpi.a DIR=mpi HDR=mpi.h \
	    CCVAR=MPICC_CC RUN=mpirun) $< >$@ && chmod +x $@
$(MPI_B)/bin/mpirun $(MPI_B)/bin/mpiexec: sw/wraprun.in
	@mkdir -p $(dir $@)
	sed $(call wrap_sed,NAMES=mpirun/mpiexec A=an WHAT=MPI UNIT=rank CC=mpicc DIR=mpi ALONE=1) \
	    -e 's|@ALONE_DOC@|With one rank the program runs alone, without the simulator (a singleton).|' \
	    -e 's|@ALONE_USAGE@|-np 1 runs the\nprogram alone, outside the simulator.|' $< >$@ && chmod +x $@

$(MPI_B)/examples/%: sw/mpi/examples/%.c $(MPI_LIB) $(B)/lib/libskif.a $(MPI_TOOLS)
	@mkdir -p $(dir $@)
	$(MPI_B)/bin/mpicc $(MPI_CFLAGS) $< -o $@ -lm
$(MPI_B)/bench/%: sw/mpi/bench/%.c $(MPI_LIB) $(B)/lib/libskif.a $(MPI_TOOLS)
	@mkdir -p $(dir $@)
	$(MPI_B)/bin/mpicc $(MPI_CFLAGS) -Isw $< -o $@ -lm
$(B)/tests/mpi/%: tests/mpi/%.c $(MPI_LIB) $(B)/lib/libskif.a $(MPI_TOOLS)
	@mkdir -p $(dir $@)
	$(MPI_B)/bin/mpicc $(MPI_CFLAGS) $< -o $@ -lm

bench-mpi: deps all mpi
	@sw/mpi/bench/bench.sh
