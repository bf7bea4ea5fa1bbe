#!/bin/bash
# tools/tests/rootmount.sh: the root= / rootfstype= / rootflags= / ro boot
# options of prepare_namespace (fs/do_mounts.c), booted for real (host test).
# Builds one ext2 image from build/rootfs and boots it five times:
#   ro        root=hda ro init=/tests/root_ro: the program checks -EROFS for
#             every writing call and that /tmp still works; the image's
#             checksum must be the same after the boot as before.
#   ramfs     root=hda rootfstype=ramfs: the root is an empty ramfs (mounted
#             as asked, no fallback), so no init exists: the kernel says so
#             and powers off cleanly; hda is never written.
#   badtype   rootfstype=nosuchfs: "VFS: Cannot mount root fs", then the
#             empty ramfs root, /dev, /proc and /tmp mounted on it, the init
#             search, a clean power off (QEMU exits 0, not a panic's 7).
#   nodisk    root=hdc (nothing attached there): the same fallback.
#   badflags  rootflags=errors=continue,data=journal: the mount's options
#             (-EINVAL: a journal option on ext2): the same fallback.
# In the last four the image must be unchanged too.
source "$(dirname "$0")/../testlib.sh"
T=rootmount
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-rootmount.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

make -s --no-print-directory BUILD="$BUILD" all user >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
cp -a "$BUILD/rootfs" "$TMP/root"
mkdir -p "$TMP/root/tmp"
if ! mke2fs -q -t ext2 -b 1024 -d "$TMP/root" "$TMP/root.img" 16M >"$TMP/mkfs.log" 2>&1; then
    fail "$T.mkfs"; show_tail "$TMP/mkfs.log"; exit 0
fi
sum_before=$(sha256sum < "$TMP/root.img")

# boot NAME APPEND: one boot on a fresh copy of the image; sets LOG, IMG, RC.
boot() {
    LOG=$TMP/$1.log IMG=$TMP/$1.img
    cp "$TMP/root.img" "$IMG"
    vellum_qemu "$LOG" 60 -kernel "$KERNEL" -append "$2" \
        -drive "file=$IMG,format=raw,if=ide,index=0"
    RC=$?
}
log() { tr -d '\r' < "$LOG"; }
has() { log | grep -qF -- "$1"; }
# expect NAME CONDITION-COMMAND... : PASS/FAIL NAME from the command's status.
expect() {
    local name=$1; shift
    if "$@"; then pass "$T.$name"; else fail "$T.$name ($*)"; SHOW=1; fi
}
unchanged() { [ "$(sha256sum < "$IMG")" = "$sum_before" ]; }
powered_off() { [ "$RC" = 0 ] && has "power off: root ("; }
no_oops() { ! log | grep -qi 'oops\|panic'; }

# ---- ro
SHOW=0
boot ro "root=hda ro init=/tests/root_ro"
log | sed -n 's/^\(PASS\|FAIL\) \(.*\)$/\1 rootmount.\2/p'
nfail=$(log | sed -n 's/^root_ro: done \([0-9]*\)$/\1/p')
expect ro.program_ran [ "$nfail" = 0 ]
expect ro.mounted_readonly has "VFS: Mounted root (ext2 filesystem) readonly on device hda."
# /dev, /proc and /tmp exist on the image: mkdir gives -EEXIST (not -EROFS)
# and the kernel's own mounts go on top of them.
expect ro.own_mounts eval '! log | grep -q "VFS: cannot"'
expect ro.image_unchanged unchanged
expect ro.power_off powered_off
expect ro.no_oops no_oops
if [ $SHOW = 1 ]; then show_tail "$LOG" 30; fi

# ---- rootfstype=ramfs: asked for, so no fallback message; no init on it
SHOW=0
boot ramfs "root=hda rootfstype=ramfs"
expect ramfs.mounted has "VFS: Mounted root (ramfs filesystem) on device hda."
expect ramfs.no_fallback eval '! has "Cannot mount root fs"'
expect ramfs.init_search has "No working init found"
expect ramfs.image_unchanged unchanged
expect ramfs.power_off powered_off
expect ramfs.no_oops no_oops
if [ $SHOW = 1 ]; then show_tail "$LOG" 30; fi

# ---- a wrong type and a missing disk: the documented fallback
for c in "badtype|root=hda rootfstype=nosuchfs|VFS: Cannot mount root fs \"hda\" (nosuchfs): error -19" \
         "nodisk|root=/dev/hdc|VFS: Cannot mount root fs \"hdc\" (ext2): error -19" \
         "badflags|root=hda rootflags=errors=continue,data=journal|VFS: Cannot mount root fs \"hda\" (ext2): error -22"; do
    IFS='|' read -r name append msg <<<"$c"
    SHOW=0
    boot "$name" "$append"
    expect "$name.message" has "$msg"
    expect "$name.ramfs_root" has "Using an empty ramfs root."
    # The kernel kept going: its own mounts on the ramfs root succeeded
    # (no "VFS: cannot create/mount" warning), it looked for init on it
    # (each default missing: -ENOENT) and powered off through the normal path.
    expect "$name.own_mounts" eval '! log | grep -q "VFS: cannot"'
    expect "$name.init_enoent" has "init: cannot run /bin/sh (error -2)"
    expect "$name.init_search" has "No working init found"
    expect "$name.image_unchanged" unchanged
    expect "$name.power_off" powered_off
    expect "$name.no_oops" no_oops
    if [ $SHOW = 1 ]; then show_tail "$LOG" 30; fi
done
