#!/bin/bash
# tools/tests/ext3powercut.sh: ext3's crash consistency under a busy
# workload, the power-cut campaign of issue 24 (host test; its short form
# runs in make check, `make powercut-ext3` the long one).  For each block
# size (1 KiB, 4 KiB) and each of EXT3_CUTS cuts (default 2):
#   1. a fresh ext3 root (mke2fs -t ext3, 16 MiB) boots the production
#      kernel with init=/tests/ext3work (user/tests/ext3work.c): an
#      appender fsyncs 1 KiB records, a churner creates, renames, unlinks
#      and truncates files and makes and removes directories, a mapper
#      msyncs rounds of a shared mapping;
#   2. QEMU is killed (SIGKILL: the power cut) once the log has a random
#      number of durable records (2 .. 25), a random fraction of a second
#      later (EXT3_SEED seeds the choice; the seed is printed);
#   3. recovery, four ways, each from a copy of the cut image:
#        A  Vellum, "ro": the mount replays the journal and writes nothing
#           else (no orphan cleanup on a read-only mount)
#        Y  the host's replay alone (debugfs -w -R journal_run)
#        C  Vellum, read-write: the replay, the orphan list freed, a clean
#           unmount
#        B  the host's e2fsck -E journal_only (the replay, and the orphans)
# Checks per cut: no FAIL line, oops, panic, BUG or WARNING in any boot; the
# check boots powered off; A equals Y byte for byte (but for three
# superblock fields each side stamps its own way: s_wtime, s_lastcheck,
# s_kbytes_written); C and B are e2fsck -fn clean; every record fsync'd
# before the cut is in C's /w/log; each sector of C's /w/map holds the
# last msync'd round or a later one (map_rounds, below).
# host-timeout: 900
# smp-pass: make check runs it again on four CPUs (tools/run-tests, SMP_CPUS)
source "$(dirname "$0")/../testlib.sh"
T=ext3powercut
CUTS=${EXT3_CUTS:-2}
SEED=${EXT3_SEED:-$(( $(date +%s) % 100000 ))}
RANDOM=$SEED
init_test_begin ext3work || exit 0
echo "$T: seed $SEED (EXT3_SEED=$SEED repeats these cuts), $CUTS cuts per block size"

# qemu LOG IMAGE APPEND: start the workload's kernel in the background (QPID)
qemu() { qemu_cut "$1" "$2" "root=hda init=/tests/ext3work $3"; }
# records LOG: the last "ext3work: log N" (0 if none)
records() { tr -d '\r' < "$1" | sed -n 's/^ext3work: log \([0-9]*\)$/\1/p' | tail -1 | grep . || echo 0; }
rounds() { tr -d '\r' < "$1" | sed -n 's/^ext3work: map \([0-9]*\)$/\1/p' | tail -1 | grep . || echo 0; }
# work LOG IMAGE TARGET: run the workload until TARGET records are durable,
# wait a random 0..0.9 s, cut.  1 if it never got there (60 s of wall
# clock times TIMEOUT_FACTOR, testlib's backstop: the workload runs without
# -icount, so that the cut lands at a random instruction, and four CPUs
# under TCG on a loaded host write a record a second or slower).
work() {
    local deadline=$((SECONDS + $(backstop 60)))
    qemu "$1" "$2" ""
    while kill -0 "$QPID" 2>/dev/null; do
        if [ "$(records "$1")" -ge "$3" ]; then
            sleep "0.$((RANDOM % 10))"
            kill -9 "$QPID"            # the power cut
            wait "$QPID" 2>/dev/null; QPID=
            return 0
        fi
        [ $SECONDS -ge $deadline ] && break
        sleep 0.1
    done
    kill -9 "$QPID" 2>/dev/null; wait "$QPID" 2>/dev/null; QPID=
    return 1
}
# check LOG IMAGE [ro]: a recovery boot; 1 if it did not power off (60 s
# times TIMEOUT_FACTOR)
check() {
    local deadline=$((SECONDS + $(backstop 60)))
    qemu "$1" "$2" "ext3work=check ${3:-}"
    while kill -0 "$QPID" 2>/dev/null; do
        [ $SECONDS -ge $deadline ] && { kill -9 "$QPID"; wait "$QPID" 2>/dev/null; QPID=; return 1; }
        sleep 0.1
    done
    wait "$QPID" 2>/dev/null; QPID=
    grep -q "ext3work: check" "$1"
}
# log_kept NAME IMAGE N: /w/log begins with the N records
log_kept() {
    debugfs -R "cat /w/log" "$2" 2>/dev/null > "$TMP/log"
    "$VP" log $(($3 * 1024)) > "$TMP/exp"
    if [ "$(stat -c %s "$TMP/log")" -ge $(($3 * 1024)) ] &&
       cmp -s -n $(($3 * 1024)) "$TMP/log" "$TMP/exp"; then pass "$1 ($3 records)"
    else fail "$1 (/w/log: $(stat -c %s "$TMP/log") bytes; $3 records were fsync'd)"; fi
}
# map_rounds NAME IMAGE R: each 512-byte sector of /w/map (the disk's
# unit: a cut may land between the sectors of one page's write) holds round
# R, R+1 or R+2 (msync of R returned; R+1 may have been msync'd since and
# R+2 stored and written back by the flusher before the cut; round 0: the
# zeros of ftruncate).  Never an older round, never zeros after round 1.
map_rounds() {
    local s k ok bad=
    debugfs -R "cat /w/map" "$2" 2>/dev/null > "$TMP/map"
    for k in 0 1 2; do
        if [ $(($3 + k)) = 0 ]; then head -c 16384 /dev/zero > "$TMP/r$k"
        else "$VP" map$(($3 + k)) 16384 > "$TMP/r$k"; fi
    done
    [ "$(stat -c %s "$TMP/map")" = 16384 ] || bad="size $(stat -c %s "$TMP/map")"
    for s in $(seq 0 31); do
        ok=
        for k in 0 1 2; do
            cmp -s -n 512 -i $((s * 512)) "$TMP/map" "$TMP/r$k" && ok=1 && break
        done
        [ -n "$ok" ] || bad="$bad sector $s"
    done
    if [ -z "$bad" ]; then pass "$1 (round $3)"; else fail "$1 (round $3:$bad)"; fi
}

# the campaign's tally (printed last): cuts made, and cuts with each kind
# of failure
cuts=0 bad_fsck=0 bad_replay=0 lost=0 bad_map=0 bad_boot=0
tally() {              # VAR NAME: count the cut in VAR if check NAME failed
    grep -q "^FAIL $2\b" "$TMP/results" && eval "$1=\$(($1 + 1))"
}
fail() { echo "FAIL $*"; echo "FAIL $*" >> "$TMP/results"; }
: > "$TMP/results"
for bs in 1024 4096; do
    for i in $(seq 1 "$CUTS"); do
        N=$T.$((bs / 1024))k.$i
        I=$TMP/cut.img
        rm -f "$I"
        mke2fs -q -t ext3 -b $bs -d "$R" "$I" 16M >"$TMP/mkfs.log" 2>&1 ||
            { fail "$N.mkfs"; show_tail "$TMP/mkfs.log"; continue; }
        target=$((2 + RANDOM % 24))
        if ! work "$TMP/work.log" "$I" $target; then
            fail "$N.workload (not $target records in $(backstop 60) s)"; show_tail "$TMP/work.log" 20; continue
        fi
        n=$(records "$TMP/work.log") r=$(rounds "$TMP/work.log")
        ext3_recover "$N" "$I" check replay_boot recovery_boot "$TMP/work.log"
        cp "$I" "$TMP/b.img"
        e2fsck -E journal_only -y "$TMP/b.img" >"$TMP/replay.log" 2>&1
        fsck_clean "$N.fsck_host" "$TMP/b.img"
        log_kept "$N.fsynced_records" "$TMP/c.img" "$n"
        map_rounds "$N.msynced_map" "$TMP/c.img" "$r"
        cuts=$((cuts + 1))
        tally bad_boot "$N.no_errors"
        tally bad_fsck "$N.fsck_vellum"
        tally bad_replay "$N.replay_same_as_host"
        tally lost "$N.fsynced_records"
        tally bad_map "$N.msynced_map"
        [ "${KEEP:-}" = 1 ] && cp "$I" "$TMP/cut-$bs-$i.img" && cp "$TMP/work.log" "$TMP/work-$bs-$i.log"
    done
done
echo "$T: $cuts cuts (seed $SEED): $bad_fsck rejected by e2fsck -fn after Vellum's recovery," \
     "$bad_replay replays not equal to the host's, $lost with fsync'd records lost," \
     "$bad_map with a map page of no msync'd round, $bad_boot with an error in a boot"
exit 0
