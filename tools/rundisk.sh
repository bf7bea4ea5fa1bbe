#!/bin/bash
# tools/rundisk.sh: make the writable disk `make qemu` boots from the pristine
# root image, keeping the student's files.  Layer: host tooling (mk/rootfs.mk).
#
#   tools/rundisk.sh PRISTINE RUN        e.g. build/images/rootfs.img build/images/rootfs-run.img
#
# RUN becomes a fresh copy of PRISTINE (the userland changed, so the system
# files must be the new ones).  If RUN existed, it is first kept as RUN.old
# and its /home and /root are carried over into the fresh copy, with their
# modes, owners and times: your files outlive a rebuild.  If the old disk
# had busybox (`make busybox`), tools/installbusybox.sh puts it on the new
# one again.  `make reset-disk` removes RUN, so the next copy starts empty.
#
# The carry-over reads the old disk with debugfs (rdump) and writes the new
# one with debugfs commands (mkdir, write, symlink, mknod, sif), so no mount
# and no root are needed.  debugfs does not replay an ext3 journal: an old
# disk left by a power cut (QEMU killed, needs_recovery set) is read from a
# copy the host's e2fsck replayed first (-E journal_only), so what the log
# held is carried too; RUN.old itself is kept as it was.  Simplifications: a hard-linked file arrives as
# separate copies; extended attributes are not carried.  If the result is
# not e2fsck-clean, RUN is the plain fresh copy and the old disk stays in
# RUN.old (said so).
set -u
PRISTINE=$1 RUN=$2
export PATH=$PATH:/usr/sbin:/sbin
if [ ! -e "$RUN" ]; then
    cp "$PRISTINE" "$RUN"
    exit 0
fi
mv "$RUN" "$RUN.old"
cp "$PRISTINE" "$RUN"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vellum-rundisk.XXXXXX") || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
mkdir -p "$tmp/old"
OLD=$RUN.old
if dumpe2fs -h "$OLD" 2>/dev/null | grep -q '^Filesystem features:.*needs_recovery'; then
    cp --sparse=always "$OLD" "$tmp/old.img" && e2fsck -E journal_only -y "$tmp/old.img" >/dev/null 2>&1
    OLD=$tmp/old.img
fi
carried=
for d in home root; do
    debugfs -R "stat /$d" "$OLD" 2>/dev/null | grep -q 'Type: directory' || continue
    debugfs -R "rdump /$d $tmp/old" "$OLD" >/dev/null 2>&1
    [ -d "$tmp/old/$d" ] && carried="$carried /$d"
done

# debugfs commands for every entry below the carried directories: parents
# before children (find's order), then the metadata of each, directories last
# so that writing into them does not change their times again.
q() { printf '"%s"' "$1"; }                    # debugfs quotes a name with "..."
{
    for d in $carried; do
        echo "rmdir $(q "$d")"
    done
    (cd "$tmp/old" && find ${carried//\//} -print0) | while IFS= read -r -d '' p; do
        h=$tmp/old/$p
        if [ -L "$h" ]; then echo "symlink $(q "/$p") $(q "$(readlink "$h")")"
        elif [ -d "$h" ]; then echo "mkdir $(q "/$p")"
        elif [ -f "$h" ]; then echo "write $(q "$h") $(q "/$p")"
        elif [ -p "$h" ]; then echo "mknod $(q "/$p") p"
        fi
    done
    (cd "$tmp/old" && find ${carried//\//} -depth -print0) | while IFS= read -r -d '' p; do
        h=$tmp/old/$p
        [ -L "$h" ] && continue                # a symlink's own mode is 0777
        echo "sif $(q "/$p") mode 0$(stat -c '%f' "$h" | xargs -I{} printf '%o' 0x{})"
        echo "sif $(q "/$p") uid $(stat -c %u "$h")"
        echo "sif $(q "/$p") gid $(stat -c %g "$h")"
        echo "sif $(q "/$p") mtime @$(stat -c %Y "$h")"
        echo "sif $(q "/$p") atime @$(stat -c %X "$h")"
    done
} > "$tmp/cmds"
debugfs -w -f "$tmp/cmds" "$RUN" > "$tmp/debugfs.log" 2>&1
if e2fsck -fn "$RUN" > "$tmp/fsck.log" 2>&1; then
    echo "*** $PRISTINE was rebuilt (the userland changed): a fresh disk, with${carried:- nothing} carried over from the old one;"
    echo "*** the old disk is kept as $RUN.old"
    # busybox (make busybox) is put back the way it was installed
    if debugfs -R "stat /bin/busybox" "$OLD" 2>/dev/null | grep -q 'Type: regular' &&
       debugfs -R "dump /bin/busybox $tmp/busybox" "$OLD" >/dev/null 2>&1 && chmod 755 "$tmp/busybox"; then
        if bash "$(dirname "$0")/installbusybox.sh" "$tmp/busybox" "$RUN" > "$tmp/bb.log" 2>&1; then
            echo "*** busybox was on the old disk: installed again (/bin/busybox, /usr/bin)"
        else
            echo "*** busybox was on the old disk, installing it again failed: $(tail -1 "$tmp/bb.log") (make busybox)" >&2
        fi
    fi
else
    cp "$PRISTINE" "$RUN"
    echo "*** $PRISTINE was rebuilt: a fresh disk; carrying$carried over failed (e2fsck), your old disk is $RUN.old" >&2
fi
