#!/bin/bash
# tools/tests/busybox.sh: Debian's busybox-static (i386) on Vellum, installed
# the way a student installs it (`make busybox`).  Host test.
#
# Fetches busybox into $BUILD/busybox/ once (tools/getbusybox.sh: apt-get
# download with apt lists of its own, so it works on a host without the
# i386 architecture and through a partly failed index update).  SKIP only
# where there is no apt at all; a fetch that fails is a FAIL.  Then runs
# `make busybox` on a run disk of its own (ROOTFS_RUN=TMP/run.img), makes
# that disk again from the pristine image as a userland rebuild does
# (tools/rundisk.sh), puts tools/tests/busybox/bb_test.sh in /tests and
# bb_rc as /etc/rc, and boots it: our init runs bb_rc, which runs
# `busybox sh /tests/bb_test.sh` and powers off.
#  busybox.make_installs     make busybox exits 0; /bin/busybox is the
#                            fetched program, byte for byte; /usr/bin holds
#                            one link to /bin/busybox per applet
#  busybox.no_shadow         /bin/ps, /bin/ls, /bin/sh are still ours
#  busybox.survives_rebuild  a fresh run disk (the userland changed) has
#                            busybox and its links again, e2fsck clean
#  busybox.script_ran, no_errors, no_enosys, power_off, fsck_clean
#  busybox.FILE              each file the script wrote, read back with
#                            debugfs, holds what Linux's busybox writes
#                            (text tools, for/while/until/case/functions,
#                            `sh -c`, a script on stdin, 20 files in a loop)
#  busybox.ps_pids           busybox ps lists exactly the PIDs /proc held
#                            (ls /proc just after; each tool sees itself)
#  busybox.ps_state          the background sleep: its PID, its parent the
#                            script's shell, state S, its argv
#  busybox.kill              kill ends it (wait says 143) and the next ps
#                            no longer lists it
#  busybox.top               top -n1: Mem used + free = MemTotal, a CPU line
#                            summing to 100% less its truncations, /proc/loadavg's format,
#                            itself, the script's shell and init listed
#  busybox.free_uptime       free's total is MemTotal; uptime's load average
#  busybox.df                df's 1K-blocks, Used and Available for / equal
#                            the image's (dumpe2fs: blocks minus the
#                            metadata, free blocks), as df -i's inodes
# smp-pass: make check runs it again on four CPUs (tools/run-tests, SMP_CPUS)
source "$(dirname "$0")/../testlib.sh"
T=busybox
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-busybox.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
unset MAKEFLAGS MFLAGS MAKELEVEL

why=$(bash tools/getbusybox.sh "$BUILD/busybox" 2>"$TMP/get.log")
case $? in
    0) ;;
    1) skip "busybox ($why)"; exit 0 ;;
    *) fail "$T.fetch ($why)"; show_tail "$TMP/get.log" 10; exit 0 ;;
esac
BB=$BUILD/busybox/busybox
RUN=$TMP/run.img
mk() { make -s --no-print-directory BUILD="$BUILD" ROOTFS_RUN="$RUN" VELLUM_SETUP_DONE=1 "$@"; }
mk all >"$TMP/build.log" 2>&1 || { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }

# ---- make busybox, as a student runs it
dfs() { debugfs -R "$1" "$RUN" 2>/dev/null; }
applets=$("$BB" --list 2>/dev/null || qemu-i386-static "$BB" --list)
napplets=$(echo "$applets" | wc -l)
installed() {                           # busybox and its links on $RUN?
    dfs "dump /bin/busybox $TMP/bb.dump" >/dev/null
    cmp -s "$TMP/bb.dump" "$BB" &&
        [ "$(dfs 'ls -p /usr/bin' | grep -c '^/[0-9]*/120777/')" = "$napplets" ] &&
        dfs 'stat /usr/bin/top' | grep -q 'Fast link dest: "/bin/busybox"' &&
        dfs 'stat /usr/bin/sh' | grep -q 'Fast link dest: "/bin/busybox"'
}
if mk busybox >"$TMP/make.log" 2>&1 && installed; then pass "$T.make_installs ($napplets applets)"
else fail "$T.make_installs"; show_tail "$TMP/make.log" 10; exit 0; fi
shadow=
for p in /bin/ps /bin/ls /bin/sh; do
    dfs "stat $p" | grep -q 'Type: regular' || shadow="$shadow $p"
    dfs "dump $p $TMP/ours" >/dev/null; cmp -s "$TMP/ours" "$BUILD/rootfs$p" || shadow="$shadow $p"
done
if [ -z "$shadow" ]; then pass "$T.no_shadow"; else fail "$T.no_shadow (not ours:$shadow)"; fi

# ---- the userland is rebuilt: a fresh run disk, busybox put back
bash tools/rundisk.sh "$BUILD/images/rootfs.img" "$RUN" >"$TMP/rundisk.log" 2>&1
if installed && grep -q 'busybox was on the old disk: installed again' "$TMP/rundisk.log" &&
   e2fsck -fn "$RUN" >/dev/null 2>&1; then pass "$T.survives_rebuild"
else fail "$T.survives_rebuild"; show_tail "$TMP/rundisk.log" 5; fi

# ---- the script, and the rc that runs it
printf '%s\n' 'rm /etc/rc' "write tools/tests/busybox/bb_rc /etc/rc" \
    "write tools/tests/busybox/bb_test.sh /tests/bb_test.sh" | debugfs -w -f - "$RUN" >/dev/null 2>&1
LOG=$TMP/serial.log
vellum_qemu "$LOG" 120 -kernel "$KERNEL" -append "root=hda" \
    -drive "file=$RUN,format=raw,if=ide,index=0"
rc=$?
log() { tr -d '\r' < "$LOG"; }

st=$(log | sed -n 's/^bb: status \([0-9]*\)$/\1/p' | tail -1)
if [ "$st" = 0 ] && log | grep -qx 'bb: done'; then pass "$T.script_ran"
else fail "$T.script_ran (status '${st:-none}')"; show_tail "$LOG" 30; fi
if log | grep -q 'bb: .*failed'; then fail "$T.no_errors ($(log | grep 'bb: .*failed' | head -1))"
else pass "$T.no_errors"; fi
missing=$(log | grep 'not implemented (-ENOSYS)' | sed 's/.*system call \([0-9]*\).*/\1/' | sort -un | tr '\n' ' ')
if [ -z "$missing" ]; then pass "$T.no_enosys"
else fail "$T.no_enosys (system calls missing: $missing)"; fi
if [ $rc = 0 ] && log | grep -q 'power off: root (hda) synced and read-only'; then pass "$T.power_off"
else fail "$T.power_off (qemu status $rc: $(qemu_status_text $rc))"; show_tail "$LOG" 20; fi
if e2fsck -fn "$RUN" >"$TMP/fsck.log" 2>&1; then pass "$T.fsck_clean"
else fail "$T.fsck_clean"; show_tail "$TMP/fsck.log"; fi

get() { debugfs -R "cat /home/bb/$1" "$RUN" 2>/dev/null | tr -d '\033'; }
expect() {                             # expect FILE CONTENT (printf %b)
    debugfs -R "cat /home/bb/$1" "$RUN" > "$TMP/got" 2>/dev/null
    printf '%b' "$2" > "$TMP/want"
    if cmp -s "$TMP/got" "$TMP/want"; then pass "$T.$1"
    else fail "$T.$1 (got '$(head -c 80 "$TMP/got" | od -An -c | tr -s ' ' | tr '\n' ' ')')"; fi
}
expect fruit 'cherry\napple\nbanana\n'
expect sorted 'apple\nbanana\ncherry\n'
expect grep.out 'banana\n'
expect head.out 'cherry\n'
expect tail.out 'banana\n'
expect sed.out 'cherry\nApple\nbAnAnA\n'
expect wc.out '3\n'
expect cat.out '40\n'
expect sub/deeper/copy 'cherry\napple\nbanana\n'
expect ls.out 'copy\n'
expect arith.out '42\n'
expect subst.out 'first=apple\n'
expect test.out 'yes\n'
expect loop.out 'n1\nn2\nn3\n'
expect while.out 'w1\nw3\nw4\nw5\nuntil 0\n'
expect nested.out '1a 1b \n2a 2b \n3a 3b \n'
expect case.out '-:cherry\nA:apple\nAN:banana\n'
expect func.out '385\n'
expect break.out '100\n'
expect many.out '20\n'
expect many/f7 'file 7\n'
expect many/f20 'file 20\n'
expect sh_c.out 'c: 12\n'
expect sh_stdin.out 'in:p\nin:q\n'
for gone in doomed gone; do
    if debugfs -R "stat /home/bb/$gone" "$RUN" 2>&1 | grep -q 'File not found'; then pass "$T.removed_$gone"
    else fail "$T.removed_$gone (still there)"; fi
done

# ---- ps against /proc.  pids.out: the script's shell, the sleep, ps, ls.
read -r SH SLP PSPID LSPID <<< "$(get pids.out)"
ps_pids=$(get ps.out | awk 'NR > 1 { print $1 }' | grep -vx "$PSPID" | sort -n | paste -sd ' ')
proc_pids=$(get proc.out | grep -x '[0-9]*' | grep -vx "$LSPID" | sort -n | paste -sd ' ')
if [ -n "$SLP" ] && [ -n "$ps_pids" ] && [ "$ps_pids" = "$proc_pids" ] &&
   get ps.out | awk 'NR > 1 { print $1 }' | grep -qx "$PSPID" &&
   get proc.out | grep -qx "$LSPID"; then pass "$T.ps_pids ($ps_pids)"
else fail "$T.ps_pids (ps: '$ps_pids', /proc: '$proc_pids', pids.out: '$SH $SLP $PSPID $LSPID')"; fi
row=$(get ps.out | awk -v p="$SLP" '$1 == p')
sh_row=$(get ps.out | awk -v p="$SH" '$1 == p')
if [ "$(echo "$row" | awk '{ print $2, $3 }')" = "$SH S" ] &&
   [ "$(echo "$row" | awk '{ $1 = $2 = $3 = ""; sub(/^ +/, ""); print }')" = "/bin/busybox sleep 60" ] &&
   echo "$sh_row" | grep -q 'busybox sh /tests/bb_test.sh$' &&
   get ps.out | awk '$1 == 1' | grep -q '/sbin/init$'; then pass "$T.ps_state"
else fail "$T.ps_state (sleep's row '$row', shell's row '$sh_row')"; fi
if [ "$(get killed.out)" = 143 ] && ! get ps2.out | awk '{ print $1 }' | grep -qx "$SLP" &&
   get ps2.out | awk '{ print $1 }' | grep -qx "$SH"; then pass "$T.kill"
else fail "$T.kill (wait said '$(get killed.out)'; ps after: $(get ps2.out | awk 'NR > 1 { print $1 }' | tr '\n' ' '))"; fi

# ---- top -n1 (not a tty: still its screen codes, stripped by get)
memtotal=$(get meminfo.out | awk '/^MemTotal:/ { print $2 }')
top=$(get top.out | sed 's/\[[0-9;]*[A-Za-z]//g')
read -r used tfree <<< "$(echo "$top" | sed -n 's/^Mem: \([0-9]*\)K used, \([0-9]*\)K free.*/\1 \2/p')"
cpu_sum=$(echo "$top" | sed -n 's/^CPU://p' | grep -o '[0-9]*%' | tr -d % | awk '{ n += $1 } END { print n }')
toppids=$(echo "$top" | awk '$1 ~ /^[0-9]+$/ { print $1 }')
if [ -n "$used" ] && [ $((used + tfree)) = "$memtotal" ] &&
   [ -n "$cpu_sum" ] && [ "$cpu_sum" -ge 93 ] && [ "$cpu_sum" -le 100 ] &&
   echo "$top" | grep -Eq '^Load average: [0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2} [0-9]+/[0-9]+ [0-9]+$' &&
   echo "$toppids" | grep -qx 1 && echo "$toppids" | grep -qx "$SH" &&
   echo "$top" | grep -q '^ *[0-9]* *'"$SH"' .* top -n1$'; then pass "$T.top"
else fail "$T.top (Mem '$used' + '$tfree' vs MemTotal '$memtotal', CPU sum '$cpu_sum')"; echo "$top" | sed 's/^/    | /'; fi
if [ "$(get free.out | awk '$1 == "Mem:" { print $2 }')" = "$memtotal" ] &&
   get uptime.out | grep -Eq 'up .* load average: [0-9]+\.[0-9]{2}, [0-9]+\.[0-9]{2}, [0-9]+\.[0-9]{2}$'; then
    pass "$T.free_uptime"
else fail "$T.free_uptime (free: '$(get free.out | sed -n 2p)', uptime: '$(get uptime.out)')"; fi

# ---- df against the image: the blocks that are not metadata (Linux's
# bsddf: superblock and descriptor copies, bitmaps, inode tables, the blocks
# before the first group), the free blocks (no reserved blocks: mke2fs -m 0)
dumpe2fs "$RUN" > "$TMP/dumpe2fs" 2>/dev/null
meta=$(awk -F': *' '/^First block:/ { n += $2 }
    { while (match($0, /(superblock|descriptors|GDT blocks|bitmap|table) at [0-9]+(-[0-9]+)?/)) {
          s = substr($0, RSTART, RLENGTH); sub(/.* at /, "", s); split(s, r, "-")
          n += (r[2] == "" ? 1 : r[2] - r[1] + 1); $0 = substr($0, RSTART + RLENGTH) } }
    END { print n }' "$TMP/dumpe2fs")
field() { sed -n "s/^$1: *//p" "$TMP/dumpe2fs"; }
bs=$(field 'Block size')
want_total=$(( ($(field 'Block count') - meta) * bs / 1024 ))
want_free=$(( $(field 'Free blocks') * bs / 1024 ))
dfline=$(log | sed -n '/^bb: df begin$/,/^bb: df end$/p' | awk '$NF == "/" && $1 == "hda"' | head -1)
dfiline=$(log | sed -n '/^bb: df begin$/,/^bb: df end$/p' | awk '$NF == "/" && $1 == "hda"' | sed -n 2p)
read -r _ total dused avail _ <<< "$dfline"
read -r _ itotal iused ifree _ <<< "$dfiline"
want_itotal=$(field 'Inode count'); want_ifree=$(field 'Free inodes')
if [ -n "$dfline" ] && [ "$total" = "$want_total" ] && [ "$avail" = "$want_free" ] &&
   [ "$dused" = $((want_total - want_free)) ] && [ "$itotal" = "$want_itotal" ] &&
   [ "$ifree" = "$want_ifree" ] && [ "$iused" = $((want_itotal - want_ifree)) ]; then
    pass "$T.df ($total 1K-blocks, $avail free, as dumpe2fs says)"
else fail "$T.df (df: '$dfline' / '$dfiline'; image: $want_total total, $want_free free, $want_itotal inodes, $want_ifree free)"; fi
exit 0
