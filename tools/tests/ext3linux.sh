#!/bin/bash
# tools/tests/ext3linux.sh: Vellum recovers a journal that a real Linux
# kernel left (issue 24: "Vellum replays one Linux left"; the other way
# round, the host's e2fsck replaying Vellum's, is tools/tests/ext3powercut.sh).
# Host test.  For 1 KiB and 4 KiB blocks:
#   1. a fresh ext3 image (mke2fs -t ext3, 16 MiB) holding /ext3linux
#      (tools/tests/ext3linux.c, gcc -m32 -static) and Vellum's
#      /tests/ext3work boots Debian's Linux 6.1 (tools/linuxvm.sh: its ext4
#      driver mounts it as ext3 on /mnt) with /mnt/ext3linux as the work:
#      files of the test pattern fsync'd, renamed, unlinked, directories
#      made and fsync'd, a log of fsync'd records, then unsynced work, then
#      reboot(RB_POWER_OFF): no sync, no unmount;
#   2. the precondition (ext3linux.*.journal_left): the image has
#      needs_recovery set, a journal start that is not 0, and committed
#      transactions in its log (debugfs logdump); the rest means nothing
#      without it, and is not run;
#   3. recovery three ways, each from a copy:
#        A  Vellum, root mounted "ro" (init=/tests/ext3work ext3work=check,
#           user/tests/ext3work.c): the replay alone
#        Y  the host's replay alone (debugfs -w -R journal_run)
#        C  Vellum, read-write: the replay and a clean unmount
# Checks: Linux's program and both Vellum boots ran to their end with no
# FAIL, Oops, BUG or WARNING line; each Vellum mount said it replayed as
# many transactions as logdump counts; A equals Y byte for byte (but for
# the superblock fields each side stamps: testlib's same_replay); C is
# e2fsck -fn clean; in C every file Linux fsync'd holds its exact bytes
# and every name it removed and fsync'd the directory of is gone.
# Every boot counts guest instructions (-icount): Linux's under
# linuxvm.sh's shift=0, Vellum's under testlib's; the host's time-outs are
# backstops.  SKIP if the host's gcc -m32 -static cannot link, or if
# Debian's kernel is not in ~/.cache/vellum and apt-get cannot fetch it
# (linux_setup; make check's machine fetches it once, as make bench-linux
# does).  EXT3LINUX_CLEAN=1 lets Linux unmount (the precondition must
# then fail: how to see that the test can).  KEEP=1 keeps the images.
# host-timeout: 400
source "$(dirname "$0")/../testlib.sh"
T=ext3linux
init_test_begin ext3work || exit 0
if ! gcc -m32 -static -O2 -Wall -Iuser/tests -o "$R/ext3linux" tools/tests/ext3linux.c >"$TMP/gcc.log" 2>&1; then
    if gcc -m32 -static -O2 -o "$TMP/hello" -x c - <<<'int main(void){return 0;}' >/dev/null 2>&1; then
        fail "$T.guest_build"; show_tail "$TMP/gcc.log"; exit 1
    fi
    skip "$T (the host's gcc -m32 -static cannot link: $(head -c 100 "$TMP/gcc.log"))"
    exit 0
fi
source tools/linuxvm.sh
if ! (linux_setup) >"$TMP/setup.log" 2>&1; then
    skip "$T (no Debian kernel to boot: $(grep linuxvm: "$TMP/setup.log" | tail -1))"
    exit 0
fi
linux_setup >/dev/null

# vellum LOG IMAGE [ro]: Vellum's recovery boot; 1 unless ext3work got to
# its check (and powered off)
vellum() {
    vellum_qemu "$1" 60 -kernel "$KERNEL" -append "root=hda init=/tests/ext3work ext3work=check ${3:-}" \
        -drive "file=$2,format=raw,if=ide,index=0"
    local rc=$?
    [ $rc != 124 ] && [ $rc != 137 ] && grep -q "ext3work: check" "$1"
}
# replayed NAME LOG N: Vellum's mount replayed N transactions
replayed() {
    local got
    got=$(tr -d '\r' < "$2" | sed -n 's/.*ext3: hda: journal replayed: \([0-9]*\) transactions.*/\1/p' | head -1)
    if [ "$got" = "$3" ]; then pass "$1 ($3 transactions)"
    else fail "$1 (Vellum replayed ${got:-no} transactions; the log holds $3)"; fi
}
# linux_facts NAME LOG IMAGE: what Linux's program said was durable is in
# IMAGE ("synced PATH KEY SIZE": PATH is there with its exact bytes;
# "gone PATH": no such name)
linux_facts() {
    local path key size files=0 gone=0 bad=
    while read -r path key size; do
        if debugfs -R "stat $path" "$3" 2>&1 | grep -q "File not found"; then
            bad="$bad $path (not found)"; continue
        fi
        debugfs -R "cat $path" "$3" 2>/dev/null > "$TMP/got"
        "$VP" "$key" "$size" > "$TMP/want"
        if cmp -s "$TMP/got" "$TMP/want"; then files=$((files + 1))
        else bad="$bad $path ($(stat -c %s "$TMP/got") bytes, $size fsync'd)"; fi
    done < <(tr -d '\r' < "$2" | sed -n 's/^ext3linux: synced //p')
    while read -r path; do
        if debugfs -R "stat $path" "$3" 2>&1 | grep -q "File not found"; then gone=$((gone + 1))
        else bad="$bad $path (still there)"; fi
    done < <(tr -d '\r' < "$2" | sed -n 's/^ext3linux: gone //p')
    if [ -z "$bad" ] && [ $files -gt 0 ]; then pass "$1 ($files files exact, $gone names gone)"
    else fail "$1 (${bad:- no synced line from Linux})"; fi
}

RUN=/mnt/ext3linux${EXT3LINUX_CLEAN:+,clean}
for bs in 1024 4096; do
    N=$T.$((bs / 1024))k
    I=$TMP/disk.img                    # linux_qemu boots this one in place
    rm -f "$I"
    mke2fs -q -t ext3 -b $bs -d "$R" "$I" 16M >"$TMP/mkfs.log" 2>&1 ||
        { fail "$N.mkfs"; show_tail "$TMP/mkfs.log"; continue; }
    L=$TMP/linux-$bs.log
    linux_qemu "$L" "$(backstop 150)" "$I" "$RUN"
    rc=$?
    if grep -q "^ext3linux: cut" <(tr -d '\r' < "$L"); then pass "$N.linux_run"
    else fail "$N.linux_run (no 'ext3linux: cut'; qemu status $rc)"; show_tail "$L" 20; continue; fi

    # the precondition: a journal to recover
    start=$(dumpe2fs -h "$I" 2>/dev/null | sed -n 's/^Journal start: *//p')
    ntrans=$(debugfs -R logdump "$I" 2>/dev/null | grep -c "(commit block)")
    if dumpe2fs -h "$I" 2>/dev/null | grep -q "^Filesystem features:.* needs_recovery" &&
       [ "${start:-0}" != 0 ] && [ "$ntrans" -gt 0 ]; then
        pass "$N.journal_left (needs_recovery, $ntrans committed transactions from journal block $start)"
    else
        fail "$N.journal_left (Linux left no journal to recover: needs_recovery" \
             "$(dumpe2fs -h "$I" 2>/dev/null | grep -q needs_recovery && echo set || echo clear)," \
             "journal start ${start:-?}, $ntrans transactions)"
        continue
    fi
    [ "${KEEP:-}" = 1 ] && cp "$I" "$TMP/linux-$bs.img"

    ext3_recover "$N" "$I" vellum vellum_ro_boot vellum_rw_boot "$L"
    replayed "$N.vellum_ro_replayed" "$TMP/$N.ro.log" "$ntrans"
    replayed "$N.vellum_rw_replayed" "$TMP/$N.rw.log" "$ntrans"
    linux_facts "$N.fsynced_files" "$L" "$TMP/c.img"
done
exit 0
