#!/bin/bash
# tools/tests/mmap.sh: file mappings and the write-from-mmap scenarios,
# tested from user space ON Vellum (host test; docs/mmap.md).
#
# Boot 1 (default, legacy_write_mode=2copy): init=/tests/mmap_init runs
#   mmap_file on the ext2 root (/st) and on /tmp (ramfs): mapping basics,
#   write() from a MAP_SHARED / MAP_PRIVATE mapping of the same file's hole
#   page, the same page and offset, two processes ABBA; the legacy demo on a
#   "ramfs -o legacy_aops" mount (must complete); fsx on ext2 and ramfs.
# Boot 2 (legacy_write_mode=naive): the legacy demo must DETECT the
#   self-deadlock (-EDEADLK, lock_page's SELF-DEADLOCK report in the log)
#   instead of hanging; then the ramfs scenarios once more.
# Each "PASS x"/"FAIL x" line becomes "PASS mmap.x"/...; every program's
# status must be 0; after boot 1 the image is e2fsck-clean and debugfs
# reads back the exact bytes of the files the tests left (fsx's final file
# is replayed on the host by the same fsx program compiled for Linux).
# A boot that hangs or crashes ends at the kernel's report (boot(), below),
# shown under its power_off FAIL; if boot 1 did not finish, one FAIL stands
# for the image checks instead of a dozen that would only repeat it.
# smp-pass: make check runs it again on four CPUs (tools/run-tests, SMP_CPUS)
source "$(dirname "$0")/../testlib.sh"
T=mmap
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-mmap.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

make -s --no-print-directory BUILD="$BUILD" all user >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
gcc -O2 -Iuser/tests -o "$TMP/fsx" user/tests/fsx.c 2>"$TMP/gcc.log" ||
    { fail "$T.fsx_host_build"; show_tail "$TMP/gcc.log"; exit 0; }
cp -a "$BUILD/rootfs" "$TMP/root"
mkdir -p "$TMP/root/tmp"
if ! mke2fs -q -t ext2 -b 1024 -d "$TMP/root" "$TMP/root.img" 32M >"$TMP/mkfs.log" 2>&1; then
    fail "$T.mkfs"; show_tail "$TMP/mkfs.log"; exit 0
fi

# boot NAME EXTRA-APPEND: run mmap_init, report its lines and statuses.
# A hang or a crash ends the boot at the kernel's report (Linux's options:
# a soft lockup after 4 s, a hung-task report after 20 s silent, a
# self-deadlock, each a panic, and panic=-1 powers off at once) instead of
# at QEMU's time-out; a failed boot's log is kept in LOGDIR if set
# (tools/grade sets it).
boot() {
    local name=$1 append=$2
    LOG=$TMP/serial-$name.log
    vellum_qemu "$LOG" 90 -kernel "$KERNEL" \
        -append "root=hda init=/tests/mmap_init hung_task=20 hung_task_panic=1 watchdog_thresh=2 softlockup_panic=1 deadlock=panic panic=-1 $append" \
        -drive "file=$TMP/root.img,format=raw,if=ide,index=0"
    local rc=$?
    boot_checks "$name" "$rc" "$3" > "$TMP/checks-$name"
    if grep -q '^FAIL' "$TMP/checks-$name"; then      # a lab's stub said so: first
        kernel_reports "$LOG" | grep '^not written yet: ' | sed 's/^/    | /'
    fi
    cat "$TMP/checks-$name"
    if [ -n "${LOGDIR:-}" ] && grep -q '^FAIL' "$TMP/checks-$name"; then
        mkdir -p "$LOGDIR" && cp "$LOG.txt" "$LOGDIR/$T.$name.log"
    fi
}
boot_checks() {
    local name=$1 rc=$2
    tr -d '\r' < "$LOG" > "$LOG.txt"
    sed -n "s/^\(PASS\|FAIL\|SKIP\) \(mmap\.\)\{0,1\}\(.*\)$/\1 $T.$name.\3/p" "$LOG.txt"
    local runs=0
    while read -r line; do
        runs=$((runs + 1))
        local st=${line##* status }
        local what=${line#mmap_init: }; what=${what% status *}
        what=$(echo "$what" | sed 's|/tests/||; s|/||g; s| |_|g')
        if [ "$st" = 0 ]; then pass "$T.$name.status.$what"
        else fail "$T.$name.status.$what (status $st)"; fi
    done < <(grep '^mmap_init: .* status ' "$LOG.txt")
    [ "$runs" -ge "$3" ] || fail "$T.$name.all_ran ($runs of $3 programs reported)"
    if grep -q 'Power down\|power off' "$LOG.txt"; then pass "$T.$name.power_off"
    else
        # the kernel's report of what stopped it: after the programs' last line
        local from
        from=$(grep -nE '^(PASS|FAIL|SKIP) |^mmap_init: ' "$LOG.txt" | tail -n 1 | cut -d: -f1)
        fail "$T.$name.power_off ($(qemu_status_text $rc))"; show_kernel_report "$LOG" "${from:-1}"
    fi
    if grep -qE '^(Oops|Kernel panic|BUG:)' "$LOG.txt"; then fail "$T.$name.no_oops"; grep -m3 -E '^(Oops|Kernel panic|BUG:)' "$LOG.txt"
    else pass "$T.$name.no_oops"; fi
}

boot default "" 5
if ! grep -q "^PASS $T.default.power_off" "$TMP/checks-default"; then
    # what boot 1 left is no test of anything: its report (above) says why
    fail "$T.image_checks (not run: boot 1 did not finish)"
    boot naive "legacy_write_mode=naive" 2
    exit 0
fi

# The image after boot 1.
if e2fsck -fn "$TMP/root.img" >"$TMP/fsck.log" 2>&1; then pass "$T.fsck_clean"
else fail "$T.fsck_clean"; show_tail "$TMP/fsck.log"; fi
dump() { rm -f "$2"; debugfs -R "dump $1 $2" "$TMP/root.img" >/dev/null 2>&1 && [ -f "$2" ]; }

# fsx: replay the same seed on the host; the file must match byte for byte.
line=$(sed -n 's|^fsx: /st/fsx.dat size \([0-9]*\) sum \([0-9]*\)$|\1 \2|p' "$TMP/serial-default.log.txt" | tail -1)
(cd "$TMP" && ./fsx "$TMP/fsx-host.dat" 12345 1500 > "$TMP/fsx-host.out")
hline=$(sed -n 's|^fsx: .* size \([0-9]*\) sum \([0-9]*\)$|\1 \2|p' "$TMP/fsx-host.out")
if ! grep -q '^FAIL' "$TMP/fsx-host.out" && [ -n "$line" ] && [ "$line" = "$hline" ]; then
    pass "$T.fsx_same_as_linux (size/sum $line)"
else fail "$T.fsx_same_as_linux (Vellum '$line', Linux '$hline')"; fi
if dump /st/fsx.dat "$TMP/fsx.dat" && cmp -s "$TMP/fsx.dat" "$TMP/fsx-host.dat"; then
    pass "$T.debugfs.fsx_contents"
else fail "$T.debugfs.fsx_contents ($(cmp "$TMP/fsx.dat" "$TMP/fsx-host.dat" 2>&1 | head -1))"; fi

# m_shared.dat / m_private.dat: 4 pages: page 0 = page 1 = the data written
# last (pattern 2), pages 2 and 3 zeros.
pat2() { python3 -c "import sys; sys.stdout.buffer.write(bytes(((i*131+14+(i>>8))|1)&255 for i in range(4096)))"; }
pat2 > "$TMP/p2"
{ cat "$TMP/p2" "$TMP/p2"; head -c 8192 /dev/zero; } > "$TMP/same.want"
for f in shared private; do
    if dump /st/m_$f.dat "$TMP/m_$f.dat" && cmp -s "$TMP/m_$f.dat" "$TMP/same.want"; then
        pass "$T.debugfs.m_${f}_contents"
    else fail "$T.debugfs.m_${f}_contents ($(cmp "$TMP/m_$f.dat" "$TMP/same.want" 2>&1 | head -1))"; fi
done
# m_abba_b.dat: odd pages = A's even pages: zeros for even rounds, pattern
# 10+r for odd rounds; even pages: zeros / pattern 50+r... (A's are 10+r).
python3 - "$TMP" <<'EOF'
import sys
d = sys.argv[1]
PG = 4096
def pat(seed): return bytes(((i*131 + seed*7 + (i >> 8)) | 1) & 255 for i in range(PG))
for name, own, other in (("a", 10, 50), ("b", 50, 10)):
    out = bytearray()
    for r in range(24):
        out += pat(own + r) if r & 1 else bytes(PG)      # even page: own source
        out += pat(other + r) if r & 1 else bytes(PG)    # odd page: from the other file
    open(f"{d}/abba_{name}.want", "wb").write(out)
EOF
for f in a b; do
    if dump /st/m_abba_$f.dat "$TMP/abba_$f.dat" && cmp -s "$TMP/abba_$f.dat" "$TMP/abba_$f.want"; then
        pass "$T.debugfs.abba_${f}_contents"
    else fail "$T.debugfs.abba_${f}_contents ($(cmp "$TMP/abba_$f.dat" "$TMP/abba_$f.want" 2>&1 | head -1))"; fi
done

head -c $((24 * 4096)) /dev/zero > "$TMP/zeros.want"
for f in c d; do
    if dump /st/m_abba_$f.dat "$TMP/abba_$f.dat" && cmp -s "$TMP/abba_$f.dat" "$TMP/zeros.want"; then
        pass "$T.debugfs.abba_same_${f}_contents"
    else fail "$T.debugfs.abba_same_${f}_contents"; fi
done

boot naive "legacy_write_mode=naive" 2
if grep -q 'lock_page: SELF-DEADLOCK' "$TMP/serial-naive.log.txt"; then
    pass "$T.naive.self_deadlock_reported"
else fail "$T.naive.self_deadlock_reported (no lock_page report in the log)"; fi
if grep -q 'PASS mmap.legacy.naive_returns_edeadlk' "$TMP/serial-naive.log.txt" &&
   grep -q 'PASS mmap.legacy.2copy_completes' "$TMP/serial-default.log.txt"; then
    pass "$T.legacy_modes_both_ran"
else fail "$T.legacy_modes_both_ran"; fi
if e2fsck -fn "$TMP/root.img" >"$TMP/fsck2.log" 2>&1; then pass "$T.naive.fsck_clean"
else fail "$T.naive.fsck_clean"; show_tail "$TMP/fsck2.log"; fi
