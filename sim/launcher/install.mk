# sim/launcher/install.mk: the compiler wrapper, the pkg-config file and `make install`
# (included by the Makefile).
#
# make install [PREFIX=/usr/local] [DESTDIR=]: installs
#   PREFIX/bin/                      skifrun, skifcc, skif_flitdec
#   PREFIX/lib/                      libskif.a, pkgconfig/skifch.pc
#   PREFIX/include/skifsim/          skifch.h, skifch_util.h, skif_dev.h, skif_hw.h
#   PREFIX/libexec/skifsim/models/   every model built so far (at least the default one),
#                                    with its MPI build (skifsim-mpi) when there is one
#   PREFIX/libexec/skifsim/vpi/      the Icarus VPI kernel (when built)
#   PREFIX/libexec/skifsim/examples/ the example programs
#   PREFIX/share/skifsim/gtkw/       the node-0 GTKWave save files
# An installed skifrun finds its models next to itself and cannot build new
# ones: build each network it should run (make model MODEL=n2) before
# installing.

PREFIX  ?= /usr/local
DESTDIR ?=
SKIF_VERSION := $(shell sed -n 's/^\#define SKIF_SIM_VERSION "\(.*\)".*/\1/p' sim/options/skif_opts.h)
INSTALL_HEADERS := sw/skifch.h sw/skifch_util.h driver/skif_dev.h include/skif_hw.h

$(B)/bin/skifcc: sim/launcher/skifcc.sh
	@mkdir -p $(dir $@)
	cp $< $@ && chmod +x $@

# skifch.pc for the source tree (make install writes one for PREFIX)
$(B)/lib/pkgconfig/skifch.pc: sim/tools/gen_pc.sh sim/options/skif_opts.h
	@mkdir -p $(dir $@)
	sim/tools/gen_pc.sh "$(CURDIR)" sw build/lib '-I$${prefix}/sw -I$${prefix}/driver -I$${prefix}/include' "$(SKIF_VERSION)" >$@

.PHONY: install
install: all $(B)/bin/skifcc $(B)/lib/pkgconfig/skifch.pc
	@test -n "$(strip $(PREFIX))" || { echo "make install: PREFIX is empty" >&2; exit 2; }
	@set -e; D="$(DESTDIR)$(strip $(PREFIX))"; \
	echo "installing into $$D"; \
	install -d "$$D/bin" "$$D/lib/pkgconfig" "$$D/include/skifsim" \
	    "$$D/libexec/skifsim/models" "$$D/libexec/skifsim/examples" "$$D/share/skifsim/gtkw"; \
	install -m 755 $(B)/bin/skifrun $(B)/bin/skifcc $(B)/bin/skif_flitdec "$$D/bin/"; \
	install -m 644 $(B)/lib/libskif.a "$$D/lib/"; \
	install -m 644 $(INSTALL_HEADERS) "$$D/include/skifsim/"; \
	install -m 644 sim/tools/gtkw/*.gtkw "$$D/share/skifsim/gtkw/"; \
	install -m 755 $(addprefix $(B)/bin/,$(EXAMPLES)) "$$D/libexec/skifsim/examples/"; \
	for m in $(B)/models/*/skifsim $(B)/models/*/skifsim.vvp; do \
	    [ -f "$$m" ] || continue; t=$$(basename $$(dirname $$m)); \
	    install -d "$$D/libexec/skifsim/models/$$t"; \
	    install -m 755 "$$m" "$$D/libexec/skifsim/models/$$t/"; \
	    if [ -f "$$m-mpi" ] && [ -f "$$m-mpi.launcher" ]; then \
	        install -m 755 "$$m-mpi" "$$D/libexec/skifsim/models/$$t/"; \
	        install -m 644 "$$m-mpi.launcher" "$$D/libexec/skifsim/models/$$t/"; fi; \
	    echo "  model $$t"; \
	done; \
	if [ -f $(B)/vpi/skif.vpi ]; then install -d "$$D/libexec/skifsim/vpi"; \
	    install -m 755 $(B)/vpi/skif.vpi "$$D/libexec/skifsim/vpi/"; fi
	@sim/tools/gen_pc.sh "$(strip $(PREFIX))" include/skifsim lib '-I$${includedir}' "$(SKIF_VERSION)" \
	    >"$(DESTDIR)$(strip $(PREFIX))/lib/pkgconfig/skifch.pc"
	@echo "installed: run $(strip $(PREFIX))/bin/skifrun; compile with skifcc or pkg-config skifch"
