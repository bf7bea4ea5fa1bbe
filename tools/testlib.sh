# tools/testlib.sh: helpers shared by tools/run-tests and tools/tests/*.sh
# (bash; sourced, never run).  Layer: host tooling.
#
# Every test reports with lines that start with a verdict, which the runner
# counts:   PASS name   |   FAIL name (why)   |   SKIP name (why it cannot run here)
# Paths are relative to the top of the tree; BUILD may name another build dir.

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
ROOT=$PWD
BUILD=${BUILD:-build}
KERNEL=$BUILD/vellum.elf           # the production kernel (make, make qemu)
TKERNEL=$BUILD/vellum-test.elf     # the test kernel: ktests, test programs, benchmarks
ISO=$BUILD/vellum.iso
TEST_ISO=$BUILD/vellum-test.iso    # GRUB boots the test kernel's quick tests
QEMU=${QEMU:-qemu-system-i386}
PATH=$PATH:/usr/sbin:/sbin

pass() { echo "PASS $1"; }
fail() { echo "FAIL $*"; }
skip() { echo "SKIP $*"; }

# show_tail FILE [N]: the last N (25) lines of a log, indented, without CRs.
show_tail() {
    local n=${2:-25}
    echo "    --- last $n lines of $1:"
    { tr -d "\r" < "$1"; } 2>/dev/null | tail -n "$n" | sed 's/^/    | /'
}

# kernel_reports LOG [FROM [TO]]: the kernel's own reports in a serial log,
# for the line under a failure (tools/run-tests, so tools/grade too; host
# tests that boot).  Only lines FROM..TO (default: all) count, except "LAB:
# F() is not written yet (...)", which lab_not_written() and
# lab_not_written_does() print once a boot: any before TO counts (the stubs
# the boot met so far).  Prints "not written yet: F, G (stubs: they return
# -ENOSYS, -38); H (WHAT)" first (F, G the stubs that fail, H one that goes
# on doing WHAT: include/lab.h), then each
# report block whole, in the order printed:
#   lock_page: SELF-DEADLOCK ..., BUG: mutex self-deadlock ...   (the backtrace)
#   BUG: soft lockup - CPU#0 stuck for Ns! [comm:pid]            (EIP, Call Trace)
#   hung_task: no console output for N s ...                     (tasks, the tick)
#   BUG: unable to handle page fault ..., Oops: ..., kernel BUG at ...,
#   PANIC: ..., WARNING: ..., Kernel panic - not syncing: ...     (registers, Call Trace)
#   lock_page: task X waited N ms ..., mutex ... waiting > N ms   (the holder)
#   ktest: time-out: the boot ran N s of guest time ...           (EIP, Call Trace)
#   ======... (a line of '='), then the lock validator's report   (all of it, to
#     WARNING: possible circular locking dependency detected ...   "turning off the
#                                                                   locking ...")
# A block is its first line and every line after it that is indented or one
# of a report's own lines (EIP:, Call Trace:, the registers, ---[ end trace ]---,
# the panic line); it ends at the first other line ("ktest: ...").  Trimmed:
# in a hung-task dump the tasks sleeping in state S (daemons waiting for
# work) and the running task's frames (the tick's own) are left out, a
# block stops after 40 lines, a report printed again (same first line,
# digits aside) is shown once, and the panic that follows a report
# (softlockup_panic, deadlock=panic...) is its line without its trace.  Prints nothing if the log has no report.
kernel_reports() {
    { tr -d '\r' < "$1"; } 2>/dev/null | awk -v from="${2:-1}" -v to="${3:-0}" '
        function flush(   i) {
            if (n == 0) return
            if (skipped) blk[n++] = "  (" skipped " task(s) sleeping in state S left out)"
            out = out (out == "" ? "" : "\n") blk[0]
            for (i = 1; i < n && i < 40; i++) out = out "\n" blk[i]
            if (n > 40) out = out "\n  [... " n - 40 " more lines of this report in the log]"
            n = 0; skipped = 0
        }
        to > 0 && NR > to { exit }
        /LAB: .*\(\) is not written yet/ {
            f = $0; sub(/.*LAB: /, "", f); sub(/\(\).*/, "", f)
            if (f in nw) next
            nw[f] = 1; w = $0
            if (w ~ /not written yet \(/ && w !~ /\(returning -ENOSYS\)/) {
                sub(/.*not written yet \(/, "", w); sub(/\)[^)]*$/, "", w)
                does = does (does == "" ? "" : ", ") f " (" w ")"  # lab_not_written_does
            } else { nfns++; fns = fns (fns == "" ? "" : ", ") f }
            next
        }
        NR < from { next }
        ld && n == 1 && !/^(WARNING|BUG): / { ld = 0; n = 0 }   # a '=' line, not a report
        ld && !/^ktest: / {                        # the lock validator: its whole report
            if (n == 1) {                          # the title under the banner
                k = $0; gsub(/[0-9a-fx]+/, "#", k)
                if (k in seen) { dup = 1; n = 0 } else seen[k] = 1
            }
            if (/^turning off the locking correctness validator/) ld = 0
            if (!dup && (n > 1 || $0 != "")) blk[n++] = $0
            next
        }
        /^====================+$/ { flush(); dup = after_panic = 0; ld = 1; hung = 0; blk[n++] = $0; next }
        (n > 0 || dup) && (/^[ \t]/ || /^(EIP|CS:EIP|EAX|ESI|DS|CR0|task): / ||
                           /^(Call Trace:|---\[ end|Kernel panic - not syncing|tasks \(R running|#PF error_code|Oops: |Powering off)/) {
            if (dup || after_panic) next           # a report shown already
            if (/^Kernel panic/ && traced) {       # the panic the report asked for:
                blk[n++] = $0; after_panic = 1     # its line; its trace is the report'"'"'s
                next
            }
            if (/^Call Trace:/) traced = 1
            if (hung) {                            # trim the task dump
                if (/^  pid [0-9]+ /) {
                    st = $0; sub(/^  pid [0-9]+ +[^ ]+ +/, "", st)
                    running = $0 ~ /\(running\)/
                    drop = substr(st, 1, 1) == "S" && !running
                    if (drop) { skipped++; next }
                } else if (/^    \[</) { if (drop || running) next }
                else drop = running = 0
            }
            blk[n++] = $0; next
        }
        { flush(); dup = after_panic = ld = 0 }
        /^(lock_page: SELF-DEADLOCK|lock_page: task .* waited|BUG: |kernel BUG at |Oops: |PANIC: |WARNING: |Kernel panic - not syncing|hung_task: no console output|mutex .* waiting > |ktest: time-out)/ {
            k = $0; gsub(/[0-9a-fx]+/, "#", k)
            if (k in seen) { dup = 1; next }
            seen[k] = 1

            hung = /^hung_task:/; drop = running = traced = after_panic = 0
            blk[n++] = $0
        }
        END {
            flush()
            if (fns != "") fns = fns (nfns > 1 ? " (stubs: they return" : " (a stub: it returns") " -ENOSYS, -38)"
            if (fns != "" || does != "") print "not written yet: " fns (fns != "" && does != "" ? "; " : "") does
            if (out != "") print out
        }'
}

# show_kernel_report LOG [FROM [TO]]: the kernel's reports in LOG (above),
# indented, or if it has none the last 25 lines (show_tail).
show_kernel_report() {
    local r
    r=$(kernel_reports "$@")
    if [ -z "$r" ]; then show_tail "$1"; return; fi
    printf '%s\n' "$r" | sed 's/^/    | /'
}

# vellum_qemu LOG TIMEOUT QEMU-ARGS...: boot headless with the serial port
# in LOG; returns QEMU's status (124 when the timeout killed it).  With the
# isa-debug-exit device a kernel write of v to port 0xf4 exits with (v<<1)|1:
# ktest's "all passed" is 1, failures 3, panic 7.  A triple fault exits 0.
#
# Guest time: QEMU runs with -icount $ICOUNT (default shift=3): the guest's
# clock advances 2^3 ns per instruction it executes, a guest second is 125
# million instructions however loaded the host is, so the kernel's own
# time limits (the soft-lockup and hung-task watchdogs, ktest_timeout=,
# KAPPEND in tools/run-tests) catch a hang after the same work on every
# machine.  While the guest halts its clock follows the host's (QEMU's
# sleep=on): a disk request completes in host time, and sleep=off, which
# would jump the clock to the next timer instead, let two ATA tests see
# time-outs that never happen.  ICOUNT= (empty) runs without.  The host's
# time-out is the last resort only: TIMEOUT seconds times TIMEOUT_FACTOR
# (default 4), for a guest that stopped its own clock (a loop with
# interrupts off) or a QEMU that went wrong.
# CPUS: the CPUs QEMU gives the guest (-smp; default 1: make check's boots
# run on one CPU unless a suite's .conf asks for more, tools/run-tests).
ICOUNT=${ICOUNT-shift=3}
# backstop SECONDS: a host-side time-out, the wall-clock last resort for
# what the guest's own clock cannot end (a build, GDB, a grader run, a
# hung emulator), scaled the same way: SECONDS is generous for an idle
# 2-core machine, TIMEOUT_FACTOR (default 4) leaves room for a loaded one
# (make check under a competing load of 8 runs each test 5 to 10 times
# slower).  Only a real hang waits that long.
backstop() { echo $(($1 * ${TIMEOUT_FACTOR:-4})); }
vellum_qemu() {
    local log=$1 t=$(backstop "$2")
    shift 2
    rm -f "$log"
    timeout -k 2 "$t" "$QEMU" -accel tcg ${ICOUNT:+-icount "$ICOUNT"} -display none -no-reboot -m 128M -nic none -smp "${CPUS:-1}" \
        -serial "file:$log" -monitor none \
        -device isa-debug-exit,iobase=0xf4,iosize=0x04 "$@" </dev/null >"$log.qemu" 2>&1
}

# Host tests that boot a program of user/tests as init on a small root of
# their own, and check the disk it leaves (powercut.sh, ext3powercut.sh,
# ext3linux.sh, lowmem.sh).  They set T (the test's name) and TMP (its
# scratch directory: init_test_begin, below, makes it and the root).
# build_init_test: make all user, and the host's pattern tool (tools/
# vpattern.c) as $VP.  1 after a FAIL line if either does not build.
build_init_test() {
    make -s --no-print-directory BUILD="$BUILD" all user >"$TMP/build.log" 2>&1 ||
        { fail "$T.build"; show_tail "$TMP/build.log"; return 1; }
    VP=$TMP/vpattern
    gcc -O2 -o "$VP" tools/vpattern.c 2>"$TMP/gcc.log" ||
        { fail "$T.vpattern_build"; show_tail "$TMP/gcc.log"; return 1; }
}
# init_root DIR PROG: a root tree for init=/tests/PROG: the program and the
# mount points it uses (/etc, /dev, /proc, /tmp).
init_root() {
    mkdir -p "$1/tests" "$1/etc" "$1/dev" "$1/proc" "$1/tmp" &&
    cp "$BUILD/rootfs/tests/$2" "$1/tests/"
}
# init_test_begin PROG: such a test's start: TMP, a scratch directory
# (removed at exit, KEEP=1 keeps it; a power-cut QEMU still running, QPID,
# is killed first), the builds (build_init_test: 1 after a FAIL line if
# they fail), and R=$TMP/root, a root for init=/tests/PROG (init_root).
init_test_begin() {
    TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-$T.XXXXXX") || exit 1
    QPID=
    trap '[ -n "$QPID" ] && kill -9 "$QPID" 2>/dev/null; [ "${KEEP:-}" = 1 ] && echo "kept $TMP" || rm -rf "$TMP"' EXIT
    build_init_test || return 1
    R=$TMP/root
    init_root "$R" "$1"
}
# qemu_cut LOG IMAGE APPEND [DRIVE-OPTIONS]: the production kernel in the
# background (its pid in QPID), COM1 in LOG, IMAGE as hda, for a power cut
# (kill -9 "$QPID").  No -icount: the cut lands at a random instruction.
# Not under timeout(1): a `timeout` killed with -9 leaves its QEMU running,
# an orphan that keeps make check's descriptors, the check lock among them,
# for good; the caller's loop bounds the boot instead (backstop).
qemu_cut() {
    : > "$1"
    "$QEMU" -accel tcg -display none -no-reboot -m 64M -nic none -smp "${CPUS:-1}" \
        -monitor none -serial "file:$1" -kernel "$KERNEL" -append "$3" \
        -drive "file=$2,format=raw,if=ide,index=0${4:+,$4}" </dev/null >"$1.qemu" 2>&1 &
    QPID=$!
}
# fsck_clean NAME IMAGE: PASS NAME if the host's e2fsck -fn finds nothing.
fsck_clean() {
    if e2fsck -fn "$2" >"$TMP/fsck.log" 2>&1; then pass "$1"
    else fail "$1"; show_tail "$TMP/fsck.log" 15; fi
}

# same_replay NAME A B: PASS NAME if images A and B (a journal replayed
# two ways: Vellum's mount, the host's debugfs -w -R journal_run; the
# ext3 tests) are equal byte for byte but for the superblock's s_wtime
# (bytes 48..51), s_lastcheck (64..67, debugfs's journal_run stamps it) and
# s_kbytes_written (376..383), offsets from byte 1024: the fields each side
# stamps its own way
same_replay() {
    local diffs
    diffs=$(cmp -l "$2" "$3" | awk '{ o = $1 - 1 - 1024 }
        !((o >= 48 && o < 52) || (o >= 64 && o < 68) || (o >= 376 && o < 384)) { print }' |
        head -5)
    if [ -z "$diffs" ]; then pass "$1"
    else fail "$1 (first differing bytes, 1-based offset and octal values: $(echo $diffs))"; fi
}

# The ext3 tests' recovery of a journal left on an image (ext3linux.sh:
# Linux left it; ext3powercut.sh: a power cut), from copies in $TMP:
#   a.img  Vellum, root mounted "ro": the replay alone
#   c.img  Vellum, read-write: the replay and a clean unmount
#   y.img  the host's replay alone (debugfs -w -R journal_run)
# ext3_recover N IMAGE BOOT RO RW LOG...: BOOT LOG IMG [ro] is the test's
# recovery boot, 0 if it ran to its check; its logs are $TMP/N.ro.log (a)
# and $TMP/N.rw.log (c).  Checks N.RO and N.RW (the boots), N.no_errors (no
# FAIL line of ext3work or of $T's own program, and no oops, panic, BUG or
# WARNING, in LOG... and the two boots' logs), N.replay_same_as_host (a
# equals y, same_replay) and N.fsck_vellum (c is e2fsck -fn clean).
ext3_recover() {
    local n=$1 img=$2 boot=$3 ro=$4 rw=$5 c
    shift 5
    for c in a c y; do cp "$img" "$TMP/$c.img"; done
    if "$boot" "$TMP/$n.ro.log" "$TMP/a.img" ro; then pass "$n.$ro"
    else fail "$n.$ro"; show_kernel_report "$TMP/$n.ro.log"; fi
    if "$boot" "$TMP/$n.rw.log" "$TMP/c.img"; then pass "$n.$rw"
    else fail "$n.$rw"; show_kernel_report "$TMP/$n.rw.log"; fi
    if grep -h -m1 "$T: FAIL\|ext3work: FAIL\|Oops\|Kernel panic\|BUG:\|WARNING:" \
            "$@" "$TMP/$n.ro.log" "$TMP/$n.rw.log" >"$TMP/bad"; then
        fail "$n.no_errors ($(head -1 "$TMP/bad" | tr -d '\r'))"
    else pass "$n.no_errors"; fi
    debugfs -w -R journal_run "$TMP/y.img" >"$TMP/replay.log" 2>&1
    same_replay "$n.replay_same_as_host" "$TMP/a.img" "$TMP/y.img"
    fsck_clean "$n.fsck_vellum" "$TMP/c.img"
}

# qemu_status_text RC: what QEMU's exit status means for a Vellum test boot.
qemu_status_text() {
    case $1 in
        0) echo "exit 0: triple fault or power-off, no test verdict" ;;
        1) echo "exit 1: ktest all passed" ;;
        3) echo "exit 3: ktest failures" ;;
        7) echo "exit 7: kernel panic/oops" ;;
        124|137) echo "timed out" ;;
        *) echo "exit $1" ;;
    esac
}

# copy_build FROM TO: a copy of the build directory FROM (absolute) in TO
# (made if missing), for a student tree built on the solution's objects
# (labs.sh, grade_hangs.sh): without the debug and clang kernels, the grade
# logs and the ISOs, and with holes kept (tar -S): the test images'
# staging trees hold a 4 GiB sparse file (tools/mkimages.sh), which a plain
# copy writes out in full, 4 GiB a tree.  The dependency files name their
# targets under the BUILD they were made with; the copy's are rewritten to
# build/ (a BUILD other than "build" would lose the header dependencies, and
# a cut header would not recompile its includers).
copy_build() {
    mkdir -p "$2" &&
    tar -C "$1" --exclude=./debug --exclude=./clang --exclude=./grade --exclude='./*.iso' \
        --exclude=./isodir --exclude=./isotest --exclude='./gradescope-*.zip' -S -cf - . |
        tar -C "$2" -xf - || return 1
    if [ "$BUILD" != build ]; then
        find "$2" -name '*.d' -exec sed -i -e "s|$1/|build/|g" -e "s|^${BUILD%/}/|build/|" {} +
    fi
}

# Typing at a booted guest's shell prompt (tools/tests/bochs.sh, build.sh,
# rundisk.sh, shell_session.sh, shell_keys.sh, creds_session.sh): the
# guest's COM1 output accumulates in $CONSOLE_LOG, its input is fd 3,
# $CONSOLE_PID is the emulator (a wait ends early when it has exited), and
# a wait also ends at $CONSOLE_DEADLINE ($SECONDS), when it is set: a
# session's total budget.
# console_open FILE: COM1 of the QEMU started next on a pair of FIFOs
# (FILE.in, FILE.out; give QEMU -serial "$CONSOLE_SERIAL"), its output
# collected in CONSOLE_LOG=FILE by a reader that ends when QEMU closes it,
# fd 3 opened read-write on its input (so the open does not block).
console_open() {
    rm -f "$1.in" "$1.out"
    mkfifo "$1.in" "$1.out"
    CONSOLE_LOG=$1 CONSOLE_SERIAL=pipe:$1
    : > "$CONSOLE_LOG"
    cat "$1.out" > "$CONSOLE_LOG" &
    exec 3<>"$1.in"
}
# console_prompts: how many shell prompts ("vellum:CWD$ ") the log holds.
console_prompts() { { tr -d '\r' < "$CONSOLE_LOG"; } 2>/dev/null | grep -o 'vellum:[^ ]*\$ ' | wc -l; }
# console_wait N SECONDS: until at least N prompts were printed; 1 on timeout.
console_wait() {
    local deadline=$((SECONDS + $2))
    while [ "$(console_prompts)" -lt "$1" ]; do
        if [ $SECONDS -ge $deadline ] || ! kill -0 "$CONSOLE_PID" 2>/dev/null ||
           { [ -n "$CONSOLE_DEADLINE" ] && [ $SECONDS -ge "$CONSOLE_DEADLINE" ]; }; then
            return 1
        fi
        sleep 0.2
    done
}
# console_type N LINE: wait (backstop 30 s) for prompt number N, then type
# LINE and Enter; 1 if the prompt never came.
console_type() {
    console_wait "$1" "$(backstop 30)" || return 1
    printf '%s\n' "$2" >&3
}

# A whole session at the shell (tools/tests/shell_session.sh, shell_keys.sh,
# creds_session.sh), test T in directory TMP:
#
#   console_boot IMAGE   boot $KERNEL with root=hda from IMAGE, COM1 on the
#                        console's FIFOs in $TMP (LOG is its log), QEMU's pid
#                        in QPID; the session may last CONSOLE_TOTAL seconds
#                        (default 300: about 20 idle, the rest is for a loaded
#                        machine; only a hang waits that long)
#   console_next CMD     wait for the next prompt (NP counts them), type CMD;
#                        a prompt that never comes is one FAIL T.prompt line,
#                        and after it nothing more is typed (LOST=1)
#   console_end          wait for QEMU to exit by itself (the session's
#                        poweroff), bounded; its status in rc; input closed
console_boot() {
    console_open "$TMP/serial.log"
    LOG=$CONSOLE_LOG NP=0 LOST=0
    local total=${CONSOLE_TOTAL:-300}
    timeout -k 2 $((total + 30)) "$QEMU" -accel tcg -display none -no-reboot -m 128M -nic none \
        -monitor none -serial "$CONSOLE_SERIAL" -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
        -kernel "$KERNEL" -append "root=hda" \
        -drive "file=$1,format=raw,if=ide,index=0" </dev/null >"$TMP/qemu.out" 2>&1 &
    QPID=$! CONSOLE_PID=$!
    CONSOLE_DEADLINE=$((SECONDS + total))
}
console_next() {
    [ "$LOST" = 1 ] && return 1
    NP=$((NP + 1))
    if ! console_wait $NP 60; then
        fail "$T.prompt (no prompt #$NP before typing: $1)"; show_tail "$LOG" 20
        LOST=1
        return 1
    fi
    printf '%s\n' "$1" >&3
}
console_end() {
    while kill -0 "$QPID" 2>/dev/null && [ $SECONDS -lt $((CONSOLE_DEADLINE + 20)) ]; do
        sleep 0.3
    done
    wait "$QPID" 2>/dev/null
    rc=$?
    QPID=
    exec 3>&-
}
