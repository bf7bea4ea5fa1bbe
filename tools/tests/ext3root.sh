#!/bin/bash
# tools/tests/ext3root.sh: the root disk of `make qemu` is ext3, and a power
# cut at its shell loses nothing that was synced or committed.  Host test
# (the production kernel, init, sh, the utilities, ext3 and JBD together).
#
# A copy of build/images/rootfs.img (tools/mkrootfs.sh --ext3, the image
# `make qemu` boots) is booted with root=hda and COM1 on FIFOs, under -icount
# (tools/testlib.sh), so the guest's clock counts its instructions:
#   boot 1  /home/a is written and synced (fsync's path: the running
#           transaction committed); /home/b is written, then the shell
#           sleeps 7 s of guest time, past kjournald's 5 s commit interval,
#           so the timer commits it; /home/c is written; then QEMU is killed
#           (SIGKILL: the plug pulled, no unmount)
#           (its boot lines "VFS: Mounted root (ext3 filesystem)" and "mount:
#           hda (ext3) on /" name the type mounted, not the ext2 asked for)
#   host    the image is still ext3 with needs_recovery set (the log holds
#           the transactions); a copy replayed by the host's e2fsck
#           (-E journal_only) is fsck-clean and holds /home/a and /home/b
#   boot 2  Vellum replays the log at the mount ("journal replayed"), the
#           shell reads /home/a and /home/b back, /proc/mounts and mount
#           name the root ext3 (as Linux), poweroff
#   host    e2fsck -fn clean, needs_recovery clear, the state clean, and
#           debugfs reads /home/a and /home/b back
# /home/c may or may not have survived (not committed at the cut): only
# e2fsck's verdict covers it.
source "$(dirname "$0")/../testlib.sh"
T=ext3root
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-ext3root.XXXXXX") || exit 1
QPID=
cleanup() {
    [ -n "$QPID" ] && kill -9 "$QPID" 2>/dev/null
    exec 3>&- 2>/dev/null
    [ "${KEEP:-}" = 1 ] && echo "kept $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT
export PATH=$PATH:/usr/sbin:/sbin

make -s --no-print-directory BUILD="$BUILD" all >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
IMG=$TMP/root.img
cp "$BUILD/images/rootfs.img" "$IMG"
features() { dumpe2fs -h "$1" 2>/dev/null | sed -n 's/^Filesystem features: *//p'; }
fstate() { dumpe2fs -h "$1" 2>/dev/null | sed -n 's/^Filesystem state: *//p'; }
has() { case " $(features "$1") " in *" $2 "*) return 0 ;; esac; return 1; }
dfs_cat() { debugfs -R "cat $2" "$1" 2>/dev/null; }

if has "$IMG" has_journal && ! has "$IMG" needs_recovery; then pass "$T.image_is_ext3"
else fail "$T.image_is_ext3 (features: $(features "$IMG"))"; fi

# boot N: the production kernel as make qemu runs it (root=hda, two CPUs:
# mk/run.mk's CPUS), under -icount
boot() {
    console_open "$TMP/serial$1.log"
    LOG=$CONSOLE_LOG NP=0 LOST=0
    # QEMU itself in the background, not under timeout(1): the kill below
    # must reach the emulator (CONSOLE_DEADLINE bounds every wait)
    "$QEMU" -accel tcg ${ICOUNT:+-icount "$ICOUNT"} -display none \
        -no-reboot -m 128M -smp 2 -nic none -monitor none -serial "$CONSOLE_SERIAL" \
        -device isa-debug-exit,iobase=0xf4,iosize=0x04 -kernel "$KERNEL" -append "root=hda" \
        -drive "file=$IMG,format=raw,if=ide,index=0" </dev/null >"$TMP/qemu$1.out" 2>&1 &
    QPID=$! CONSOLE_PID=$!
    CONSOLE_DEADLINE=$((SECONDS + $(backstop 300)))
}
log() { tr -d '\r' < "$LOG"; }

# ---- boot 1: write, sync, let the timer commit, write, pull the plug
boot 1
console_next "echo synced-bytes > /home/a"
console_next "sync"
console_next "echo timer-bytes > /home/b"
console_next "sleep 7"
console_next "echo not-committed > /home/c"
NP=$((NP + 1))
if [ "$LOST" = 0 ] && console_wait $NP "$(backstop 60)"; then
    kill -9 "$QPID"; wait "$QPID" 2>/dev/null; QPID=
    pass "$T.boot1_session"
else
    fail "$T.boot1_session (no prompt #$NP)"; show_tail "$LOG" 20
    kill -9 "$QPID" 2>/dev/null; wait "$QPID" 2>/dev/null; QPID=
    exit 0
fi
exec 3>&-
if log | grep -q "ext3: hda: mounted with a journal"; then pass "$T.boot1_journaled"
else fail "$T.boot1_journaled (no 'mounted with a journal' line)"; show_tail "$LOG" 20; fi
# the boot lines name the type mounted (root=hda asks for ext2; the disk has
# a journal, so it is ext3), as Linux's "VFS: Mounted root (ext3 filesystem)"
if log | grep -qx "VFS: Mounted root (ext3 filesystem) on device hda\." &&
   log | grep -qx "mount: hda (ext3) on /"; then pass "$T.boot1_vfs_line_names_ext3"
else fail "$T.boot1_vfs_line_names_ext3 ($(log | grep -E '^(VFS: Mounted root|mount: hda)' | tr '\n' ' '))"; fi

# ---- the host: the cut left a log to replay
if has "$IMG" needs_recovery; then pass "$T.cut_needs_recovery"
else fail "$T.cut_needs_recovery (features: $(features "$IMG"))"; fi
cp "$IMG" "$TMP/host.img"
e2fsck -fy -E journal_only "$TMP/host.img" >"$TMP/host-replay.log" 2>&1
if e2fsck -fn "$TMP/host.img" >"$TMP/host-fsck.log" 2>&1 &&
   [ "$(dfs_cat "$TMP/host.img" /home/a)" = synced-bytes ] &&
   [ "$(dfs_cat "$TMP/host.img" /home/b)" = timer-bytes ]; then
    pass "$T.host_replay"
else
    fail "$T.host_replay (the host's e2fsck replay: a='$(dfs_cat "$TMP/host.img" /home/a)' b='$(dfs_cat "$TMP/host.img" /home/b)')"
    show_tail "$TMP/host-fsck.log" 10
fi

# ---- boot 2: Vellum's replay, read back, power off
boot 2
console_next "cat /home/a /home/b"
console_next "cat /proc/mounts"
console_next "mount"
console_next "poweroff"
while kill -0 "$QPID" 2>/dev/null && [ $SECONDS -lt "$CONSOLE_DEADLINE" ]; do sleep 0.3; done
kill -9 "$QPID" 2>/dev/null; wait "$QPID" 2>/dev/null; QPID=
exec 3>&-
if log | grep -q "ext3: hda: journal replayed: [1-9][0-9]* transactions"; then pass "$T.boot2_replayed"
else fail "$T.boot2_replayed (no 'journal replayed' line at the mount)"; show_tail "$LOG" 30; fi
if log | grep -qx "synced-bytes" && log | grep -qx "timer-bytes"; then pass "$T.boot2_read_back"
else fail "$T.boot2_read_back (cat printed: $(log | grep -A2 'cat /home/a' | tail -2 | tr '\n' ' '))"; fi
if log | grep -q '^hda / ext3 rw'; then pass "$T.boot2_mounts_ext3"
else fail "$T.boot2_mounts_ext3 (/proc/mounts: $(log | grep '^hda / ' | head -1))"; fi
if log | grep -q '^hda on / type ext3 (rw'; then pass "$T.boot2_mount_lists_ext3"
else fail "$T.boot2_mount_lists_ext3 (mount: $(log | grep '^hda on / ' | head -1))"; fi
if log | grep -q "power off: root (hda) synced and read-only"; then pass "$T.boot2_poweroff"
else fail "$T.boot2_poweroff"; show_tail "$LOG" 10; fi

# ---- the host after a clean power off
if e2fsck -fn "$IMG" >"$TMP/fsck.log" 2>&1; then pass "$T.fsck_clean"
else fail "$T.fsck_clean"; show_tail "$TMP/fsck.log" 15; fi
if has "$IMG" has_journal && ! has "$IMG" needs_recovery && [ "$(fstate "$IMG")" = clean ]; then
    pass "$T.clean_unmount"
else fail "$T.clean_unmount (features: $(features "$IMG"); state: $(fstate "$IMG"))"; fi
if [ "$(dfs_cat "$IMG" /home/a)" = synced-bytes ] && [ "$(dfs_cat "$IMG" /home/b)" = timer-bytes ]; then
    pass "$T.files_on_disk"
else fail "$T.files_on_disk (a='$(dfs_cat "$IMG" /home/a)' b='$(dfs_cat "$IMG" /home/b)')"; fi
