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
# tee, head, tail, touch, ps, df, $?, a for loop over globs, echo into a
# /proc file that refuses the value (the error and status 1), interrupts
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

console_boot "$IMG"     # tools/testlib.sh: LOG, QPID, NP, LOST

if console_wait 1 120; then pass "$T.boot_to_prompt"
else fail "$T.boot_to_prompt (no shell prompt within 120 s)"; show_tail "$LOG" 30; LOST=1; fi

H=/home/newcomer
console_next "mkdir $H"
console_next "cd $H"
console_next "pwd"
console_next "echo hello world > hello.txt"
console_next "echo second line >> hello.txt"
console_next "mkdir -p notes/2024/jan"
console_next "cp hello.txt notes/2024/jan/copy.txt"
console_next "cat hello.txt | wc > wc.txt"
console_next "ls / | wc -l > count.txt"
console_next "echo temporary > gone.txt"
console_next "rm gone.txt"
console_next "echo moved > before.txt"
console_next "mv before.txt after.txt"
console_next "ln -s notes/2024/jan/copy.txt link"
console_next "cat link >> after.txt"
console_next "mkdir emptydir"
console_next "rmdir emptydir"
console_next "echo b a c b | xargs -n 1 | sort | uniq -c > uniq.txt"
console_next "grep -n second hello.txt | tee grep1.txt > grep2.txt"
console_next "tail -n 1 hello.txt | head -c 6 > tailhead.txt"
console_next "touch empty.txt"
console_next 'for f in *.txt notes/*/j?n/[a-c]*; do echo "$f"; done > glob.txt'
console_next "ps > ps.txt"
console_next "df > df.txt"
console_next "false"
console_next 'echo status=$? > status.txt'
# a write the file refuses (a CPU mask that is not hex): reported, status 1,
# by the builtin and by /bin/echo, as bash's and coreutils' echo
console_next 'echo zz > /proc/irq/1/smp_affinity 2> echoerr.txt; echo echo-status=$? > echost.txt'
console_next '/bin/echo zz > /proc/irq/1/smp_affinity 2>> echoerr.txt; echo binecho-status=$? >> echost.txt'
console_next "sleep 30"
# Ctrl-C: the tty sends SIGINT to the foreground group; the prompt must come
# back at once, not when sleep ends (28.5 s or more after the ^C: the wait
# of 25 s tells the two apart, and leaves a loaded machine time to answer).
sleep 1.5
t0=$SECONDS
printf '\003' >&3
NP=$((NP + 1))
if console_wait $NP 25; then
    pass "$T.ctrl_c (prompt back after $((SECONDS - t0)) s)"
else
    fail "$T.ctrl_c (no prompt within 25 s of ^C)"; show_tail "$LOG" 10; LOST=1
fi
NP=$((NP - 1))                         # console_next waits for that prompt again
console_next 'echo sigint-status=$?'
# Ctrl-Z: SIGTSTP to the foreground group stops sleep (the shell ignores
# it); the shell reports "[pid] stopped" and prompts again at once.
console_next "sleep 30"
sleep 1.5
t0=$SECONDS
printf '\032' >&3
NP=$((NP + 1))
if console_wait $NP 25; then
    took=$((SECONDS - t0))
    if tr -d '\r' < "$LOG" | grep -q '^\[[0-9]*\] stopped$'; then
        pass "$T.ctrl_z (stopped, prompt back after ${took} s)"
    else fail "$T.ctrl_z (prompt back after ${took} s, but no '[pid] stopped' line)"; fi
else
    fail "$T.ctrl_z (no prompt within 25 s of ^Z)"; show_tail "$LOG" 10; LOST=1
fi
NP=$((NP - 1))
console_next 'echo tstp-status=$?'
console_next "jobs"
# fg: the stopped sleep runs again in the foreground: no prompt until ^C.
console_next "fg"
sleep 2
n_before=$(console_prompts)
printf '\003' >&3
NP=$((NP + 1))
if [ "$n_before" -lt $NP ] && console_wait $NP 25; then pass "$T.fg_then_ctrl_c"
else fail "$T.fg_then_ctrl_c (prompts before ^C: $n_before, want $((NP - 1)))"; show_tail "$LOG" 10; fi
NP=$((NP - 1))
console_next 'echo fg-status=$?'
console_next "jobs"
console_next "sync"
console_next "poweroff"

# ---- QEMU should exit by itself (power off): wait, bounded.
console_end                            # QEMU gone by itself (poweroff): rc
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
expect echost.txt 'echo-status=1\nbinecho-status=1\n'
expect echoerr.txt 'sh: echo: write error: Invalid argument\necho: write error: Invalid argument\n'
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
ps_ppid=$(awk '$6 == "ps" && $3 == "R" { print $2 }' "$TMP/ps.txt")
if awk '$1 == 1 && $2 == 0 && $6 == "/sbin/init"' "$TMP/ps.txt" | grep -q . &&
   [ -n "$ps_ppid" ] && awk -v p="$ps_ppid" '$1 == p && $6 ~ /sh$/' "$TMP/ps.txt" | grep -q . &&
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
