#!/bin/bash
# tools/tests/shell_session.sh: a newcomer's session at the shell prompt of
# `make qemu`, typed on the serial console, then checked on the host.
# Layer: host test (runs the kernel, init, sh and the utilities together).
#
# Boots a copy of build/images/rootfs.img (the image `make qemu` boots) with
# root=hda and COM1 on a pair of FIFOs (QEMU's -serial pipe:).  A feeder
# types one command at a time, each only after the prompt for it appeared
# (bounded waits, a total timeout).  The session writes files with > and >>,
# makes directories, uses pipes, cp, mv, rm, ln -s, xargs, sort, uniq, grep,
# tee, head, tail, touch, ps, df, $?, a for loop over globs, interrupts
# `sleep 30` with Ctrl-C (byte 0x03), stops another with Ctrl-Z (0x1a),
# lists it with `jobs`, resumes it with `fg` and ends it with Ctrl-C, syncs
# and powers off.  Then, on the
# host: QEMU exited by power off, `e2fsck -fn` is clean, and debugfs reads
# back exactly the expected contents (the removed files are gone, the
# symlink's target is right).  One PASS/FAIL line per check.
source "$(dirname "$0")/../testlib.sh"
T=shell_session
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-shell.XXXXXX") || exit 1
QPID=
cleanup() {
    [ -n "$QPID" ] && kill "$QPID" 2>/dev/null
    exec 3>&- 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT

make -s --no-print-directory BUILD="$BUILD" all >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
IMG=$TMP/root.img
cp "$BUILD/images/rootfs.img" "$IMG"

# the serial console on FIFOs (tools/testlib.sh: console_open)
console_open "$TMP/serial.log"
LOG=$CONSOLE_LOG
timeout -k 2 150 "$QEMU" -accel tcg -display none -no-reboot -m 128M -nic none \
    -monitor none -serial "$CONSOLE_SERIAL" -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
    -kernel "$KERNEL" -append "root=hda" \
    -drive "file=$IMG,format=raw,if=ide,index=0" </dev/null >"$TMP/qemu.out" 2>&1 &
QPID=$!
CONSOLE_PID=$QPID
START=$SECONDS
TOTAL=120                              # seconds for the whole session
CONSOLE_DEADLINE=$((START + TOTAL))

NP=0                                   # prompts consumed
LOST=0
# type CMD: wait for the next prompt, then type CMD and Enter.
type_cmd() {
    NP=$((NP + 1))
    if ! console_wait $NP 30; then
        [ $LOST = 0 ] && fail "$T.prompt (no prompt #$NP before typing: $1)" && show_tail "$LOG" 20
        LOST=1
        return 1
    fi
    printf '%s\n' "$1" >&3
}

if console_wait 1 60; then pass "$T.boot_to_prompt"
else fail "$T.boot_to_prompt (no shell prompt within 60 s)"; show_tail "$LOG" 30; LOST=1; fi

H=/home/newcomer
type_cmd "mkdir $H"
type_cmd "cd $H"
type_cmd "pwd"
type_cmd "echo hello world > hello.txt"
type_cmd "echo second line >> hello.txt"
type_cmd "mkdir -p notes/2024/jan"
type_cmd "cp hello.txt notes/2024/jan/copy.txt"
type_cmd "cat hello.txt | wc > wc.txt"
type_cmd "ls / | wc -l > count.txt"
type_cmd "echo temporary > gone.txt"
type_cmd "rm gone.txt"
type_cmd "echo moved > before.txt"
type_cmd "mv before.txt after.txt"
type_cmd "ln -s notes/2024/jan/copy.txt link"
type_cmd "cat link >> after.txt"
type_cmd "mkdir emptydir"
type_cmd "rmdir emptydir"
type_cmd "echo b a c b | xargs -n 1 | sort | uniq -c > uniq.txt"
type_cmd "grep -n second hello.txt | tee grep1.txt > grep2.txt"
type_cmd "tail -n 1 hello.txt | head -c 6 > tailhead.txt"
type_cmd "touch empty.txt"
type_cmd 'for f in *.txt notes/*/j?n/[a-c]*; do echo "$f"; done > glob.txt'
type_cmd "ps > ps.txt"
type_cmd "df > df.txt"
type_cmd "false"
type_cmd 'echo status=$? > status.txt'
type_cmd "sleep 30"
# Ctrl-C: the tty sends SIGINT to the foreground group; the prompt must come
# back at once, not when sleep ends.
sleep 1.5
t0=$SECONDS
printf '\003' >&3
NP=$((NP + 1))
if console_wait $NP 8; then
    took=$((SECONDS - t0))
    if [ $took -le 5 ]; then pass "$T.ctrl_c (prompt back after ${took} s)"
    else fail "$T.ctrl_c (prompt back only after ${took} s)"; fi
else
    fail "$T.ctrl_c (no prompt within 8 s of ^C)"; show_tail "$LOG" 10; LOST=1
fi
NP=$((NP - 1))                         # type_cmd waits for that prompt again
type_cmd 'echo sigint-status=$?'
# Ctrl-Z: SIGTSTP to the foreground group stops sleep (the shell ignores
# it); the shell reports "[pid] stopped" and prompts again at once.
type_cmd "sleep 30"
sleep 1.5
t0=$SECONDS
printf '\032' >&3
NP=$((NP + 1))
if console_wait $NP 8; then
    took=$((SECONDS - t0))
    if [ $took -le 5 ] && tr -d '\r' < "$LOG" | grep -q '^\[[0-9]*\] stopped$'; then
        pass "$T.ctrl_z (stopped, prompt back after ${took} s)"
    else fail "$T.ctrl_z (prompt back after ${took} s; no '[pid] stopped' line?)"; fi
else
    fail "$T.ctrl_z (no prompt within 8 s of ^Z)"; show_tail "$LOG" 10; LOST=1
fi
NP=$((NP - 1))
type_cmd 'echo tstp-status=$?'
type_cmd "jobs"
# fg: the stopped sleep runs again in the foreground: no prompt until ^C.
type_cmd "fg"
sleep 2
n_before=$(console_prompts)
printf '\003' >&3
NP=$((NP + 1))
if [ "$n_before" -lt $NP ] && console_wait $NP 8; then pass "$T.fg_then_ctrl_c"
else fail "$T.fg_then_ctrl_c (prompts before ^C: $n_before, want $((NP - 1)))"; show_tail "$LOG" 10; fi
NP=$((NP - 1))
type_cmd 'echo fg-status=$?'
type_cmd "jobs"
type_cmd "sync"
type_cmd "poweroff"

# ---- QEMU should exit by itself (power off): wait, bounded.
while kill -0 "$QPID" 2>/dev/null && [ $((SECONDS - START)) -lt $((TOTAL + 20)) ]; do
    sleep 0.3
done
wait "$QPID" 2>/dev/null
rc=$?
QPID=
exec 3>&-
log() { tr -d '\r' < "$LOG"; }

if log | grep -qx "$H"; then pass "$T.cd_pwd"
else fail "$T.cd_pwd (pwd did not print $H)"; fi
if log | grep -qx 'sigint-status=130'; then pass "$T.ctrl_c_status_130"
else fail "$T.ctrl_c_status_130 (\$? after ^C was '$(log | sed -n 's/^sigint-status=//p')')"; fi
if log | grep -qx 'tstp-status=148'; then pass "$T.ctrl_z_status_148"
else fail "$T.ctrl_z_status_148 (\$? after ^Z was '$(log | sed -n 's/^tstp-status=//p')')"; fi
# `jobs` listed the stopped sleep once (before fg) and not after it ended.
njobs=$(log | grep -c '^\[[0-9]*\] stopped$')
if [ "$njobs" = 2 ] && log | grep -qx 'fg-status=130'; then pass "$T.jobs_fg_status_130"
else fail "$T.jobs_fg_status_130 ('[pid] stopped' lines: $njobs, want 2; fg-status '$(log | sed -n 's/^fg-status=//p')')"; fi
if [ $rc = 0 ] && log | grep -q 'power off: root (hda) synced and read-only'; then
    pass "$T.power_off"
else
    fail "$T.power_off (qemu status $rc: $(qemu_status_text $rc))"; show_tail "$LOG" 20
fi
if e2fsck -fn "$IMG" >"$TMP/fsck.log" 2>&1; then pass "$T.fsck_clean"
else fail "$T.fsck_clean"; show_tail "$TMP/fsck.log"; fi

# ---- the files, read back with debugfs
# expect NAME CONTENT: file $H/NAME holds exactly CONTENT (printf %b).
expect() {
    local got want
    debugfs -R "cat $H/$1" "$IMG" > "$TMP/got" 2>/dev/null
    printf '%b' "$2" > "$TMP/want"
    if cmp -s "$TMP/got" "$TMP/want"; then pass "$T.file $1"
    else fail "$T.file $1 (got '$(od -c "$TMP/got" | head -3 | tr -s ' ' | tr '\n' ' ')')"; fi
}
# Number of entries of / the newcomer saw: the names in the image's root
NROOT=$(debugfs -R "ls -p /" "$IMG" 2>/dev/null | grep -c "^/")
NROOT=$((NROOT - 2))                   # without . and ..
expect hello.txt 'hello world\nsecond line\n'
expect notes/2024/jan/copy.txt 'hello world\nsecond line\n'
expect wc.txt '2 4 24\n'
expect count.txt "$NROOT\n"
expect after.txt 'moved\nhello world\nsecond line\n'
expect status.txt 'status=1\n'
expect uniq.txt '      1 a\n      2 b\n      1 c\n'
expect grep1.txt '2:second line\n'
expect grep2.txt '2:second line\n'
expect tailhead.txt 'second'
expect empty.txt ''
# the *.txt there were then (glob.txt too: the loop's redirection comes
# first, as in any POSIX sh), sorted, and the copy three directories down
expect glob.txt 'after.txt\ncount.txt\nempty.txt\nglob.txt\ngrep1.txt\ngrep2.txt\nhello.txt\ntailhead.txt\nuniq.txt\nwc.txt\nnotes/2024/jan/copy.txt\n'
# ps: init is PID 1 with parent 0; ps itself is running (R) as the
# child of a shell that is listed too; kernel threads show as [name].
debugfs -R "cat $H/ps.txt" "$IMG" > "$TMP/ps.txt" 2>/dev/null
ps_ppid=$(awk '$5 == "ps" && $3 == "R" { print $2 }' "$TMP/ps.txt")
if awk '$1 == 1 && $2 == 0 && $5 == "/sbin/init"' "$TMP/ps.txt" | grep -q . &&
   [ -n "$ps_ppid" ] && awk -v p="$ps_ppid" '$1 == p && $5 ~ /sh$/' "$TMP/ps.txt" | grep -q . &&
   grep -q ' \[.*\]$' "$TMP/ps.txt"; then pass "$T.ps"
else fail "$T.ps (ps.txt: $(tr '\n' '|' < "$TMP/ps.txt"))"; fi
# df: the root filesystem's size is the image's block count less the
# metadata (Linux's bsddf: first data block, superblock copies and their
# descriptor blocks, bitmaps and inode tables), counted from dumpe2fs
debugfs -R "cat $H/df.txt" "$IMG" > "$TMP/df.txt" 2>/dev/null
want=$(dumpe2fs "$IMG" 2>/dev/null | awk '
    /^Block count:/ { bc = $3 } /^Block size:/ { bs = $3 } /^First block:/ { first = $3 }
    /^Inode blocks per group:/ { itb = $5 } /^Group [0-9]+:/ { groups++ }
    /superblock at/ { meta++ }
    /Group descriptors at/ { split($NF, r, "-"); meta += r[2] - r[1] + 1 }
    END { if (bc) print (bc - first - meta - groups * (2 + itb)) * bs / 1024 }')
got=$(awk '$6 == "/" { print $2 }' "$TMP/df.txt")
if [ -n "$want" ] && [ "$got" = "$want" ]; then pass "$T.df"
else fail "$T.df (df.txt: $(tr '\n' '|' < "$TMP/df.txt"); want $want KiB for /)"; fi
absent() {
    if debugfs -R "stat $H/$1" "$IMG" 2>&1 | grep -q 'File not found'; then pass "$T.removed $1"
    else fail "$T.removed $1 (still on the disk)"; fi
}
absent gone.txt
absent before.txt
absent emptydir
# modes under init's umask (022): files 0644, directories 0755
mode_of() { debugfs -R "stat $H/$1" "$IMG" 2>/dev/null | sed -n 's/.*Mode: *\([0-7]*\).*/\1/p' | head -1; }
m1=$(mode_of hello.txt) m2=$(mode_of notes)
if [ "$m1" = 0644 ] && [ "$m2" = 0755 ]; then pass "$T.umask_modes"
else fail "$T.umask_modes (hello.txt $m1, notes $m2; want 0644, 0755)"; fi
target=$(debugfs -R "stat $H/link" "$IMG" 2>/dev/null | sed -n 's/^Fast link dest: "\(.*\)"$/\1/p')
if [ "$target" = notes/2024/jan/copy.txt ]; then pass "$T.symlink"
else fail "$T.symlink (target '$target')"; fi
