#!/bin/bash
# tools/mkrootfs.sh: the bootable root file system image, on the host.
# Layer: host tooling (mk/rootfs.mk runs it; tests run it for their own images).
#
#   tools/mkrootfs.sh [--ext3] STAGING IMAGE [SIZE] [EXTRA-DIR...]
#
# STAGING is the userland's staging tree (build/rootfs from mk/user.mk);
# each EXTRA-DIR is copied over it (tests add programs that way).  The
# result is an ext2 revision 1 file system with 1 KiB blocks and only the
# filetype feature (what Vellum's ext2 implements); with --ext3 (the root
# disk of `make qemu`, mk/rootfs.mk) it also has a journal (has_journal, a
# 4 MiB journal in inode 8: ext3, docs/journal.md).  SIZE big (32M), every
# file owned by root (uid and gid 0, whoever builds it), with /home, /root,
# /tmp, /dev, /proc and /mnt present, and /bin/su set-user-ID root (su asks
# no password: docs/vfs.md, Credentials and permissions).
# Reproducible like tools/mkimages.sh: fixed UUID, hash seed and times, fixed
# modes (directories 755, programs 755, other files 644, /tmp 1777), so the
# same staging tree gives the same bytes.
set -euo pipefail
FSTYPE=ext2 FEATURES=none,filetype JOURNAL=
if [ "${1:-}" = --ext3 ]; then
    FSTYPE=ext3 FEATURES=none,filetype,has_journal JOURNAL="-J size=4"
    shift
fi
STAGING=$1
IMG=$2
SIZE=${3:-32M}
shift $(( $# >= 3 ? 3 : $# ))
FAKE_TIME=1700000000
UUID=5e11d0c0-0000-4000-8000-0000000000f0
SEED=5e11d0c0-0000-4000-8000-0000000000f1
export E2FSPROGS_FAKE_TIME=$FAKE_TIME
export MKE2FS_CONFIG=/dev/null          # ignore the host's /etc/mke2fs.conf defaults
export TZ=UTC LC_ALL=C PATH=$PATH:/usr/sbin:/sbin

TREE=$IMG.tree
rm -rf "$TREE"
mkdir -p "$(dirname "$IMG")"
cp -R "$STAGING/." "$TREE/"
for extra in "$@"; do cp -R "$extra/." "$TREE/"; done
rm -f "$TREE/.stamp"
mkdir -p "$TREE"/{bin,sbin,etc,home,root,tmp,dev,proc,mnt,tests}

# Modes: programs are whatever has an ELF header; everything else is data.
find "$TREE" -type d -exec chmod 755 {} +
find "$TREE" -type f -exec chmod 644 {} +
find "$TREE" -type f -print0 | while IFS= read -r -d '' f; do
    if [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ]; then chmod 755 "$f"; fi
done
chmod 1777 "$TREE/tmp"
chmod 700 "$TREE/root"
find "$TREE" -exec touch -h -d @$FAKE_TIME {} +

rm -f "$IMG"
mke2fs -q -F -t $FSTYPE -T default -m 0 -b 1024 -r 1 -I 128 -O $FEATURES $JOURNAL \
    -U $UUID -E hash_seed=$SEED,root_owner=0:0 -L vellum-root \
    -d "$TREE" "$IMG" "$SIZE" >"$IMG.log" 2>&1 ||
    { echo "mkrootfs: mke2fs failed for $IMG:" >&2; cat "$IMG.log" >&2; exit 1; }

# mke2fs -d copies ctime (no host tool sets it), atime (reading the tree
# changes it) and the owner from the tree: overwrite them through debugfs.
(cd "$TREE" && find . -mindepth 1 | sort |
    sed "s|^\.\(.*\)|sif \"\1\" ctime $FAKE_TIME\nsif \"\1\" atime $FAKE_TIME\nsif \"\1\" uid 0\nsif \"\1\" gid 0|") > "$IMG.cmds"
if [ -f "$TREE/bin/su" ]; then echo 'sif /bin/su mode 0104755' >> "$IMG.cmds"; fi
debugfs -w -f "$IMG.cmds" "$IMG" >/dev/null 2>&1
rm -rf "$TREE" "$IMG.cmds" "$IMG.log"
e2fsck -fn "$IMG" >/dev/null 2>&1 || { echo "mkrootfs: $IMG is not e2fsck-clean" >&2; exit 1; }
