#!/bin/bash
# tools/tests/conformance.sh: the differential conformance suite on Vellum
# (host test; docs/conformance.md).  tools/conform.sh builds every program
# of user/conform (gcc -m32 -static, glibc; SKIP if the host cannot link
# one), boots Vellum once from an ext2 image holding them, runs each on
# ramfs (/tmp), on that ext2 (1 KiB blocks) and on an ext2 with 4 KiB
# blocks, and compares its output line for line with the
# committed Linux output user/conform/NAME.linux.out, less the observations
# user/conform/KNOWN-DIFFERENCES lists.  One PASS/FAIL line per program; a
# FAIL shows the diff (- Linux, + Vellum).  No Linux boot here: `make
# conformance-linux` checks the committed outputs against Linux.
# The boot runs under -icount (tools/testlib.sh), whose guest clock is
# slower than the host's on a loaded machine: its host-side last resort is
# vellum_qemu's 150 s times TIMEOUT_FACTOR, and the runner's (300 s, times
# TIMEOUT_FACTOR as every host test's) is above it.
# host-timeout: 300
# smp-pass: make check runs it again on four CPUs (tools/run-tests, SMP_CPUS):
# every program prints the same at any CPU count (affinity and procstat
# say "online" for the online CPUs), so Linux's one-CPU output holds.
source "$(dirname "$0")/../testlib.sh"
bash tools/conform.sh
st=$?
# The run pasted in docs/processes.md ("Threads and futexes") is a real
# one: each of its lines is one of the committed outputs, which Vellum's
# have just been compared with.
pasted=$(sed -n 's/^    \(threads ramfs: .*\)$/\1/p' docs/processes.md)
if [ -z "$pasted" ]; then
    fail "conformance.doc_threads_run (no pasted run in docs/processes.md)"; st=1
elif bad=$(grep -vxF -f user/conform/threads.linux.out <<<"$pasted"); then
    fail "conformance.doc_threads_run (docs/processes.md pastes lines no run printed: $bad)"; st=1
else
    pass "conformance.doc_threads_run ($(wc -l <<<"$pasted") pasted lines, each one threads printed)"
fi
exit $st
