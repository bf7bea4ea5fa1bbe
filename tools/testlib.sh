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

# vellum_qemu LOG TIMEOUT QEMU-ARGS...: boot headless with the serial port
# in LOG; returns QEMU's status (124 when the timeout killed it).  With the
# isa-debug-exit device a kernel write of v to port 0xf4 exits with (v<<1)|1:
# ktest's "all passed" is 1, failures 3, panic 7.  A triple fault exits 0.
vellum_qemu() {
    local log=$1 t=$2
    shift 2
    rm -f "$log"
    timeout -k 2 "$t" "$QEMU" -accel tcg -display none -no-reboot -m 128M -nic none \
        -serial "file:$log" -monitor none \
        -device isa-debug-exit,iobase=0xf4,iosize=0x04 "$@" </dev/null >"$log.qemu" 2>&1
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

# Typing at a booted guest's shell prompt (tools/tests/bochs.sh, build.sh):
# the guest's COM1 output accumulates in $CONSOLE_LOG, its input is fd 3,
# $CONSOLE_PID is the emulator (a wait ends early when it has exited).
# console_prompts: how many shell prompts ("vellum:CWD$ ") the log holds.
console_prompts() { { tr -d '\r' < "$CONSOLE_LOG"; } 2>/dev/null | grep -o 'vellum:[^ ]*\$ ' | wc -l; }
# console_wait N SECONDS: until at least N prompts were printed; 1 on timeout.
console_wait() {
    local deadline=$((SECONDS + $2))
    while [ "$(console_prompts)" -lt "$1" ]; do
        if [ $SECONDS -ge $deadline ] || ! kill -0 "$CONSOLE_PID" 2>/dev/null; then
            return 1
        fi
        sleep 0.2
    done
}
# console_type N LINE: wait (30 s) for prompt number N, then type LINE and
# Enter; 1 if the prompt never came.
console_type() {
    console_wait "$1" 30 || return 1
    printf '%s\n' "$2" >&3
}
