# mk/user.mk - the userland: libc, init, the shell, utilities, test programs,
# and the staging root tree that becomes the root file system.
#
# Included by the top Makefile after `all` is defined, so `all` stays the
# default goal. Everything here is a static i386 ELF using only our libc
# and libgcc, so the same binaries run on Vellum and on a Linux host.
#
#   make user            build/user/{bin,sbin,tests}/*  and  build/rootfs/
#
# Layout of the sources:
#   user/include/        headers (we compile with -nostdinc: no host headers)
#   user/libc/           crt0.S, syscall.S and the C library
#   user/init.c          /sbin/init
#   user/sh/*.c          /bin/sh: sh.c (the shell), lineedit.c and complete.c
#                        (its line editor at a terminal)
#   user/bin/NAME.c      /bin/NAME, one file per utility
#   user/tests/NAME.c    /tests/NAME, PASS/FAIL self-tests
#   user/rootfs/         files copied verbatim into the root tree (/etc/rc, /README)

U_OUT    := $(BUILD)/user
U_ROOT   := $(BUILD)/rootfs
U_AR     := $(if $(CROSS),$(CROSS)ar,ar)

# No SSE/MMX/x87 code: our programs then run even before the kernel saves
# FPU state on a context switch. Nothing in the userland uses floating point.
U_CFLAGS := $(ARCHFLAGS) -std=gnu11 -O2 -g -ffreestanding -nostdinc -fno-pie -fno-pic \
	-fno-stack-protector -fno-asynchronous-unwind-tables -mno-sse -mno-mmx -mno-80387 \
	-Wall -Wextra -Werror -Iuser/include -Iinclude/uapi -MMD -MP
U_ASFLAGS := $(ARCHFLAGS) -g -Iuser/include -Iinclude/uapi -MMD -MP
U_LDFLAGS := $(ARCHFLAGS) -nostdlib -static $(if $(findstring clang,$(CC)),-fuse-ld=lld,-no-pie) \
	-Wl,--build-id=none

U_LIBC_SRCS := $(filter-out user/libc/crt0.S,$(wildcard user/libc/*.c user/libc/*.S))
U_LIBC_OBJS := $(patsubst user/%,$(U_OUT)/obj/%.o,$(basename $(U_LIBC_SRCS))) $(U_OUT)/obj/lib/string.o
U_CRT0      := $(U_OUT)/obj/libc/crt0.o
U_LIBC      := $(U_OUT)/libc.a

U_BIN_SRCS  := $(wildcard user/bin/*.c)
U_TEST_SRCS := $(wildcard user/tests/*.c)
U_SH_SRCS   := $(wildcard user/sh/*.c)
U_SH_OBJS   := $(patsubst user/%.c,$(U_OUT)/obj/%.o,$(U_SH_SRCS))
U_PROGS := $(patsubst user/bin/%.c,$(U_OUT)/bin/%,$(U_BIN_SRCS)) \
	   $(patsubst user/tests/%.c,$(U_OUT)/tests/%,$(U_TEST_SRCS)) \
	   $(U_OUT)/bin/sh $(U_OUT)/sbin/init
U_PROG_OBJS := $(patsubst user/%.c,$(U_OUT)/obj/%.o,$(U_BIN_SRCS) $(U_TEST_SRCS) $(U_SH_SRCS) user/init.c)

all: user
user: $(U_PROGS) $(U_ROOT)/.stamp

# ---- compiling (static pattern rules: they win over the kernel's rules)
$(filter %.o,$(patsubst user/%,$(U_OUT)/obj/%.o,$(basename $(filter %.c,$(U_LIBC_SRCS))))) \
$(U_PROG_OBJS): $(U_OUT)/obj/%.o: user/%.c
	@mkdir -p $(dir $@)
	@$(quiet) CC $@
	$(Q)$(CC) $(U_CFLAGS) -c $< -o $@

# lib/string.c: the kernel's string routines, the same file built into libc
# (lib/string.h says why).
$(U_OUT)/obj/lib/string.o: lib/string.c
	@mkdir -p $(dir $@)
	@$(quiet) CC $@
	$(Q)$(CC) $(U_CFLAGS) -c $< -o $@

$(patsubst user/%,$(U_OUT)/obj/%.o,$(basename $(filter %.S,$(U_LIBC_SRCS)))) \
$(U_CRT0): $(U_OUT)/obj/%.o: user/%.S
	@mkdir -p $(dir $@)
	@$(quiet) AS $@
	$(Q)$(CC) $(U_ASFLAGS) -c $< -o $@

$(U_LIBC): $(U_LIBC_OBJS)
	@rm -f $@
	@$(quiet) AR $@
	$(Q)$(U_AR) rcs $@ $^

# ---- linking: crt0 first, then the program, our libc, and libgcc (64-bit
# division for printf's %llu and 64-bit file offsets)
U_LINK = $(CC) $(U_LDFLAGS) -o $@ $(U_CRT0) $< $(U_LIBC) $(LIBGCC)

$(U_OUT)/bin/%: $(U_OUT)/obj/bin/%.o $(U_CRT0) $(U_LIBC)
	@mkdir -p $(dir $@)
	@$(quiet) LD $@
	$(Q)$(U_LINK)
$(U_OUT)/bin/sh: $(U_SH_OBJS) $(U_CRT0) $(U_LIBC)
	@mkdir -p $(dir $@)
	@$(quiet) LD $@
	$(Q)$(CC) $(U_LDFLAGS) -o $@ $(U_CRT0) $(U_SH_OBJS) $(U_LIBC) $(LIBGCC)
$(U_OUT)/sbin/init: $(U_OUT)/obj/init.o $(U_CRT0) $(U_LIBC)
	@mkdir -p $(dir $@)
	@$(quiet) LD $@
	$(Q)$(U_LINK)
$(U_OUT)/tests/%: $(U_OUT)/obj/tests/%.o $(U_CRT0) $(U_LIBC)
	@mkdir -p $(dir $@)
	@$(quiet) LD $@
	$(Q)$(U_LINK)

# ---- the staging root tree: what goes onto the ext2 root image
U_ROOT_FILES := $(shell find user/rootfs -type f 2>/dev/null)
$(U_ROOT)/.stamp: $(U_PROGS) $(U_ROOT_FILES) mk/user.mk
	@mkdir -p $(U_ROOT)/bin $(U_ROOT)/sbin $(U_ROOT)/tests $(U_ROOT)/etc \
		$(U_ROOT)/dev $(U_ROOT)/proc $(U_ROOT)/tmp $(U_ROOT)/mnt
	@$(quiet) STAGE $(U_ROOT)
	$(Q)cp -p $(U_OUT)/bin/* $(U_ROOT)/bin/
	$(Q)cp -p $(U_OUT)/sbin/* $(U_ROOT)/sbin/
	$(Q)cp -p $(U_OUT)/tests/* $(U_ROOT)/tests/
	$(Q)cp -pR user/rootfs/. $(U_ROOT)/
	$(Q)chmod 1777 $(U_ROOT)/tmp
	@touch $@

user-clean:
	rm -rf $(U_OUT) $(U_ROOT)

.PHONY: user user-clean
-include $(U_LIBC_OBJS:.o=.d) $(U_CRT0:.o=.d) $(U_PROG_OBJS:.o=.d)
