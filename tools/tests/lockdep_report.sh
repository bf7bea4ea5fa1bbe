#!/bin/bash
# tools/tests/lockdep_report.sh: the lock validator's report pasted in
# docs/lockdep.md ("How a report reads") is the one the kernel prints today
# (host test; kernel/lockdep.c).  Boots the test kernel on the test that
# makes it, uwrite.naive_legacy_inversion_is_reported_by_the_validator (lab
# 7's naive legacy write: the page lock, then mmap_sem in the fault), cuts
# the report out of the serial log (its line of '=' to "turning off the
# locking correctness validator.") and compares it, line for line, with the
# block between the doc's <!-- lockdep-report: ... --> markers.  Addresses
# and function offsets are compared as shapes (8 hex digits, +0xN/0xN): a
# rebuild moves them; a renamed function, another lock or a changed line is
# a failure, and the doc is updated by pasting the new report.
#   lockdep_report.kernel_made_it   the boot passed the test and printed one report
#   lockdep_report.doc_matches      the doc's block is that report
#   lockdep_report.unplanted_fails  tools/run-tests on
#       lockdep.unplanted_report_fails_the_test (an AB-BA no test planted):
#       FAIL, "1 lock validator report during ...", the report under it (its
#       first 40 lines, to the held locks: kernel_reports' cap)
source "$(dirname "$0")/../testlib.sh"
T=lockdep_report
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-lockdep.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
TEST=uwrite.naive_legacy_inversion_is_reported_by_the_validator

vellum_qemu "$TMP/serial.log" 30 -kernel "$TKERNEL" -append "test=$TEST ktest_timeout=30"
tr -d '\r' < "$TMP/serial.log" > "$TMP/log"
sed -n '/^==========*$/,/^turning off the locking correctness validator\.$/p' "$TMP/log" > "$TMP/kernel.txt"
if grep -q "^ktest: PASS $TEST\$" "$TMP/log" && [ "$(grep -c '^====' "$TMP/kernel.txt")" = 1 ]; then
    pass "$T.kernel_made_it"
else
    fail "$T.kernel_made_it (no PASS $TEST with one report in the serial log)"
    show_kernel_report "$TMP/serial.log"
fi

sed -n '/^<!-- lockdep-report: /,/^<!-- end lockdep-report -->$/p' docs/lockdep.md | sed '1,2d;$d' | sed '$d' > "$TMP/doc.txt"
shape() { sed -E 's/[0-9a-f]{8}/ADDR/g; s/\+0x[0-9a-f]+\/0x[0-9a-f]+/+OFF/g' "$1"; }
if [ -s "$TMP/doc.txt" ] && diff <(shape "$TMP/doc.txt") <(shape "$TMP/kernel.txt") > "$TMP/diff"; then
    pass "$T.doc_matches"
else
    fail "$T.doc_matches (docs/lockdep.md's report is not today's: < doc, > kernel)"
    head -n 30 "$TMP/diff" | sed 's/^/    /'
fi

# The runner's half: a report nobody planted fails the test it was made in.
tools/run-tests lockdep.unplanted_report_fails_the_test > "$TMP/run.log" 2>&1
U=lockdep.unplanted_report_fails_the_test
if grep -q "^FAIL $U\$" "$TMP/run.log" &&
   grep -qE "^    ktest: assertion failed at kernel/test/ktest.c:[0-9]+: 1 lock validator report during $U \(see above\)\$" "$TMP/run.log" &&
   grep -q '^    | WARNING: possible circular locking dependency detected$' "$TMP/run.log" &&
   grep -q '^    |  (lockdep_test_x){mutex}, at: ' "$TMP/run.log" &&
   grep -q '^    | 1 lock held by swapper/0:$' "$TMP/run.log"; then
    pass "$T.unplanted_fails"
else
    fail "$T.unplanted_fails (no FAIL of $U with the validator's line and report under it)"
    sed 's/^/    /' "$TMP/run.log" | head -n 30
fi
