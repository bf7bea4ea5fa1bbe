# Vellum top-level Makefile.
# The object lists below *are* the architecture: boot/ brings the CPU up,
# kernel/x86/ (with its headers, include/asm/) is all the other x86-specific
# code but lib/string.c's rep movs/stos (shared with the userland's libc)
# and a few tests' inline assembly, kernel/drivers/ the PC's devices,
# kernel/ the core (scheduling, processes, system calls), mm/ memory and the
# page cache, fs/ the VFS and filesystems, lib/ freestanding helpers,
# kernel/test/ the test framework and benchmarks.
#
# Two kernels from one tree:
#   build/vellum.elf       the production kernel: what `make` builds and
#                          `make qemu` boots.  No tests in it: no *_test.c,
#                          nothing of kernel/test/ (ktest, the embedded user
#                          test programs, the benchmarks).
#   build/vellum-test.elf  the test kernel: what `make check` and `make bench`
#                          boot.  The same sources compiled with -DCONFIG_KTEST
#                          into build/ktest/, plus every *_test.c (the ktests,
#                          beside the code they test) and kernel/test/.
#
# Targets: `make help` lists them all (README.md's table, mk/help.mk).
#
# make DEBUG=1 ...: both kernels compiled with -Og instead of -O2, so that
# GDB shows arguments and locals instead of <optimized out>.  They live in
# their own tree, $(BUILD)/debug/ (KBUILD below), so switching between
# DEBUG=1 and not rebuilds nothing twice and never mixes -O2 and -Og objects;
# the disk images and the userland stay in $(BUILD) (one /home for both).
# `make check` always tests the -O2 kernels.
# The lock validator (CONFIG_LOCKDEP: kernel/lockdep.c, docs/lockdep.md) is
# built into the test kernel always, and into both kernels with DEBUG=1;
# the -O2 production kernel has none of it.
#
# The build is quiet, as Linux's Kbuild: a line per step
# ("  CC      build/mm/filemap.o"), and the compiler's own warnings and
# errors as they come.
# make V=1 ... prints every command instead; make -s prints neither (as
# Kbuild's: the single-letter flags are the first word of MAKEFLAGS).  A
# recipe line is "$(Q)command", after "@$(quiet) TAG target".

BUILD   ?= build
ifeq ($(V),1)
  Q     :=
  quiet := :
else ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
  Q     := @
  quiet := :
else
  Q     := @
  quiet := printf '  %-7s %s\n'
endif
ifneq ($(DEBUG),)
  KBUILD := $(BUILD)/debug
  OPT    := -Og
  LOCKDEP := -DCONFIG_LOCKDEP
else
  KBUILD := $(BUILD)
  OPT    := -O2
endif
KERNEL  := $(KBUILD)/vellum.elf
TKERNEL := $(KBUILD)/vellum-test.elf
TBUILD  := $(KBUILD)/ktest
ISO     := $(KBUILD)/vellum.iso

# ---- toolchain detection: i386-elf-, then i686-elf- (Homebrew's cross
# toolchain on macOS: i686-elf-gcc, i686-elf-binutils), then i686-linux-gnu-,
# then host gcc -m32.  tools/setup.sh tries them in the same order.
ifeq ($(origin CC),default)
  ifneq ($(shell command -v i386-elf-gcc 2>/dev/null),)
    CROSS := i386-elf-
  else ifneq ($(shell command -v i686-elf-gcc 2>/dev/null),)
    CROSS := i686-elf-
  else ifneq ($(shell command -v i686-linux-gnu-gcc 2>/dev/null),)
    CROSS := i686-linux-gnu-
  endif
  ifneq ($(CROSS),)
    CC := $(CROSS)gcc
  else
    CC := gcc
    ARCHFLAGS := -m32
  endif
endif
ifneq ($(findstring clang,$(CC)),)
  ARCHFLAGS := --target=i686-elf
endif
# The linker: yours if you name one (LD=... on the command line or in the
# environment), else the cross one, ld.lld with clang, or the host's ld.
# (make predefines LD=ld, origin "default": `LD ?=` would never apply.)
ifeq ($(origin LD),default)
  LD := $(if $(CROSS),$(CROSS)ld,$(if $(findstring clang,$(CC)),ld.lld,ld))
endif
NM      ?= $(if $(CROSS),$(CROSS)nm,nm)
OBJCOPY ?= $(if $(CROSS),$(CROSS)objcopy,objcopy)
# GRUB's ISO maker: Debian's grub-mkrescue, else Homebrew's i686-elf-grub
# (its programs are named i686-elf-grub-*).
GRUB_MKRESCUE ?= $(if $(shell command -v grub-mkrescue 2>/dev/null),grub-mkrescue,$(if \
	$(shell command -v i686-elf-grub-mkrescue 2>/dev/null),i686-elf-grub-mkrescue,grub-mkrescue))

CFLAGS := $(ARCHFLAGS) -std=gnu11 -ffreestanding -fno-pie -fno-pic -fno-stack-protector \
	-fno-asynchronous-unwind-tables -fno-omit-frame-pointer -mno-sse -mno-mmx -mno-80387 \
	-fno-strict-aliasing -fno-builtin $(OPT) -g -Wall -Wextra -Werror -Wno-unused-parameter \
	-Iinclude -Iinclude/uapi -Ilib -MMD -MP $(LOCKDEP)
ASFLAGS := $(ARCHFLAGS) -g -Iinclude -Iinclude/uapi -Ilib -MMD -MP
# A test-kernel C object's defines on top of CFLAGS.  CONFIG_LOCKDEP changes
# the layout of every structure with a lock in it, so an object compiled
# without it must never be linked with one compiled with it: mklab's
# prebuilt objects use these same defines (make labs-kflags).
KTEST_DEFS := -DCONFIG_KTEST -DCONFIG_LOCKDEP
LDFLAGS := -m elf_i386 -T boot/linker.ld -nostdlib --build-id=none
LIBGCC  := $(shell $(CC) $(ARCHFLAGS) -print-libgcc-file-name)
# clang --target=i686-elf names no libgcc file of its own: borrow gcc -m32's.
ifeq ($(wildcard $(LIBGCC)),)
  LIBGCC := $(shell gcc -m32 -print-libgcc-file-name 2>/dev/null)
endif

# ---- the objects, one block per folder (the folder tree is the architecture)
src = $(wildcard $(addprefix $(1)/,*.S *.c))
# boot/: the Multiboot header, the first page tables, the jump to the higher half
SRCS-boot         := $(call src,boot)
# kernel/x86/: the CPU: entry and trap code, context switch, GDT/TSS, IDT and
# the oops report, the x87/SSE unit, the 8259A PIC, the 8254 PIT, the CMOS
# real-time clock, double faults, power off, the user-copy instructions and
# their exception-table entries
SRCS-x86          := $(call src,kernel/x86)
# kernel/drivers/: the devices: ATA disk, serial port, VGA text, PS/2
# keyboard, console input and the tty
SRCS-drivers      := $(call src,kernel/drivers)
# kernel/: the core: kmain, initcalls, printk, scheduler, wait queues, locks,
# processes (fork, exec, exit, signals), system calls, the block layer
SRCS-kernel       := $(call src,kernel)
# mm/: page frames, kmalloc, page tables, address spaces, faults, the page cache
SRCS-mm           := $(call src,mm)
# fs/: the VFS, the descriptor table, pipes, pseudo filesystems, and below it
# fs/ext2/ (which mounts ext3 through the journal layer, fs/jbd/) and fs/ramfs/
SRCS-fs           := $(call src,fs) $(call src,fs/ext2) $(call src,fs/jbd) $(call src,fs/ramfs)
# lib/: freestanding helpers: strings, the iov_iter
SRCS-lib          := $(call src,lib)
# kernel/test/: the test framework (ktest), embedded user test programs,
# benchmarks, the RAM disk the block-layer tests use
SRCS-test         := $(call src,kernel/test)

# Link order matters: initcalls of one level run in link order (include/init.h),
# so core before mm before x86 and the drivers, then the filesystems.
SRCS-all := $(SRCS-boot) $(SRCS-kernel) $(SRCS-mm) $(SRCS-x86) $(SRCS-drivers) $(SRCS-fs) \
	$(SRCS-lib)

# The production kernel: every folder's sources but the tests (*_test.c, and
# *_test.S: assembly only tests call, such as kernel/x86/probe_test.S).
SRCS := $(filter-out %_test.c %_test.S,$(SRCS-all))
OBJS := $(patsubst %,$(KBUILD)/%.o,$(basename $(SRCS)))

# The test kernel: the same sources, each folder's *_test.c and *_test.S, and
# kernel/test/.
# A foo_test.c whose tests need foo.c's static functions begins with
# #include "foo.c" (KUnit's convention); it then replaces foo.c in the link,
# at foo.c's place, so the initcall order stays the production kernel's.
TEST-SRCS := $(filter %_test.c %_test.S,$(SRCS-all))
WRAPS     := $(foreach t,$(TEST-SRCS),$(if $(shell grep -qx '\#include "$(notdir $(t:_test.c=.c))"' $(t) && echo y),$(t)))
TSRCS := $(foreach s,$(SRCS),$(if $(filter $(s:.c=_test.c),$(WRAPS)),$(s:.c=_test.c),$(s))) \
	$(filter-out $(WRAPS),$(TEST-SRCS)) $(SRCS-test)
TOBJS := $(patsubst %,$(TBUILD)/%.o,$(basename $(TSRCS)))

# A student tree (tools/mklab LAB DIR) has the labs after its own as objects
# compiled from the course's solution, without their source (prebuilt/README
# says which functions of which lab): prebuilt/vellum/ links into the
# production kernel (prebuilt/debug/, with the validator's -DCONFIG_LOCKDEP,
# into DEBUG=1's), prebuilt/ktest/ (compiled with $(KTEST_DEFS)) into the
# test kernel, after the tree's own objects.  The solution has no prebuilt/.
PREBUILT  := $(sort $(shell find prebuilt/$(if $(DEBUG),debug,vellum) -name '*.o' 2>/dev/null))
TPREBUILT := $(sort $(shell find prebuilt/ktest -name '*.o' 2>/dev/null))
OBJS  += $(PREBUILT)
TOBJS += $(TPREBUILT)

# A bare `make` (the first rule, the default goal): tools/setup.sh first, as
# `make qemu` and `make check` do (it installs what is missing, or stops with
# the one command to run; silent and quick when nothing is), then `all` in a
# fresh make, which sees the tools setup installed: this one asked for
# libgcc's path while parsing, possibly before there was a compiler.
ifeq ($(VELLUM_SETUP_DONE),)
default:
	@sh tools/setup.sh
	@$(MAKE) --no-print-directory VELLUM_SETUP_DONE=1 all
else
default: all
endif
all: $(KERNEL) $(ISO)
test-kernel: $(TKERNEL)

$(KBUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(quiet) CC $@
	$(Q)$(CC) $(CFLAGS) -c $< -o $@
$(KBUILD)/%.o: %.S
	@mkdir -p $(dir $@)
	@$(quiet) AS $@
	$(Q)$(CC) $(ASFLAGS) -c $< -o $@
# The test kernel's objects (the shorter stem wins over the rules above).
$(TBUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(quiet) CC $@
	$(Q)$(CC) $(CFLAGS) $(KTEST_DEFS) -c $< -o $@
$(TBUILD)/%.o: %.S
	@mkdir -p $(dir $@)
	@$(quiet) AS $@
	$(Q)$(CC) $(ASFLAGS) -DCONFIG_KTEST -c $< -o $@

# Two-pass link, the same for both kernels: the first pass has an empty symbol
# table; its `nm` output becomes the table for the second.  .ksyms is the last
# section of the image, so the text addresses do not move between the passes.
$(KBUILD)/vellum.pass1 $(KERNEL): $(OBJS)
$(KBUILD)/vellum-test.pass1 $(TKERNEL): $(TOBJS)
$(KBUILD)/vellum.pass1 $(KERNEL): KOBJS = $(OBJS)
$(KBUILD)/vellum-test.pass1 $(TKERNEL): KOBJS = $(TOBJS)
$(KBUILD)/ksyms0.o: tools/ksyms-empty.S
	@mkdir -p $(KBUILD)
	@$(quiet) AS $@
	$(Q)$(CC) $(ASFLAGS) -c $< -o $@
$(KBUILD)/%.pass1: $(KBUILD)/ksyms0.o boot/linker.ld
	@$(quiet) LD $@
	$(Q)$(LD) $(LDFLAGS) -o $@ $(KOBJS) $< $(LIBGCC)
$(KBUILD)/%.ksyms.S: $(KBUILD)/%.pass1 tools/mkksyms.sh
	@$(quiet) KSYMS $@
	$(Q)sh tools/mkksyms.sh $(NM) $< > $@
$(KBUILD)/%.ksyms.o: $(KBUILD)/%.ksyms.S
	@$(quiet) AS $@
	$(Q)$(CC) $(ASFLAGS) -c $< -o $@
$(KBUILD)/%.elf: $(KBUILD)/%.ksyms.o boot/linker.ld
	@$(quiet) LD $@
	$(Q)$(LD) $(LDFLAGS) -o $@ $(KOBJS) $< $(LIBGCC)

# The ISO (boot/grub.cfg): both kernels; the menu's test entry runs every
# kernel suite that needs no disk of its own, i.e. each KTEST suite without a
# tools/suites/SUITE.conf (those attach images and write them: here they
# would write on the student's root disk).
iso: $(ISO)
$(ISO): $(KERNEL) $(TKERNEL) boot/grub.cfg $(wildcard tools/suites/*.conf)
	@rm -rf $(KBUILD)/isodir && mkdir -p $(KBUILD)/isodir/boot/grub
	@$(quiet) GRUB $@
	$(Q)cp $(KERNEL) $(KBUILD)/isodir/boot/vellum.elf
	$(Q)cp $(TKERNEL) $(KBUILD)/isodir/boot/vellum-test.elf
	@suites=$$(sed -n 's/^KTEST(\([a-z0-9_]*\),.*/\1/p' $(filter %.c,$(TSRCS)) | sort -u | \
	    while read -r s; do [ -e tools/suites/$$s.conf ] || echo $$s; done | paste -sd, -) && \
	    sed "s/@DISKLESS_SUITES@/$$suites/" boot/grub.cfg > $(KBUILD)/isodir/boot/grub/grub.cfg
	$(Q)$(GRUB_MKRESCUE) -o $@ $(KBUILD)/isodir 2>/dev/null

-include mk/*.mk

clean:
	rm -rf $(BUILD) .gdbinit

.PHONY: default all iso test-kernel clean
.SECONDARY: $(foreach k,vellum vellum-test,$(KBUILD)/$(k).pass1 $(KBUILD)/$(k).ksyms.S $(KBUILD)/$(k).ksyms.o)
-include $(OBJS:.o=.d) $(TOBJS:.o=.d)
