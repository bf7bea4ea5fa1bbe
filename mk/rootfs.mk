# mk/rootfs.mk: the bootable root disk, and booting it with `make qemu`.
#
#   build/images/rootfs.img       ext2 image of build/rootfs (tools/mkrootfs.sh):
#                                 pristine, reproducible, built by `make`
#   build/images/rootfs-run.img   the writable copy `make qemu` boots; KEPT
#                                 across runs, so files you write persist from
#                                 one `make qemu` to the next.  It is copied
#                                 afresh when rootfs.img is rebuilt (you changed
#                                 the userland) or after `make reset-disk`.
#   make reset-disk               throw the writable copy away (start over)
#   make rootfs-check             build rootfs.img twice, compare the bytes
#
# `make qemu`, `qemu-nox` and `qemu-gdb` attach rootfs-run.img as the first
# IDE disk and boot with root=hda.  Setting DISKS yourself replaces the root
# disk (DISKS="a.img" boots with a.img as hda, and no root=hda is added).
ROOTFS_IMG  := $(BUILD)/images/rootfs.img
ROOTFS_RUN  := $(BUILD)/images/rootfs-run.img
ROOTFS_SIZE := 32M
# mk/user.mk's staging tree (its U_ROOT; user.mk is included after this file)
ROOTFS_TREE := $(BUILD)/rootfs

all: rootfs-img
rootfs-img: $(ROOTFS_IMG)

$(ROOTFS_IMG): $(ROOTFS_TREE)/.stamp tools/mkrootfs.sh
	bash tools/mkrootfs.sh $(ROOTFS_TREE) $@ $(ROOTFS_SIZE)

$(ROOTFS_RUN): $(ROOTFS_IMG)
	@if [ -e $@ ]; then echo "*** $@: rootfs.img was rebuilt; starting from a fresh copy"; fi
	cp $< $@

ifeq ($(origin DISKS),undefined)
DISKS       := $(ROOTFS_RUN)
ROOT_APPEND := root=hda
ifneq ($(VELLUM_SETUP_DONE),)
qemu qemu-nox qemu-gdb: $(ROOTFS_RUN)
endif
endif

reset-disk:
	rm -f $(ROOTFS_RUN)
	@echo "*** the next make qemu starts from a fresh copy of $(ROOTFS_IMG)"

rootfs-check: $(ROOTFS_IMG)
	bash tools/mkrootfs.sh $(ROOTFS_TREE) $(BUILD)/images/rootfs-again.img $(ROOTFS_SIZE)
	cmp $(ROOTFS_IMG) $(BUILD)/images/rootfs-again.img && echo "rootfs-check: identical"
	@rm -f $(BUILD)/images/rootfs-again.img

.PHONY: rootfs-img reset-disk rootfs-check
