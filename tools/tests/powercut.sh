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
# The durability rules, each at 1 KiB and 4 KiB blocks, each cut at the
# program's "MODE done" line; every image must be e2fsck -fn clean and every
# file read back with debugfs -R 'cat PATH' exactly (user/tests/powercut.c
# says what each mode does):
#   msync     a shared mapping stores into holes of a new 600 KiB file (direct,
#             indirect, double-indirect blocks), msync(MS_SYNC): the bytes,
#             the size, the name
#   fsyncdir  fsync of a new file, then of its new directory: the name is there
#   sync      creates, an unlink, a rename, a truncate, then sync(2)
#   enospc    a full filesystem; /pc/secret unlinked (its freed blocks still
#             hold its bytes); a mapping stores 12 KiB into holes of /pc/hole,
#             msync meets ENOSPC in writeback (mid-page at 1 KiB): /pc/hole
#             holds its own bytes then zeros (6 of 12 KiB at 1 KiB blocks,
#             8 at 4 KiB), never /pc/secret's; /pc/filler exact
#   fsyncchurn  fsync of a file, 10 times, while another process creates and
#             unlinks files: all 10 done within 60 s of guest time (the guest's
#             watchdog prints FAIL otherwise; before the fix of issue 22 no
#             fsync returned), then the 10 KiB exact.  QEMU writes the image
#             with cache=directsync, so that every write sleeps, as on a real
#             disk, and the churning process runs meanwhile.
# host-timeout: 240
# smp-pass: make check runs it again on four CPUs (tools/run-tests, SMP_CPUS)
source "$(dirname "$0")/../testlib.sh"
T=powercut
init_test_begin powercut || exit 0      # a small root: the program, the mount points

# mkimg MODE BLOCKSIZE IMAGE [MKE2FS-OPTIONS]
mkimg() {
    echo "$1" > "$R/etc/powercut"
    rm -f "$3"
    mke2fs -q -t ext2 -b "$2" ${4:-} -d "$R" "$3" 8M >"$TMP/mkfs.log" 2>&1 ||
        { fail "$T.mkfs ($1 $2)"; show_tail "$TMP/mkfs.log"; return 1; }
}

# boot NAME IMAGE MARKER APPEND [READY]: boot until MARKER is printed, then
# kill -9 QEMU (or until it exits by itself when MARKER is empty).  With
# READY (a command), after the marker wait until READY succeeds (at most
# 40 s more) before the kill.  1 on a timeout (BOOT_SECS, 60 by default).
# DRIVE_OPTS is added to the disk's -drive options.
boot() {
    local log=$TMP/$1.log deadline=$((SECONDS + ${BOOT_SECS:-60})) ready=${5:-}
    : > "$log"
    qemu_cut "$log" "$2" "root=hda init=/tests/powercut $4" "${DRIVE_OPTS:-}"
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
same_bytes() {         # NAME IMAGE PATH KEY LEN
    rm -f "$TMP/dump" "$TMP/exp"
    debugfs -R "dump -p $3 $TMP/dump" "$2" >/dev/null 2>&1
    "$VP" "$4" "$5" > "$TMP/exp"
    if [ -f "$TMP/dump" ] && cmp -s "$TMP/dump" "$TMP/exp"; then pass "$1"
    else fail "$1 ($3: $(stat -c %s "$TMP/dump" 2>/dev/null || echo missing) bytes, not the $5 expected)"; fi
}
# same_file NAME IMAGE PATH EXPECTED: debugfs -R 'cat PATH' reads EXPECTED's bytes.
same_file() {
    if ! debugfs -R "stat $3" "$2" 2>&1 | grep -q "^Inode:"; then
        fail "$1 ($3 missing)"; return
    fi
    debugfs -R "cat $3" "$2" 2>/dev/null > "$TMP/cat"
    if cmp -s "$TMP/cat" "$4"; then pass "$1"
    else fail "$1 ($3: $(stat -c %s "$TMP/cat") bytes, not the $(stat -c %s "$4") expected$(cmp "$TMP/cat" "$4" 2>/dev/null | sed 's/.*differ: / (first difference at /;s/$/)/')"; fi
}
missing() {            # NAME IMAGE PATH
    if debugfs -R "stat $3" "$2" 2>&1 | grep -q "^Inode:"; then fail "$1 ($3 still there)"
    else pass "$1"; fi
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

# ---- the durability rules, both block sizes
# cut_at MODE BS [MKE2FS-OPTIONS]: make the image, boot, cut at "MODE done";
# sets N (the check names' prefix) and I; 1 (after a FAIL) if no marker.
cut_at() {
    N=$T.$1$(( $2 / 1024 ))k
    I=$TMP/$1$2.img
    mkimg "$1" "$2" "$I" "${3:-}" || return 1
    if ! boot "$1$2" "$I" "$1 done" ""; then
        fail "$N.marker (no '$1 done')"; show_tail "$TMP/$1$2.log" 20; return 1
    fi
    pass "$N.marker"
    no_fail_lines "$N.no_errors" "$TMP/$1$2.log"
    fsck_clean "$N.fsck" "$I"
}
E=$TMP/expected
for bs in 1024 4096; do
    # msync(MS_SYNC) of a shared mapping that filled holes (pages 0, 5, 100
    # and the last of 600 KiB + 100 bytes)
    if cut_at msync $bs; then
        len=$((600 * 1024 + 100))
        rm -f "$E"; truncate -s $len "$E"
        for pg in 0 5 100 $((len / 4096)); do
            off=$((pg * 4096)); n=$((len - off < 4096 ? len - off : 4096))
            "$VP" -w "$E" map $off $n
        done
        same_file "$N.bytes" "$I" /pc/m/map "$E"
    fi
    # fsync of a new file, then of its new directory
    if cut_at fsyncdir $bs; then
        "$VP" new 3000 > "$E"; same_file "$N.bytes" "$I" /pc/d/new "$E"
    fi
    # sync(2) after creates, an unlink, a rename and a truncate
    if cut_at sync $bs; then
        "$VP" a $((300 * 1024)) > "$E"; same_file "$N.a" "$I" /pc/s/a "$E"
        "$VP" b 1 > "$E";               same_file "$N.b" "$I" /pc/s/b "$E"
        "$VP" old 7000 > "$E";          same_file "$N.renamed" "$I" /pc/s/renamed "$E"
        "$VP" short 1000 > "$E";        same_file "$N.truncated" "$I" /pc/s/short "$E"
        missing "$N.unlinked" "$I" /pc/s/gone
        missing "$N.rename_source" "$I" /pc/s/old
    fi
    # ENOSPC in writeback, in blocks an unlinked file left its bytes in
    # (-m 0: no blocks reserved for root, so the program fills them all)
    if cut_at enospc $bs "-m 0"; then
        log=$TMP/enospc$bs.log
        kept=$(( bs == 1024 ? 6144 : 8192 ))     # the freed blocks: 6 x 1 KiB, 2 x 4 KiB
        rm -f "$E"; truncate -s 12288 "$E"; "$VP" -w "$E" hole 0 $kept
        same_file "$N.hole" "$I" /pc/hole "$E"
        # no 1 KiB of /pc/hole is 1 KiB of /pc/secret (said apart from a
        # mismatch of another kind)
        "$VP" secret 6144 > "$TMP/secret"
        debugfs -R "cat /pc/hole" "$I" 2>/dev/null > "$TMP/hole"
        seen=
        for k in 0 1 2 3 4 5 6 7 8 9 10 11; do
            for j in 0 1 2 3 4 5; do
                cmp -s -n 1024 -i $((k * 1024)):$((j * 1024)) "$TMP/hole" "$TMP/secret" &&
                    seen="${seen:+$seen, }KiB $k of /pc/hole is KiB $j of /pc/secret"
            done
        done
        if [ -z "$seen" ]; then pass "$N.no_secret"; else fail "$N.no_secret ($seen)"; fi
        flen=$(tr -d '\r' < "$log" | sed -n 's/^powercut: filler \([0-9]*\) bytes.*/\1/p')
        if [ -n "$flen" ] && [ "$flen" -gt 0 ]; then
            "$VP" filler "$flen" > "$E"; same_file "$N.filler" "$I" /pc/filler "$E"
        else fail "$N.filler (no length in the log)"; fi
        missing "$N.secret_unlinked" "$I" /pc/secret
        if grep -q "^powercut: msync -1 errno 28" "$log"; then pass "$N.msync_enospc"
        else fail "$N.msync_enospc ($(grep -m1 '^powercut: msync' "$log" | tr -d '\r'))"; fi
    fi
done

# ---- fsync under churn: bounded by what was dirty when it began (issue 22)
for bs in 1024 4096; do
    N=$T.fsyncchurn$((bs / 1024))k
    I=$TMP/fsyncchurn$bs.img
    mkimg fsyncchurn $bs "$I" || continue
    if ! DRIVE_OPTS=cache=directsync BOOT_SECS=150 boot fsyncchurn$bs "$I" "fsyncchurn done" ""; then
        fail "$N.marker (no 'fsyncchurn done')"; show_tail "$TMP/fsyncchurn$bs.log" 20; continue
    fi
    log=$TMP/fsyncchurn$bs.log
    took=$(tr -d '\r' < "$log" | sed -n 's/^powercut: fsyncchurn \(10 fsyncs in .*\)/\1/p')
    if [ -n "$took" ]; then pass "$N.fsyncs ($took, guest time)"
    else fail "$N.fsyncs ($(grep -m1 'FAIL' "$log" | tr -d '\r'))"; fi
    no_fail_lines "$N.no_errors" "$log"
    fsck_clean "$N.fsck" "$I"
    "$VP" log 10240 > "$E"; same_file "$N.bytes" "$I" /pc/log "$E"
done
exit 0
