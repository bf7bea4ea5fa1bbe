# mk/run.mk: running, debugging and testing Vellum (included by the Makefile).
#
#   make qemu       boot the production kernel ($(KERNEL)) in QEMU: a window
#                   plus serial on this terminal when $DISPLAY is set, else
#                   like qemu-nox   (Ctrl-A x quits)
#   make qemu-nox   serial console on this terminal, no display
#   make qemu-test  boot the test kernel ($(TKERNEL)) the same way, serial
#                   on this terminal: APPEND=test=page_alloc runs a suite,
#                   APPEND=oops=bug shows an oops (kernel/oops_test.c);
#                   TEST_KERNEL=1 makes qemu, qemu-nox, qemu-gdb and gdb
#                   use the test kernel too
#   make qemu-gdb   QEMU paused with a gdb stub, and make gdb: mk/gdb.mk
#   make bochs      boot the ISO under Bochs to the shell on the run disk
#                   (tools/bochs.sh: VGA and keyboard in this terminal,
#                   headless without one; serial in $(BUILD)/bochs-serial.log)
#   make check      install missing tools, build both kernels, run
#                   tools/run-tests: the kernel suites on the test kernel,
#                   each on 1 CPU and again on SMP_CPUS (4; SMP_CPUS= for
#                   none), the host tests (SUITES="page_alloc oops" runs
#                   only those, once)
#   make bench      the benchmarks (docs/benchmarks.md): first the user-space
#                   benchmark booted as init on the production kernel
#                   (tools/ubench.sh: instructions per KiB, 1 KiB and 4 KiB
#                   blocks, and the scaling row: N writers at -smp N, N = 1,
#                   2, 4), then the in-kernel ones
#                   (tools/bench.sh, on the test kernel: the production one
#                   has no benchmarks): bench=all under -icount shift=0 twice,
#                   checks the figures repeat exactly and stay within
#                   BENCH_TOL% (10) of tools/bench-baseline.txt
#   make bench-linux  the user-space benchmark on Vellum and on Debian's Linux
#                   in the same QEMU, one table with the ratio (the packages
#                   are fetched once into ~/.cache/vellum); = make bench LINUX=1
#   make conformance  the differential conformance suite (user/conform,
#                   tools/conform.sh, docs/conformance.md) on Vellum against
#                   the committed Linux outputs (make check runs it too)
#   make conformance-linux  the same programs on Debian's Linux: the
#                   committed outputs must still be Linux's (UPDATE=1
#                   rewrites them)
#   make handouts   the lab handouts' pasted grades, consoles and GDB walks
#                   against real runs (tools/handout-runs; UPDATE=1 rewrites
#                   them): every lab's trees cut, built and graded.  make
#                   check runs the same runs, each lab's in its slice of
#                   the host test labs, on the skeleton that slice grades
#
# Variables: QEMUFLAGS (extra QEMU options), APPEND (extra kernel command
# line), DISKS (raw disk images, attached as IDE hda, hdb, ... in order),
# CPUS (QEMU's -smp: the CPUs the guest gets, default 2, make qemu-gdb's 1:
# mk/gdb.mk; docs/smp.md.  make check's boots take CPUS from the environment
# instead, default 1: tools/testlib.sh).
#
# Every target that needs the tools first runs tools/setup.sh, then re-runs
# make: the Makefile asks the compiler for libgcc's path when it is parsed,
# which on a fresh machine happens before the compiler is installed.

QEMU      := qemu-system-i386
CPUS      ?= 2
UBENCH    := $(BUILD)/user/bench/ubench   # the user-space benchmark (mk/userbench.mk)
TEST_ISO  := $(KBUILD)/vellum-test.iso
# Each image in DISKS becomes an IDE disk, index 0 (hda), 1 (hdb), ...
# The kernel QEMU boots: the production one, or with TEST_KERNEL=1 (and
# for qemu-test) the test kernel, e.g. make qemu-gdb TEST_KERNEL=1 APPEND=test=uaccess
QEMU_KERNEL = $(if $(TEST_KERNEL),$(TKERNEL),$(KERNEL))
DISK_ARGS  = $(shell i=0; for d in $(DISKS); do printf -- '-drive file=%s,format=raw,if=ide,index=%d ' $$d $$i; i=$$((i+1)); done)
QEMUOPTS   = -accel tcg -no-reboot -m 128M -smp $(CPUS) -kernel $(QEMU_KERNEL) -append "$(strip $(ROOT_APPEND) $(APPEND))" \
	     -device isa-debug-exit,iobase=0xf4,iosize=0x04 $(DISK_ARGS) $(QEMUFLAGS)

NEEDS_SETUP := qemu qemu-nox qemu-test qemu-gdb bochs check bench bench-linux busybox \
	       conformance conformance-linux handouts

ifeq ($(VELLUM_SETUP_DONE),)
# First pass: make sure the tools exist, then start over with them.
$(NEEDS_SETUP):
	@sh tools/setup.sh
	@$(MAKE) --no-print-directory -j2 VELLUM_SETUP_DONE=1 $@
else

# tools/qemu.sh tells how QEMU ended: a QEMU that did not start fails the
# target with QEMU's message; the test kernel's "tests passed" (status 1)
# does not.
qemu: $(QEMU_KERNEL)
ifneq ($(DISPLAY),)
	@bash tools/qemu.sh $(QEMU) $(QEMUOPTS) -serial mon:stdio
else
	@bash tools/qemu.sh $(QEMU) $(QEMUOPTS) -serial mon:stdio -display none
endif

qemu-nox: $(QEMU_KERNEL)
	@bash tools/qemu.sh $(QEMU) $(QEMUOPTS) -serial mon:stdio -display none

qemu-test: TEST_KERNEL = 1
qemu-test: $(TKERNEL)
	@bash tools/qemu.sh $(QEMU) $(QEMUOPTS) -serial mon:stdio -display none

# Bochs boots the ISO (GRUB's first entry: root=hda) with the first disk of
# DISKS (the run disk make qemu boots) as hda.  tools/bochs.sh picks the
# display when Bochs starts: this terminal (term) when there is one.  One
# CPU, unless CPUS is given (make bochs CPUS=4): Bochs runs its CPUs in
# turns, each as slow as the one.
BOCHS_CPUS = $(if $(filter command line environment,$(origin CPUS)),$(CPUS),1)
bochs: $(ISO)
	@echo "*** Bochs: $(ISO) with $(firstword $(DISKS)) as hda, $(BOCHS_CPUS) CPU(s); serial output also goes to $(BUILD)/bochs-serial.log."
	@echo "*** Quit: poweroff at the shell prompt, or Ctrl-] to quit Bochs at once."
	@BOCHS_CPUS=$(BOCHS_CPUS) tools/bochs.sh $(ISO) $(firstword $(DISKS)) file:$(BUILD)/bochs-serial.log

# The SMP pass: a whole make check only (SUITES=... runs what it names once).
SMP_CPUS ?= $(if $(SUITES),,4)
check: all $(TKERNEL) $(TEST_ISO)
	$(Q)BUILD=$(BUILD) SMP_CPUS=$(SMP_CPUS) tools/run-tests $(SUITES)

# The user-space benchmark (tools/ubench.sh), then the in-kernel benchmarks
# against the committed baseline (tools/bench.sh).  LINUX=1: the side-by-side
# table with Debian's Linux instead.
ifneq ($(LINUX),)
bench: bench-linux
else
bench: $(KERNEL) $(TKERNEL) $(UBENCH)
	@BUILD=$(BUILD) KERNEL=$(KERNEL) UBENCH=$(UBENCH) bash tools/ubench.sh --scale
	@BUILD=$(BUILD) bash tools/bench.sh $(TKERNEL) --tol $(or $(BENCH_TOL),10)
endif
bench-linux: $(KERNEL) $(UBENCH)
	@BUILD=$(BUILD) KERNEL=$(KERNEL) UBENCH=$(UBENCH) bash tools/ubench.sh --linux --scale

conformance: all
	@BUILD=$(BUILD) bash tools/conform.sh
conformance-linux: all
	@BUILD=$(BUILD) bash tools/conform.sh --linux $(if $(UPDATE),--update)
handouts: all test-kernel
	@BUILD=$(BUILD) bash tools/handout-runs $(if $(UPDATE),--update)

endif

# An ISO whose GRUB entry runs the test kernel's quick kernel tests: the
# smoke test for GRUB (tools/tests/build.sh) and for Bochs (tools/tests/bochs.sh).
$(TEST_ISO): $(TKERNEL) boot/grub-test.cfg
	@rm -rf $(BUILD)/isotest && mkdir -p $(BUILD)/isotest/boot/grub
	@$(quiet) GRUB $@
	$(Q)cp $(TKERNEL) $(BUILD)/isotest/boot/vellum.elf
	$(Q)cp boot/grub-test.cfg $(BUILD)/isotest/boot/grub/grub.cfg
	$(Q)$(GRUB_MKRESCUE) -o $@ $(BUILD)/isotest 2>/dev/null
test-iso: $(TEST_ISO)

.PHONY: qemu qemu-nox qemu-test bochs check bench bench-linux conformance conformance-linux handouts test-iso
