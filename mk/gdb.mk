# mk/gdb.mk: debugging the kernel with GDB (included by the Makefile).
# Owns make qemu-gdb, make gdb, the generated .gdbinit and GDBPORT; the
# helper commands are tools/gdb/vellum.py, the session is described in
# docs/getting-started.md ("The debug loop").
#
#   make qemu-gdb   QEMU paused before the first instruction (-S), its gdb
#                   stub on 127.0.0.1:PORT; writes .gdbinit
#                   (tools/gdb/mkgdbinit.sh: symbols, helpers, then attach).
#                   Run through tools/qemu.sh, as make qemu: a QEMU that
#                   cannot start (the disk held by another QEMU, the port
#                   taken) fails the target with QEMU's message
#   make gdb        in a second terminal: gdb with that .gdbinit
#                   (gdb -iex 'add-auto-load-safe-path .../.gdbinit': no
#                   auto-load warnings, and your ~/.gdbinit still runs)
#   GDBPORT=N       the port (make qemu-gdb GDBPORT=1234); by default
#                   tools/gdb/gdbport.sh's: 26000 + a hash of uid and checkout
#                   path, mod 5000, skipping a port something listens on
#   DEBUG=1         the kernels built with -Og into $(BUILD)/debug/ (the
#                   Makefile), so arguments and locals are not <optimized out>
#   TEST_KERNEL=1   the test kernel (APPEND=test=SUITE picks its suite)
#   CPUS=N          the guest's CPUs: one by default here (make qemu's is
#                   two), so that GDB stops as the lab walkthroughs show
#                   ("Breakpoint 1, ..."; with several CPUs each is a GDB
#                   thread and GDB says "Thread 1 hit Breakpoint 1, ...")
#
# The default port is computed once, when first used, and only by qemu-gdb (the
# probe would skip the port of a QEMU already running); `make gdb` reads the
# port from .gdbinit.

GDB_KERNEL = $(if $(TEST_KERNEL),$(TKERNEL),$(KERNEL))
# GDB_PORT: GDBPORT if set and not empty, else the script's choice (once).
GDB_PORT = $(eval GDB_PORT := $(or $(strip $(GDBPORT)),$(shell bash tools/gdb/gdbport.sh $(CURDIR))))$(GDB_PORT)
GDB_SAFE_PATH = add-auto-load-safe-path $(CURDIR)/.gdbinit

qemu-gdb: CPUS = 1

ifneq ($(VELLUM_SETUP_DONE),)
qemu-gdb: $(GDB_KERNEL)
	@sh tools/gdb/mkgdbinit.sh $(GDB_KERNEL) 127.0.0.1:$(GDB_PORT) > .gdbinit
	@echo "*** wrote .gdbinit: symbols from $(GDB_KERNEL), the lx-* helpers, port $(GDB_PORT)"
	@echo "*** QEMU is paused with a gdb stub on 127.0.0.1:$(GDB_PORT). In another terminal,"
	@echo "*** in this directory:  make gdb"
	@echo "*** (or: gdb -iex '$(GDB_SAFE_PATH)'; to let plain 'gdb' load"
	@echo "***  it, add that line, without -iex, to ~/.config/gdb/gdbinit)"
	@bash tools/qemu.sh $(QEMU) $(QEMUOPTS) -serial mon:stdio -display none -S -gdb tcp:127.0.0.1:$(GDB_PORT)
endif

gdb:
	@test -f .gdbinit || { echo "gdb: no .gdbinit here: run make qemu-gdb (in another terminal) first"; exit 1; }
	gdb -q -iex '$(GDB_SAFE_PATH)'

.PHONY: qemu-gdb gdb
