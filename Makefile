# skifsim: RTL-plus-C co-simulation of the SkifCh torus network adapter.
# `make help` lists the targets. Every output goes under build/.

VERILATOR ?= verilator
IVERILOG  ?= iverilog
CC        ?= cc
CXX       ?= g++
GTKWAVE   ?= gtkwave
NODES     ?= 4            # nodes of the default demo (make sim)

B         := build
# Verilator's headers (svdpi.h); on a fresh machine make deps installs
# Verilator after this line is read, so fall back to Debian's location.
VLT_INC   := $(or $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null),/usr/share/verilator)/include
RTL_FILES := $(shell cat rtl/files.txt 2>/dev/null)
SIM_FILES := sim/hdl/skif_host_shim.sv sim/hdl/skif_sim_top.sv sim/hdl/skif_link_regs.sv sim/hdl/skif_node_top.sv

CFLAGS_BASE := -std=c11
CFLAGS_BASE += -Wall -Wextra -Werror        # warnings are errors
CFLAGS_BASE += -O2 -g                       # optimised, with symbols
CFLAGS_BASE += -MMD -MP                     # dependency files

CFLAGS_BASE += -Iinclude -Idriver -Isw       # contract headers, driver, library
CFLAGS_BASE += -Isim/kernel -Isim/options -Isim/netbench   # simulator headers
CFLAGS_BASE += -I$(VLT_INC) -I$(VLT_INC)/vltstd   # svdpi.h
CFLAGS    ?= $(CFLAGS_BASE)

# Verilator's flags are in sim/tools/build_model.sh; VFLAGS_EXTRA=... adds to them.

SIMLIB_SRC := sim/kernel/kernel.c sim/kernel/hostmem.c sim/kernel/fifo.c sim/options/skif_opts.c sim/kernel/loop.c sim/kernel/ranks_none.c sim/kernel/ranks_text.c \
              sim/kernel/tag_output.c
SKIFLIB_SRC := driver/skif_dev.c driver/backend_sim.c sw/skifch.c sw/skifch_util.c
SKIFLIB_SRC += driver/skif_coll.c sw/coll/tree.c sw/skifcoll.c   # collectives
SKIFLIB_SRC += driver/skif_rma.c   # remote memory access (docs/rma.md, "Driver")
EXAMPLES := greeting alltoall stream msgcost pingpong msgrate bandwidth chanblock coll collbench
TESTPROGS := $(patsubst tests/progs/%.c,%,$(wildcard tests/progs/*.c))
UNITTESTS := $(patsubst tests/unit/%.c,%,$(wildcard tests/unit/*.c))

obj = $(patsubst %.c,$(B)/obj/%.o,$(1))

# Short build lines ("  CC  file"); V=1 shows the full commands.
ifeq ($(V),1)
say :=
else
say = @printf '  %-6s %s\n' $(1) $(2) &&
endif

.PHONY: help deps all sim test test-build lint wave bench bench-sim bench-net bench-net-speed bench-coll bench-scale clean model models check-hw

help:
	@echo "skifsim targets:"
	@echo "  make sim      install what is missing, build, run the greeting demo on $(strip $(NODES)) nodes"
	@echo "                and the RTL testbenches, print a summary"
	@echo "                SIM=icarus: the same under Icarus (4-state, X checks);"
	@echo "                SIM=systemc: the SystemC/TLM-2.0 example platform (DIMS=2x2 for a"
	@echo "                2-D torus; default a ring of NODES)"
	@echo "  make test     the whole suite (ends with 'N passed, N failed')"
	@echo "  make deps     install missing Debian packages (verilator, iverilog, gtkwave, ...)"
	@echo "  make all      build the launcher, libraries, examples and the default model"
	@echo "  make lint     Verilator -Wall lint of the RTL, C header check"
	@echo "  make wave     open the newest waveform in GTKWave (or print the command);"
	@echo "                TRACE=file.fst VIEW=node|host|tx|rx|router|coll choose"
	@echo "  make bench    simulator speed and start-up figures (CSV, JSON, PNG under build/bench)"
	@echo "  make bench-net  torus fabric under synthetic traffic: latency and accepted"
	@echo "                throughput vs offered load (build/bench/net.csv, net-*.png);"
	@echo "                NET=quick (a short sweep), NET=uniform, NET=all (default)"
	@echo "  make bench-net-speed  skifnet's router-cycles per second, today's build (1 and"
	@echo "                2 threads) against an earlier commit's, alternating runs on 8x8"
	@echo "                and 8x8x8 at loads 0.1 and 0.3 (build/bench/net-speed.*);"
	@echo "                NET_REF=commit (default be9800c, the whole-fabric build before"
	@echo "                the one-node model), NET_DIMS, NET_LOADS, NET_REPS"
	@echo "  make bench-coll  collectives: broadcast, allreduce, barrier, hardware against"
	@echo "                software (build/bench/coll.csv, .json, .png)"
	@echo "  make bench-sim  cycles/s of the same run under Verilator (1 and 2 threads),"
	@echo "                Icarus and SystemC, with ratios (build/bench/sim-speed.*)"
	@echo "  make bench-scale  speed, start-up and memory against torus size (2 to 4096"
	@echo "                nodes, idle and all-to-all, 1 and 2 threads, 2 and 4 MPI ranks;"
	@echo "                8x8x8 all-to-all after start-up; every node evaluated on"
	@echo "                64, 512 and 4096 nodes after start-up; instructions and"
	@echo "                data cache lines per node-cycle under callgrind;"
	@echo "                build/bench/scale.*)"
	@echo "  make model MODEL=n3    build the simulator of every 3-D torus (n1..n4: one"
	@echo "                node model per number of dimensions); MODEL=t4x4-icarus: a"
	@echo "                torus under Icarus (one build per size); Verilator models and"
	@echo "                skifnet are built twice, with a training run's profile (GCC PGO):"
	@echo "                SKIF_PGO=0 builds them once, without it"
	@echo "  make install  PREFIX=/usr/local: skifrun, skifcc, libskif.a, headers, skifch.pc,"
	@echo "                the models built so far and the save files (works outside the tree)"
	@echo "  make clean    remove build/"
	@echo "  V=1           show the full compile commands (default: one short line each)"

deps:
	@sim/tools/deps.sh

# ------------------------------------------------------------------ C
$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<) $(CC) $(CFLAGS) -c $< -o $@

$(B)/lib/libskifsim.a: $(call obj,$(SIMLIB_SRC))
	@mkdir -p $(dir $@)
	$(call say,AR,$@) ar rcs $@ $^

$(B)/lib/libskif.a: $(call obj,$(SKIFLIB_SRC))
	@mkdir -p $(dir $@)
	$(call say,AR,$@) ar rcs $@ $^

$(B)/bin/skif_flitdec: $(call obj,sim/tools/skif_flitdec.c)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@) $(CC) $^ -o $@

# build/bin/skif_dims: the torus shape of a build tag, for the build scripts
# (sim/tools/build_model.sh, sim/systemc/verilate.sh and run.sh).
$(B)/bin/skif_dims: $(call obj,sim/tools/skif_dims.c sim/options/skif_opts.c)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@) $(CC) $^ -o $@

# build/bin/skif_handover: a program hand-over's cost on this machine without
# the simulator (make bench-scale states it beside its sustained rows).
$(B)/bin/skif_handover: $(call obj,sim/tools/skif_handover.c)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@) $(CC) $^ -o $@

$(B)/bin/skifrun: $(call obj,sim/launcher/skifrun.c sim/options/skif_opts.c)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@) $(CC) $^ -o $@

$(B)/bin/%: $(B)/obj/sw/examples/%.o $(B)/lib/libskif.a
	@mkdir -p $(dir $@)
	$(call say,LINK,$@) $(CC) $^ -o $@

$(B)/bin/%: $(B)/obj/sw/bench/%.o $(B)/lib/libskif.a
	@mkdir -p $(dir $@)
	$(call say,LINK,$@) $(CC) $^ -o $@

$(B)/tests/%: $(B)/obj/tests/progs/%.o $(B)/lib/libskif.a
	@mkdir -p $(dir $@)
	$(call say,LINK,$@) $(CC) $^ -o $@

$(B)/unit/%: tests/unit/%.c $(SIMLIB_SRC) $(SKIFLIB_SRC)
	@mkdir -p $(dir $@)
	$(call say,CC,$@) $(CC) $(CFLAGS) -O1 -fsanitize=address,undefined -fno-omit-frame-pointer \
	    $< -o $@

# skif::Parts (the threads of skifsim and skifnet) under ThreadSanitizer
$(B)/unit/test_parts: tests/unit/test_parts.cpp sim/kernel/parts.h
	@mkdir -p $(dir $@)
	$(call say,CXX,$@) $(CXX) -std=c++17 -O1 -g -Wall -Wextra -Werror -fsanitize=thread -Isim/kernel \
	    $< -o $@ -pthread

# ------------------------------------------------------------------ models
# One model make at a time: runs started together on a model not yet built
# (skifrun calls this) would otherwise build its shared prerequisites (the VPI
# module, build/bin/skif_dims and their objects) side by side and link half-
# written objects. build_model.sh's own lock then makes the waiting runs use
# the model the first one built.
model:
	@test -n "$(MODEL)" || { echo "make model: give MODEL=n1..n4 or tDIMS-icarus, e.g. n3 or t8-icarus" >&2; exit 2; }
	@mkdir -p $(B)/models
	@case "$(MODEL)" in *-icarus) flock $(B)/models/.make.lock $(MAKE) -s $(B)/models/$(MODEL)/skifsim.vvp;; \
	    *) flock $(B)/models/.make.lock $(MAKE) -s $(B)/models/$(MODEL)/skifsim $(call MPI_MODEL,$(MODEL));; esac

# build/models/nD/skifsim: the simulator of every torus of D dimensions
# (D = 1..4): one Verilated model per node, built once (sim/tools/build_model.sh).
MODEL_DEPS := $(RTL_FILES) $(SIM_FILES) sim/hdl/skif_dpi.svh rtl/skif_defs.vh sim/tools/build_model.sh sim/tools/build_progress.sh sim/hdl/sim.vlt sim/hdl/fast.f
$(B)/models/%/skifsim: $(MODEL_DEPS) sim/kernel/sim_main.cpp sim/kernel/node_links.h sim/kernel/parts.h $(B)/lib/libskifsim.a \
                      | $(B)/bin/alltoall $(B)/bin/coll $(B)/bin/stream
	@VFLAGS_EXTRA="$(VFLAGS_EXTRA)" sim/tools/build_model.sh $*

# build/models/nD/skifsim-mpi: the same simulator on MPI (skifrun --ranks K,
# sim/kernel/ranks.h), linked from the same objects with sim/kernel/ranks_mpi.c in place
# of ranks_none.c, when Debian's Open MPI (or else MPICH) is installed (make
# deps installs Open MPI; without it, --ranks says what to install). Next to
# it, skifsim-mpi.launcher names the mpiexec of that MPI, for skifrun.
MPI_PC  := $(shell pkg-config --exists ompi-c 2>/dev/null && echo ompi-c || \
                   { pkg-config --exists mpich 2>/dev/null && echo mpich; })
MPIEXEC := $(if $(filter ompi-c,$(MPI_PC)),mpiexec.openmpi,$(if $(MPI_PC),mpiexec.mpich))
MPI_MODEL = $(if $(MPI_PC),$(B)/models/$(1)/skifsim-mpi)
$(B)/obj/sim/kernel/ranks_mpi.o: sim/kernel/ranks_mpi.c sim/kernel/ranks.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<) $(CC) $(CFLAGS) $(shell pkg-config --cflags $(MPI_PC)) -c $< -o $@

$(B)/models/%/skifsim-mpi: $(B)/models/%/skifsim $(B)/obj/sim/kernel/ranks_mpi.o
	$(call say,LINK,$@) $(CXX) -pthread $(@D)/obj/sim_main.o $(@D)/obj/verilated*.o \
	    $(@D)/obj/Vskif_node_top__ALL.a $(B)/obj/sim/kernel/ranks_mpi.o $(B)/lib/libskifsim.a -lz \
	    $(shell pkg-config --libs $(MPI_PC)) -o $@.tmp && mv -f $@.tmp $@
	@echo $(MPIEXEC) >$@.launcher

# build/vpi/skif.vpi: the kernel as a VPI module for vvp (Icarus path).
VPI_SRC := sim/kernel/vpi_main.c sim/kernel/kernel.c sim/kernel/hostmem.c sim/kernel/fifo.c sim/options/skif_opts.c sim/kernel/ranks_none.c \
           sim/kernel/ranks_text.c sim/kernel/tag_output.c
$(B)/vpi/skif.vpi: $(VPI_SRC) $(wildcard sim/kernel/*.h sim/options/*.h include/*.h driver/*.h)
	@mkdir -p $(dir $@)
	$(call say,CC,$@) $(CC) $(CFLAGS) -fPIC -shared -I/usr/include/iverilog $(VPI_SRC) \
	    -L/usr/lib/x86_64-linux-gnu -lveriuser -lvpi -o $@

# build/models/TAG-icarus/skifsim.vvp: the same network under Icarus.
$(B)/models/%-icarus/skifsim.vvp: $(MODEL_DEPS) sim/hdl/skif_icarus_top.sv $(B)/vpi/skif.vpi \
                                  $(B)/bin/skif_dims
	@sim/tools/build_model.sh $*-icarus

# build/netbench/nD[-vN][-dD][-prev]/skifnet: the torus fabric alone under
# synthetic traffic, any torus of D dimensions (--dims), one node model per
# node; -vN -dD build a router variant (VCs per class, VC depth), -prev the
# router before the throughput work (docs/router.md).
$(B)/lib/libskifnet.a: $(call obj,sim/netbench/netbench.c sim/kernel/fifo.c sim/options/skif_opts.c)
	@mkdir -p $(dir $@)
	$(call say,AR,$@) ar rcs $@ $^

$(B)/netbench/%/skifnet: $(RTL_FILES) rtl/skif_defs.vh sim/netbench/netbench_main.cpp sim/kernel/node_links.h sim/kernel/parts.h \
                        sim/hdl/skif_link_regs.sv sim/hdl/skif_fabric_node_top.sv sim/hdl/fast.f $(B)/lib/libskifnet.a sim/tools/build_netbench.sh \
                        sim/tools/build_progress.sh
	@sim/tools/build_netbench.sh $*

all: $(B)/bin/skifrun $(B)/bin/skif_dims $(B)/bin/skif_flitdec $(B)/bin/skif_handover $(B)/lib/libskif.a $(addprefix $(B)/bin/,$(EXAMPLES)) \
     $(B)/models/n1/skifsim $(B)/bin/skifcc $(B)/lib/pkgconfig/skifch.pc

include sim/launcher/install.mk

# ------------------------------------------------------------------ main jobs
SIM ?= verilator   # make sim SIM=verilator|icarus|systemc
DIMS ?=            # SIM=systemc: torus dimensions (e.g. 2x2; default: a ring of NODES)
SC_RUN_DIMS = $(or $(strip $(DIMS)),$(strip $(NODES)))
include sim/systemc/Makefile.inc

sim: deps all
	@case "$(strip $(SIM))" in \
	    verilator|icarus) sim/tools/demo.sh $(strip $(NODES)) $(strip $(SIM));; \
	    systemc) $(MAKE) -s systemc SC_DIMS=$(SC_RUN_DIMS) && \
	             sim/systemc/run.sh --dims $(SC_RUN_DIMS) --messages 100;; \
	    *) echo "make sim: SIM='$(strip $(SIM))' is not one of verilator, icarus, systemc" >&2; \
	       echo "usage: make sim [SIM=verilator|icarus|systemc] [NODES=N] [DIMS=XxY (systemc)]" >&2; exit 2;; \
	esac

TEST_MODELS := $(foreach t,n1 n2 n3,$(B)/models/$(t)/skifsim $(call MPI_MODEL,$(t))) \
               $(foreach d,n1 n2 n3 n4,$(B)/netbench/$(d)/skifnet $(B)/netbench/$(d)-prev/skifnet) \
               $(B)/models/t2-icarus/skifsim.vvp $(B)/models/t3-icarus/skifsim.vvp \
               $(B)/models/t2x2-icarus/skifsim.vvp \
               $(foreach t,n1 n2,$(B)/systemc/$(t)/skif_sc_platform)

# The models build side by side, one per core (Verilator itself is
# single-threaded); then tests/run.sh runs the suite.
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
test: deps
	@$(MAKE) --no-print-directory -j$(JOBS) test-build
	@tests/run.sh

test-build: all $(addprefix $(B)/tests/,$(TESTPROGS)) $(addprefix $(B)/unit/,$(UNITTESTS) test_parts) \
            $(TEST_MODELS)

C_SOURCES := $(wildcard sim/*/*.c sim/*/*.h sim/*/*.cpp driver/*.c driver/*.h sw/*.c sw/*.h sw/coll/*.[ch] \
              sw/examples/*.c sw/bench/*.c tests/progs/*.c tests/progs/*.h tests/unit/*.c tests/unit/*.cpp) \
             $(filter-out include/skif_hw.h,$(wildcard include/*.h))

lint: check-hw
	$(VERILATOR) --lint-only -Wall -Irtl rtl/lint.vlt $(RTL_FILES) --top-module skif_torus_net
	clang-format --dry-run --Werror $(C_SOURCES) && echo "clang-format: clean"

check-hw:
	@awk -f sim/tools/gen_hw_h.awk rtl/skif_defs.vh | diff -u include/skif_hw.h - \
	    && echo "include/skif_hw.h matches rtl/skif_defs.vh"

# Regenerated when its source is newer, but replaced only when the content
# differs: on a fresh clone (any checkout order of the two files) the header
# keeps its time and nothing built from it is rebuilt.
# (The temporary file is per process: makes run side by side must not write
# one file, or one of them sees it half written and replaces the header.)
include/skif_hw.h: rtl/skif_defs.vh sim/tools/gen_hw_h.awk
	@t=$@.tmp.$$$$; awk -f sim/tools/gen_hw_h.awk $< > $$t && \
	    if cmp -s $$t $@; then rm -f $$t; else mv -f $$t $@; echo "generated $@"; fi

wave:   # make wave [TRACE=file.fst] [VIEW=node|host|tx|rx|router|coll]
	@sim/tools/wave.sh "$(TRACE)" "$(VIEW)"

bench: deps all
	@sw/bench/run.sh

bench-sim: deps all
	@sw/bench/sim_speed.sh

bench-coll: deps all
	@sw/bench/coll.sh

bench-scale: deps all   # make bench-scale [SCALE_DIMS="2 4x4x4" SCALE_THREADS="1 2" SCALE_SUSTAIN="4x4x4 8x8x8" SCALE_EVAL="4x4x4" SCALE_CPU=0]
	@sw/bench/scale.sh

bench-net: deps all   # make bench-net [NET=all|uniform|quick]
	@sw/bench/net.sh $(NET)

bench-net-speed: deps all   # make bench-net-speed [NET_REF=be9800c NET_DIMS="8x8 8x8x8" NET_LOADS="0.1 0.3" NET_REPS=3]
	@sw/bench/net_speed.sh

clean:
	rm -rf $(B)

# wrap_sed,KEY=VALUE ...: sed's -e for each @KEY@ of sw/wrapcc.in and
# sw/wraprun.in (the compiler and launcher wrappers of MPI and OpenSHMEM)
wrap_sed = $(foreach kv,$(1),-e 's|@$(word 1,$(subst =, ,$(kv)))@|$(word 2,$(subst =, ,$(kv)))|g')
include sw/mpi/mpi.mk   # MPI over SkifCh (docs/mpi.md)
include sw/shmem/shmem.mk   # OpenSHMEM on the RMA engine (docs/shmem.md)

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
.SECONDARY:
