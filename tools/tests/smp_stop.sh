#!/bin/bash
# tools/tests/smp_stop.sh: smp_send_stop, what panic() and the oops call
# first, halts every other CPU (host test; kernel/x86/smp.c, docs/smp.md).
# The ktest smp.send_stop_halts_the_others leaves its boot with one CPU, so
# it is a KTEST_ENDS_BOOT test, booted alone by tools/run-tests at each of
# the smp suite's CPU counts (tools/suites/smp.conf: -smp 1, 4, maxcpus=2,
# nosmp, noapic); every boot must pass it.
#   smp_stop.all_boots_pass   each boot: PASS, and no FAIL line
source "$(dirname "$0")/../testlib.sh"
T=smp_stop
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-smpstop.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

tools/run-tests smp.send_stop_halts_the_others > "$TMP/run.log" 2>&1
npass=$(grep -c '^PASS smp.send_stop_halts_the_others@' "$TMP/run.log")
if [ "$npass" -ge 5 ] && ! grep -q '^FAIL' "$TMP/run.log"; then
    pass "$T.all_boots_pass ($npass boots)"
else
    fail "$T.all_boots_pass ($npass boots passed)"; show_tail "$TMP/run.log" 30
fi
