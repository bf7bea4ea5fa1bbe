#!/bin/bash
# tools/tests/smp_user.sh: user processes on several CPUs at once (host test;
# docs/smp.md, "Step 3").  Builds an ext2 root from build/rootfs and boots
# the TEST kernel (the lock validator built in) at -smp 4 with
# init=/tests/smp_init, which runs its parts one after the other, each with
# several processes at once (user/tests/smp_init.c says what each checks).
# Each "PASS x"/"FAIL x" line becomes "PASS smp_user.x"; each part must exit
# 0; the boot must power off with no oops, BUG, WARNING or validator report;
# then the image must be e2fsck-clean and debugfs must read back the stripes
# file (block b all 'A' + b % 26) and the three fsx files exactly as the same
# fsx runs leave them on the host.  A hang ends the boot at the kernel's
# report (soft lockup, hung task: panics that power off), not at a host
# time-out.  KEEP_SMP=1 keeps the temporary directory (the serial log, the
# image) for a look afterwards.
source "$(dirname "$0")/../testlib.sh"
T=smp_user
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-smp-user.XXXXXX") || exit 1
[ -n "${KEEP_SMP:-}" ] || trap 'rm -rf "$TMP"' EXIT

make -s --no-print-directory BUILD="$BUILD" all user test-kernel >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
gcc -O2 -Iuser/tests -o "$TMP/fsx" user/tests/fsx.c 2>"$TMP/gcc.log" ||
    { fail "$T.fsx_host_build"; show_tail "$TMP/gcc.log"; exit 0; }
cp -a "$BUILD/rootfs" "$TMP/root"
mkdir -p "$TMP/root/tmp"
if ! mke2fs -q -t ext2 -b 1024 -d "$TMP/root" "$TMP/root.img" 32M >"$TMP/mkfs.log" 2>&1; then
    fail "$T.mkfs"; show_tail "$TMP/mkfs.log"; exit 0
fi

LOG=$TMP/serial.log
CPUS=4 vellum_qemu "$LOG" 120 -kernel "$TKERNEL" \
    -append "root=hda init=/tests/smp_init hung_task=20 hung_task_panic=1 watchdog_thresh=2 softlockup_panic=1 deadlock=panic panic=-1" \
    -drive "file=$TMP/root.img,format=raw,if=ide,index=0"
rc=$?
tr -d '\r' < "$LOG" > "$LOG.txt"

sed -n "s/^\(PASS\|FAIL\|SKIP\) \(.*\)$/\1 $T.\2/p" "$LOG.txt"
grep '^smp: ' "$LOG.txt" | sed 's/^/    | /'
parts=0
while read -r line; do
    parts=$((parts + 1))
    st=${line##* status }
    what=${line#smp_init: }; what=${what% status *}
    if [ "$st" = 0 ]; then pass "$T.status.$what"
    else fail "$T.status.$what (status $st)"; fi
done < <(grep '^smp_init: .* status ' "$LOG.txt")
[ "$parts" -ge 11 ] || fail "$T.all_parts_ran ($parts of 11 reported)"
if grep -q 'Power down\|power off' "$LOG.txt"; then pass "$T.power_off"
else
    from=$(grep -nE '^(PASS|FAIL|SKIP) |^smp_init: ' "$LOG.txt" | tail -n 1 | cut -d: -f1)
    fail "$T.power_off ($(qemu_status_text $rc))"; show_kernel_report "$LOG" "${from:-1}"
fi
if grep -qE '^(Oops|Kernel panic|BUG:|WARNING:)' "$LOG.txt"; then
    fail "$T.no_oops_bug_or_warning"; grep -m3 -E '^(Oops|Kernel panic|BUG:|WARNING:)' "$LOG.txt"
else pass "$T.no_oops_bug_or_warning"; fi
if grep -qE 'possible circular locking|inconsistent lock state|possible recursive locking|sleeping function called|bad unlock balance' "$LOG.txt"; then
    fail "$T.no_validator_report"; grep -m3 -E 'possible|inconsistent|sleeping function|bad unlock' "$LOG.txt"
else pass "$T.no_validator_report"; fi
# The validator was there to report: built into the kernel booted, and it
# did not turn itself off.
if nm "$TKERNEL" | grep -q ' T lock_acquire$' &&
   ! grep -q 'turning off the locking correctness validator\|lockdep: .* turning off' "$LOG.txt"; then
    pass "$T.validator_on"
else fail "$T.validator_on"; fi
if grep -q '^smp: Brought up 1 node, 4 CPUs' "$LOG.txt"; then pass "$T.four_cpus"
else fail "$T.four_cpus"; fi

if ! grep -q 'Power down\|power off' "$LOG.txt"; then
    fail "$T.image_checks (not run: the boot did not finish)"
    exit 0
fi
if e2fsck -fn "$TMP/root.img" >"$TMP/fsck.log" 2>&1; then pass "$T.fsck_clean"
else fail "$T.fsck_clean"; show_tail "$TMP/fsck.log"; fi
dump() { rm -f "$2"; debugfs -R "dump $1 $2" "$TMP/root.img" >/dev/null 2>&1 && [ -f "$2" ]; }

# stripes.dat: 64 blocks of 4 KiB, block b all the letter 'A' + b % 26.
for b in $(seq 0 63); do
    head -c 4096 /dev/zero | tr '\0' "\\$(printf %03o $((65 + b % 26)))"
done > "$TMP/stripes.want"
if dump /st/stripes.dat "$TMP/stripes.dat" && cmp -s "$TMP/stripes.dat" "$TMP/stripes.want"; then
    pass "$T.debugfs.stripes_contents"
else fail "$T.debugfs.stripes_contents ($(cmp "$TMP/stripes.dat" "$TMP/stripes.want" 2>&1 | head -1))"; fi

# fsx0..2: the same seeds replayed on the host, byte for byte.
for i in 0 1 2; do
    (cd "$TMP" && ./fsx "$TMP/fsx$i-host.dat" $((i + 1)) 400 > "$TMP/fsx$i-host.out")
    if dump "/st/fsx$i.dat" "$TMP/fsx$i.dat" && cmp -s "$TMP/fsx$i.dat" "$TMP/fsx$i-host.dat"; then
        pass "$T.debugfs.fsx${i}_contents"
    else fail "$T.debugfs.fsx${i}_contents ($(cmp "$TMP/fsx$i.dat" "$TMP/fsx$i-host.dat" 2>&1 | head -1))"; fi
done
