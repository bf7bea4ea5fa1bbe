#!/bin/bash
# tools/qemu.sh: run QEMU for `make qemu`, `qemu-nox`, `qemu-test` and `qemu-gdb`,
# and say truthfully how it ended.  Layer: host tooling (mk/run.mk, mk/gdb.mk run it).
#
#   tools/qemu.sh QEMU-COMMAND...      e.g. tools/qemu.sh qemu-system-i386 -kernel ...
#
# QEMU's exit status alone cannot say: 1 is both QEMU's own failure (it did
# not start: a disk another QEMU holds, `Failed to get "write" lock`; a
# missing file; a bad option) and the test kernel's "all tests passed"
# through the isa-debug-exit device (a guest write of v to port 0xf4 exits
# with (v << 1) | 1: 1 passed, 3 failures, 7 panic or oops; kernel/x86/power.c,
# tools/testlib.sh).  QEMU reports its own failures on stderr, one line
# `qemu-system-i386: ...`, and the guest never writes there; so this copies
# QEMU's stderr to yours and keeps it to tell the two apart.
#   0                          the guest powered off, or you quit (Ctrl-A x): exit 0
#   1 with a QEMU error line   QEMU failed: its message again, exit 1
#   1 without one              the test kernel's tests passed: exit 0
#   3                          the test kernel's tests failed: exit 3
#   7                          the kernel panicked or oopsed (test=, oops=): exit 7
#   anything else              said so, exit with it
set -u
[ $# -gt 0 ] || { echo "usage: tools/qemu.sh QEMU-COMMAND..." >&2; exit 2; }
err=$(mktemp "${TMPDIR:-/tmp}/vellum-qemu.XXXXXX") || exit 1
trap 'rm -f "$err"' EXIT
exec 3> >(tee "$err" >&2)
tee_pid=$!
"$@" 2>&3 3>&-
status=$?
exec 3>&-
wait $tee_pid 2>/dev/null              # tee has written everything
qemu_error=$(grep -E '^[^ :]*qemu[^ :]*: ' "$err" | grep -v ': warning: ' | tail -n 1)
case $status in
    0) exit 0 ;;
    1) if [ -n "$qemu_error" ]; then
           echo "*** QEMU did not run: $qemu_error" >&2
           exit 1
       fi
       echo "*** the test kernel's tests passed (QEMU status 1: isa-debug-exit 0)" >&2
       exit 0 ;;
    3) echo "*** the test kernel reports failed tests (QEMU status 3)" >&2; exit 3 ;;
    7) echo "*** the kernel panicked or oopsed (QEMU status 7); the report is above" >&2; exit 7 ;;
    *) echo "*** QEMU exited with status $status${qemu_error:+: $qemu_error}" >&2; exit $status ;;
esac
