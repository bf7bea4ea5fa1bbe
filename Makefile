# Vellum top-level Makefile.
# The object list below *is* the architecture: boot/ brings the CPU up,
# kernel/ owns traps, scheduling and drivers, mm/ owns memory and the page
# cache, fs/ owns the VFS and filesystems, lib/ is freestanding helpers.
#
# Targets: all (elf + iso), qemu, qemu-nox, qemu-gdb, bochs, iso, check, bench, clean.

BUILD   ?= build
KERNEL  := $(BUILD)/vellum.elf
ISO     := $(BUILD)/vellum.iso

# ---- toolchain detection: i386-elf-, then i686-linux-gnu-, then host gcc -m32
ifeq ($(origin CC),default)
  ifneq ($(shell command -v i386-elf-gcc 2>/dev/null),)
    CROSS := i386-elf-
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
  LD ?= ld.lld
endif
LD      := $(if $(CROSS),$(CROSS)ld,ld)
NM      := $(if $(CROSS),$(CROSS)nm,nm)
OBJCOPY := $(if $(CROSS),$(CROSS)objcopy,objcopy)

CFLAGS := $(ARCHFLAGS) -std=gnu11 -ffreestanding -fno-pie -fno-pic -fno-stack-protector \
	-fno-asynchronous-unwind-tables -fno-omit-frame-pointer -mno-sse -mno-mmx -mno-80387 \
	-fno-strict-aliasing -fno-builtin -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
	-Iinclude -MMD -MP
ASFLAGS := $(ARCHFLAGS) -g -Iinclude -MMD -MP
LDFLAGS := -m elf_i386 -T boot/linker.ld -nostdlib --build-id=none
LIBGCC  := $(shell $(CC) $(ARCHFLAGS) -print-libgcc-file-name)
# clang --target=i686-elf names no libgcc file of its own: borrow gcc -m32's.
ifeq ($(wildcard $(LIBGCC)),)
  LIBGCC := $(shell gcc -m32 -print-libgcc-file-name 2>/dev/null)
endif

SRCS := $(wildcard boot/*.S boot/*.c kernel/*.c kernel/*.S mm/*.c mm/*.S fs/*.c fs/*/*.c lib/*.c)
OBJS := $(patsubst %,$(BUILD)/%.o,$(basename $(SRCS)))

all: $(KERNEL) $(ISO)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@
$(BUILD)/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(ASFLAGS) -c $< -o $@

# Two-pass link: the first pass has an empty symbol table; its `nm` output
# becomes the table for the second.  .ksyms is the last section of the image,
# so the text addresses do not move between the passes.
$(BUILD)/ksyms0.o: tools/ksyms-empty.S
	@mkdir -p $(BUILD)
	$(CC) $(ASFLAGS) -c $< -o $@
$(BUILD)/vellum.pass1: $(OBJS) $(BUILD)/ksyms0.o boot/linker.ld
	$(LD) $(LDFLAGS) -o $@ $(OBJS) $(BUILD)/ksyms0.o $(LIBGCC)
$(BUILD)/ksyms.S: $(BUILD)/vellum.pass1 tools/mkksyms.sh
	sh tools/mkksyms.sh $(NM) $< > $@
$(BUILD)/ksyms.o: $(BUILD)/ksyms.S
	$(CC) $(ASFLAGS) -c $< -o $@
$(KERNEL): $(OBJS) $(BUILD)/ksyms.o boot/linker.ld
	$(LD) $(LDFLAGS) -o $@ $(OBJS) $(BUILD)/ksyms.o $(LIBGCC)

iso: $(ISO)
$(ISO): $(KERNEL) boot/grub.cfg
	@mkdir -p $(BUILD)/isodir/boot/grub
	cp $(KERNEL) $(BUILD)/isodir/boot/vellum.elf
	cp boot/grub.cfg $(BUILD)/isodir/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/isodir 2>/dev/null

-include mk/*.mk

clean:
	rm -rf $(BUILD) .gdbinit

.PHONY: all iso clean
-include $(OBJS:.o=.d)
