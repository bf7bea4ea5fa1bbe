# mk/rootfs.mk: the bootable root disk, and booting it with `make qemu`.
#
#   build/images/rootfs.img       ext3 image of build/rootfs (tools/mkrootfs.sh --ext3):
#                                 pristine, reproducible, built by `make`
#   build/images/rootfs-run.img   the writable copy `make qemu` boots; KEPT
#                                 across runs, so files you write persist from
#                                 one `make qemu` to the next.  When rootfs.img
#                                 is rebuilt (you changed the userland) it is
#                                 copied afresh and its /home and /root are
#                                 carried over from the old one
#                                 (tools/rundisk.sh; the old disk is kept as
#                                 rootfs-run.img.old)
#   make reset-disk               throw the writable copy away (start over:
#                                 the next copy has an empty /home)
#   make rootfs-check             build rootfs.img twice, compare the bytes
#   make busybox                  fetch Debian's busybox-static (i386) once
#                                 into build/busybox/ (tools/getbusybox.sh:
#                                 apt-get download with apt lists of its own,
#                                 nothing on the host changes), then install it
#                                 on the run disk: /bin/busybox and its applet
#                                 links in /usr/bin, after ours in PATH
#                                 (tools/installbusybox.sh).  Kept across
#                                 rebuilds of the run disk; `make reset-disk`
#                                 drops it.  Not part of `make`: the build never
#                                 needs the network.
#
# `make qemu`, `qemu-nox`, `qemu-test`, `qemu-gdb` and `bochs` attach
# rootfs-run.img as the first IDE disk and boot with root=hda.  Setting DISKS yourself replaces the root
# disk (DISKS="a.img" boots with a.img as hda, and no root=hda is added).
ROOTFS_IMG  := $(BUILD)/images/rootfs.img
ROOTFS_RUN  := $(BUILD)/images/rootfs-run.img
ROOTFS_SIZE := 32M
# mk/user.mk's staging tree (its U_ROOT; user.mk is included after this file)
ROOTFS_TREE := $(BUILD)/rootfs

all: rootfs-img
rootfs-img: $(ROOTFS_IMG)

$(ROOTFS_IMG): $(ROOTFS_TREE)/.stamp tools/mkrootfs.sh
	@$(quiet) MKFS $@
	$(Q)bash tools/mkrootfs.sh --ext3 $(ROOTFS_TREE) $@ $(ROOTFS_SIZE)

$(ROOTFS_RUN): $(ROOTFS_IMG) tools/rundisk.sh
	@bash tools/rundisk.sh $< $@

ifeq ($(origin DISKS),undefined)
DISKS       := $(ROOTFS_RUN)
ROOT_APPEND := root=hda
ifneq ($(VELLUM_SETUP_DONE),)
qemu qemu-nox qemu-test qemu-gdb bochs: $(ROOTFS_RUN)
endif
endif

reset-disk:
	rm -f $(ROOTFS_RUN)
	@echo "*** the next make qemu starts from a fresh copy of $(ROOTFS_IMG)"

rootfs-check: $(ROOTFS_IMG)
	bash tools/mkrootfs.sh --ext3 $(ROOTFS_TREE) $(BUILD)/images/rootfs-again.img $(ROOTFS_SIZE)
	cmp $(ROOTFS_IMG) $(BUILD)/images/rootfs-again.img && echo "rootfs-check: identical"
	@rm -f $(BUILD)/images/rootfs-again.img

# (the first pass, tools/setup.sh, is mk/run.mk's, as for make qemu)
ifneq ($(VELLUM_SETUP_DONE),)
busybox: $(ROOTFS_RUN)
	@mkdir -p $(BUILD)
	@bash tools/getbusybox.sh $(BUILD)/busybox >$(BUILD)/busybox.why || \
	    { echo "busybox: not available: $$(cat $(BUILD)/busybox.why)" >&2; exit 1; }
	@bash tools/installbusybox.sh $(BUILD)/busybox/busybox $(ROOTFS_RUN)
	@echo "*** make qemu: 'busybox' or its applets (top, vi, awk, ...); ours come first in PATH (ps is ours, busybox ps is busybox's)"
endif

.PHONY: rootfs-img reset-disk rootfs-check busybox
