#!/bin/bash
# tools/installbusybox.sh: put busybox and its applet links on a Vellum disk.
# Layer: host tooling (`make busybox` runs it on the run disk; so does
# tools/rundisk.sh when it makes a fresh run disk from one that had busybox).
#
#   tools/installbusybox.sh BUSYBOX IMAGE     e.g. build/busybox/busybox build/images/rootfs-run.img
#
# Writes, through debugfs (no mount, no root):
#   /bin/busybox          the program (mode 0755, root's)
#   /usr/bin/APPLET       a symlink to /bin/busybox for each of its applets
#                         (`busybox --list`: sh, ps, df, top, vi, awk, ...)
# /usr/bin comes after /bin and /sbin in PATH (the kernel starts init with
# /sbin:/bin:/usr/bin:/tests; init and sh default to /bin:/sbin:/usr/bin),
# so busybox adds what Vellum lacks (top, vi, awk,
# find, ...) and never shadows our own programs: `ps` is ours, `busybox ps`
# or /usr/bin/ps is busybox's.  Running it again replaces what it wrote.
# The applet list comes from running BUSYBOX on the host: directly, or
# through qemu-i386-static where the host kernel cannot run i386 programs.
# The image must not be in use: a QEMU running on it (its lock, in
# /proc/locks) is refused; an ext3 journal left to replay is replayed first
# (e2fsck -E journal_only).  Ends with e2fsck -fn; exit 1 if anything failed.
set -u
BB=$1 IMG=$2
export PATH=$PATH:/usr/sbin:/sbin LC_ALL=C
die() { echo "installbusybox: $*" >&2; exit 1; }
[ -f "$BB" ] || die "no $BB"
[ -f "$IMG" ] || die "no $IMG"
# /proc/locks names a locked file MAJOR:MINOR:INODE (major and minor in hex)
dev=$(stat -c %d "$IMG")
lockid=$(printf '%02x:%02x:%s' $(( (dev >> 8) & 0xfff )) $(( (dev & 0xff) | ((dev >> 12) & 0xfff00) )) "$(stat -c %i "$IMG")")
grep -q " $lockid " /proc/locks 2>/dev/null &&
    die "$IMG is in use (a QEMU is running on it): power it off first"

applets=$("$BB" --list 2>/dev/null) || applets=
[ -n "$applets" ] || { command -v qemu-i386-static >/dev/null 2>&1 && applets=$(qemu-i386-static "$BB" --list 2>/dev/null); }
[ -n "$applets" ] || die "cannot run $BB --list here (no i386 support, no qemu-i386-static)"
n=$(echo "$applets" | wc -l)

# An ext3 disk left by a power cut (needs_recovery: QEMU killed) has its
# last changes in the journal only; debugfs would write under a log the
# next boot replays over its work: the host's e2fsck replays it first.
if dumpe2fs -h "$IMG" 2>/dev/null | grep -q '^Filesystem features:.*needs_recovery'; then
    e2fsck -E journal_only -y "$IMG" >/dev/null 2>&1 || die "cannot replay the journal of $IMG (e2fsck)"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vellum-bbinst.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
q() { printf '"%s"' "$1"; }                    # debugfs quotes a name with "..."
have() { debugfs -R "stat $(q "$1")" "$IMG" 2>/dev/null | grep -q '^Inode:'; }
{
    have /usr || echo "mkdir /usr"
    have /usr/bin || echo "mkdir /usr/bin"
    for d in /usr /usr/bin; do
        echo "sif $d mode 040755"; echo "sif $d uid 0"; echo "sif $d gid 0"
    done
    echo "rm /bin/busybox"
    echo "write $(q "$(readlink -f "$BB")") /bin/busybox"
    echo "sif /bin/busybox mode 0100755"; echo "sif /bin/busybox uid 0"; echo "sif /bin/busybox gid 0"
    echo "$applets" | while IFS= read -r a; do
        echo "rm $(q "/usr/bin/$a")"
        echo "symlink $(q "/usr/bin/$a") /bin/busybox"
    done
} > "$tmp/cmds"
debugfs -w -f "$tmp/cmds" "$IMG" > "$tmp/log" 2>&1
e2fsck -fn "$IMG" > "$tmp/fsck" 2>&1 || { cat "$tmp/fsck" >&2; die "$IMG is not e2fsck-clean after the install"; }
if ! debugfs -R "stat /bin/busybox" "$IMG" 2>/dev/null | grep -q "Size: $(stat -c %s "$BB")\$" ||
   [ "$(debugfs -R 'ls -p /usr/bin' "$IMG" 2>/dev/null | grep -c '^/[0-9]*/120777/')" -lt "$n" ]; then
    grep -i -e error -e 'no space' -e 'could not' "$tmp/log" | head -5 >&2
    die "debugfs did not write everything into $IMG"
fi
echo "installbusybox: $IMG: /bin/busybox and $n applet links in /usr/bin (after /bin and /sbin in PATH: ours first)"
