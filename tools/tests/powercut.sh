#!/bin/bash
# tools/tests/powercut.sh: the superblock's clean/not-clean state, fsync and
# the flusher across a power cut (host test).  Boots the production kernel
# with root=hda init=/tests/powercut (user/tests/powercut.c) on a small ext2
# root whose /etc/powercut names the scenario:
#   clean     the program writes a file and powers off: the image must be
#             e2fsck -fn clean, "Filesystem state: clean", mount count 1.
#   fsync     (1 KiB and 4 KiB blocks) mkdir + create + write unsynced, then
#             write + fsync another file; QEMU is killed (SIGKILL, a power cut)
#             at the program's "fsync done" line.  The image must be e2fsck -fn
#             clean, the fsync'd file's bytes exact (debugfs), the state
#             "not clean" with mount count 1, and e2fsck -p must check it
#             ("was not cleanly unmounted").
#   flusher   1 MiB written, never synced, with dirty_expire=200 (2 s) and
#             dirty_writeback=100: the program sleeps 5 s, QEMU is killed at
#             "slept".  e2fsck -fn clean and the 1 MiB exact: the flusher wrote
#             the data, the inode, the directory blocks and the bitmaps.
source "$(dirname "$0")/../testlib.sh"
T=powercut
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-powercut.XXXXXX") || exit 1
QPID=
trap '[ -n "$QPID" ] && kill -9 "$QPID" 2>/dev/null; [ "${KEEP:-}" = 1 ] && echo "kept $TMP" || rm -rf "$TMP"' EXIT

make -s --no-print-directory BUILD="$BUILD" all user >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
VP=$TMP/vpattern
gcc -O2 -o "$VP" tools/vpattern.c 2>"$TMP/gcc.log" ||
    { fail "$T.vpattern_build"; show_tail "$TMP/gcc.log"; exit 0; }
# A small root: init, the program, the mount points.
R=$TMP/root
mkdir -p "$R/tests" "$R/etc" "$R/dev" "$R/proc" "$R/tmp"
cp "$BUILD/rootfs/tests/powercut" "$R/tests/"

# mkimg MODE BLOCKSIZE IMAGE
mkimg() {
    echo "$1" > "$R/etc/powercut"
    rm -f "$3"
    mke2fs -q -t ext2 -b "$2" -d "$R" "$3" 8M >"$TMP/mkfs.log" 2>&1 ||
        { fail "$T.mkfs ($1 $2)"; show_tail "$TMP/mkfs.log"; return 1; }
}

# boot NAME IMAGE MARKER APPEND [READY]: boot until MARKER is printed, then
# kill -9 QEMU (or until it exits by itself when MARKER is empty).  With
# READY (a command), after the marker wait until READY succeeds (at most
# 40 s more) before the kill.  1 on a timeout.
boot() {
    local log=$TMP/$1.log deadline=$((SECONDS + 60)) ready=${5:-}
    : > "$log"
    # QEMU itself in the background, not under timeout(1): the kill -9 below
    # must hit QEMU (a `timeout` killed with -9 leaves its QEMU running, an
    # orphan that keeps make check's descriptors, the check lock among them,
    # for good).  The loop's deadline bounds the boot instead.
    "$QEMU" -accel tcg -display none -no-reboot -m 64M -nic none \
        -monitor none -serial "file:$log" -kernel "$KERNEL" \
        -append "root=hda init=/tests/powercut $4" \
        -drive "file=$2,format=raw,if=ide,index=0" </dev/null >"$log.qemu" 2>&1 &
    QPID=$!
    while kill -0 "$QPID" 2>/dev/null; do
        if [ -n "$3" ] && grep -q "powercut: $3" "$log"; then
            if [ -n "$ready" ]; then
                local until=$((SECONDS + 40))
                while ! $ready && [ $SECONDS -lt $until ]; do sleep 0.5; done
            fi
            kill -9 "$QPID"                # the power cut
            break
        fi
        [ $SECONDS -ge $deadline ] && { kill -9 "$QPID"; wait "$QPID" 2>/dev/null; QPID=; return 1; }
        sleep 0.1
    done
    wait "$QPID" 2>/dev/null
    QPID=
    [ -z "$3" ] || grep -q "powercut: $3" "$log"
}

# Checks shared by the scenarios.
no_fail_lines() {      # NAME LOG
    if grep -q "powercut: FAIL\|Oops\|Kernel panic\|BUG:" "$2"; then
        fail "$1 ($(grep -m1 "powercut: FAIL\|Oops\|Kernel panic\|BUG:" "$2" | tr -d '\r'))"
    else pass "$1"; fi
}
fsck_clean() {         # NAME IMAGE
    if e2fsck -fn "$2" >"$TMP/fsck.log" 2>&1; then pass "$1"
    else fail "$1"; show_tail "$TMP/fsck.log" 15; fi
}
same_bytes() {         # NAME IMAGE PATH KEY LEN
    rm -f "$TMP/dump" "$TMP/exp"
    debugfs -R "dump -p $3 $TMP/dump" "$2" >/dev/null 2>&1
    "$VP" "$4" "$5" > "$TMP/exp"
    if [ -f "$TMP/dump" ] && cmp -s "$TMP/dump" "$TMP/exp"; then pass "$1"
    else fail "$1 ($3: $(stat -c %s "$TMP/dump" 2>/dev/null || echo missing) bytes, not the $5 expected)"; fi
}
sb_field() { dumpe2fs -h "$1" 2>/dev/null | sed -n "s/^$2: *//p"; }   # IMAGE FIELD
sb_is() {              # NAME IMAGE FIELD VALUE
    local v; v=$(sb_field "$2" "$3")
    if [ "$v" = "$4" ]; then pass "$1"; else fail "$1 ($3 is '$v', expected '$4')"; fi
}

# ---- clean: power off after a write
I=$TMP/clean.img
if mkimg clean 1024 "$I"; then
    if boot clean "$I" "" ""; then
        if grep -q "power off\|Power down" "$TMP/clean.log"; then pass "$T.clean.powered_off"
        else fail "$T.clean.powered_off"; show_tail "$TMP/clean.log" 15; fi
        no_fail_lines "$T.clean.no_errors" "$TMP/clean.log"
        fsck_clean "$T.clean.fsck" "$I"
        sb_is "$T.clean.state_clean" "$I" "Filesystem state" clean
        sb_is "$T.clean.mount_count" "$I" "Mount count" 1
        same_bytes "$T.clean.bytes" "$I" /pc/clean clean 3000
    else fail "$T.clean.boot (timed out)"; show_tail "$TMP/clean.log" 20; fi
fi

# ---- fsync: power cut right after fsync, both block sizes
for bs in 1024 4096; do
    [ $bs = 4096 ] && N=$T.fsync4k || N=$T.fsync1k
    I=$TMP/fsync$bs.img
    mkimg fsync $bs "$I" || continue
    if ! boot fsync$bs "$I" "fsync done" ""; then
        fail "$N.marker (no 'fsync done')"; show_tail "$TMP/fsync$bs.log" 20; continue
    fi
    pass "$N.marker"
    no_fail_lines "$N.no_errors" "$TMP/fsync$bs.log"
    fsck_clean "$N.fsck" "$I"
    same_bytes "$N.synced_bytes" "$I" /pc/synced synced 20000
    sb_is "$N.state_not_clean" "$I" "Filesystem state" "not clean"
    sb_is "$N.mount_count" "$I" "Mount count" 1
    cp "$I" "$TMP/p.img"
    out=$(e2fsck -p "$TMP/p.img" 2>&1); rc=$?
    if [ $rc -le 1 ] && echo "$out" | grep -q "not cleanly unmounted, check forced"; then
        pass "$N.e2fsck_p_checks"
    else fail "$N.e2fsck_p_checks (rc $rc: $out)"; fi
done

# ---- flusher: unsynced work older than dirty_expire survives the cut.
# The program sleeps 5 s past its write (expiry 2 s, period 1 s); on a loaded
# host the flusher's pass (1 MiB by PIO under TCG) may still be running then,
# so the cut waits until a copy of the live image reads back the file (a
# readiness probe only: the verdicts below are on the image after the cut).
I=$TMP/flusher.img
flushed() {
    cp "$I" "$TMP/live.img" && rm -f "$TMP/live"
    debugfs -R "dump -p /pc/fl/big $TMP/live" "$TMP/live.img" >/dev/null 2>&1
    "$VP" big $((1 << 20)) | cmp -s - "$TMP/live" 2>/dev/null
}
if mkimg flusher5 1024 "$I"; then
    if boot flusher "$I" "slept" "dirty_expire=200 dirty_writeback=100" flushed; then
        pass "$T.flusher.marker"
        no_fail_lines "$T.flusher.no_errors" "$TMP/flusher.log"
        fsck_clean "$T.flusher.fsck" "$I"
        same_bytes "$T.flusher.bytes" "$I" /pc/fl/big big $((1 << 20))
    else fail "$T.flusher.marker (no 'slept')"; show_tail "$TMP/flusher.log" 20; fi
fi
exit 0
