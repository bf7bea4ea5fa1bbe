#!/bin/bash
# tools/tests/lockups.sh: the kernel's own lockup reports end a test boot at
# once and name the culprit (host test; kernel/watchdog.c, kernel/hung_task.c,
# include/ktest_bug.h, docs/scheduler-and-block.md "Watchdogs").  Three
# planted hangs, each a KTEST_ENDS_BOOT test booted alone by tools/run-tests
# (so the runner's reading of the log is tested too):
#   watchdog.planted_spin_ends_the_boot           a loop with interrupts on and
#       no schedule point: "BUG: soft lockup - CPU#0 stuck for 2s! [swapper:0]"
#       (watchdog_thresh=1), EIP in watchdog_test_spin, the test in the trace
#   hung_task.planted_sleep_ends_the_boot         the test's task asleep in D
#       for good: the hung-task report (hung_task=3) with that task's frames
#   pagecache.planted_self_deadlock_ends_the_boot lock_page of a page the
#       test's task holds: the SELF-DEADLOCK report, at once
# For each: the runner's FAIL line names the report ("(soft lockup: the boot
# ends here)"), the report's block is under it, the serial log is kept in
# LOGDIR with "ktest: aborted by a REPORT in TEST", and QEMU ended with the
# failure status, not at its time-out.  Then:
#   lockups.ktest_timeout     the planted sleep with no hung_task= and
#       ktest_timeout=3: the boot's guest-time budget ends it, "ktest:
#       time-out: ..." under the FAIL line
#   lockups.not_run_counted   test=hung_task,PLANTED,fault,kmalloc: the
#       aborted line counts the selected tests that never started
#   lockups.suite_skips_planted  test=watchdog (the suite) does not run the
#       planted test
source "$(dirname "$0")/../testlib.sh"
T=lockups
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-lockups.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

# has NAME FILE REGEX WHY: a line of FILE matches
has() { grep -qE -- "$3" "$2" || { fail "$T.$1 ($4)"; bad=1; }; }

LOGDIR=$TMP/logs KAPPEND="hung_task=3 watchdog_thresh=1" tools/run-tests \
    watchdog.planted_spin_ends_the_boot hung_task.planted_sleep_ends_the_boot \
    pagecache.planted_self_deadlock_ends_the_boot > "$TMP/run.log" 2>&1
# the FAIL line's test, the report, what the report block must show
while IFS='|' read -r name test report want; do
    bad=0
    out=$TMP/$name.out
    awk -v t="$test" '$1 == "FAIL" && $2 == t { on = 1; print; next }
                      on && /^(PASS|FAIL|==) / { exit } on' "$TMP/run.log" > "$out"
    has "$name" "$out" "^FAIL $test \\($report: the boot ends here\\)$" "no FAIL line naming the $report"
    for w in $want; do
        has "$name" "$out" "^    \| .*${w//\~/ }" "the report under the FAIL line lacks '${w//\~/ }'"
    done
    log=$TMP/logs/$test.log
    has "$name" "$log" "^ktest: aborted by a $report in $test: 0 passed, 1 failed, 0 not run$" \
        "no 'ktest: aborted' line in the kept log $log"
    [ $bad = 0 ] && pass "$T.$name ($report named, the boot ended at once)"
    [ $bad = 0 ] || sed 's/^/    /' "$out" | head -n 30
done <<'EOF2'
soft_lockup|watchdog.planted_spin_ends_the_boot|soft lockup|BUG:~soft~lockup~-~CPU#0~stuck~for~2s!~\[swapper:0\] EIP:~watchdog_test_spin\+0x \]~ktest_watchdog_planted_spin_ends_the_boot\+0x ---\[~end~trace~\]---
hung_task|hung_task.planted_sleep_ends_the_boot|hung task|hung_task:~no~console~output~for~3~s pid~0~swapper~+D~waiting~on~completion \]~ktest_hung_task_planted_sleep_ends_the_boot\+0x the~tick~interrupted~pid
self_deadlock|pagecache.planted_self_deadlock_ends_the_boot|page lock self-deadlock|lock_page:~SELF-DEADLOCK:~task~swapper~\(pid~0\) \]~ktest_pagecache_planted_self_deadlock_ends_the_boot\+0x now~sleeps~forever
EOF2
# Nothing but the boot's budget (no hung_task=): ktest_timeout=3 ends it.
LOGDIR=$TMP/logs KAPPEND="ktest_timeout=3" tools/run-tests hung_task.planted_sleep_ends_the_boot \
    > "$TMP/timeout.log" 2>&1
if grep -q '^FAIL hung_task.planted_sleep_ends_the_boot (time-out: the boot ends here)$' "$TMP/timeout.log" &&
   grep -qE '^    \| ktest: time-out: the boot ran 3 s of guest time \(ktest_timeout=3\)' "$TMP/timeout.log" &&
   grep -qE '^    \| EIP: ' "$TMP/timeout.log"; then
    pass "$T.ktest_timeout (the boot's guest-time budget ended it)"
else
    fail "$T.ktest_timeout"; sed 's/^/    /' "$TMP/timeout.log" | head -n 20
fi
cat "$TMP/timeout.log" >> "$TMP/run.log"

if grep -q 'timed out' "$TMP/run.log"; then
    fail "$T.no_time_out (a planted boot ran into QEMU's time-out)"; grep 'timed out' "$TMP/run.log" | head -3
else pass "$T.no_time_out"; fi

# Tests selected and never started are counted: hung_task's run before the
# planted spin (link order, as test=list names the suites), fault's and
# kmalloc's after it.
vellum_qemu "$TMP/notrun.log" 60 -kernel "$TKERNEL" \
    -append "test=hung_task,watchdog.planted_spin_ends_the_boot,fault,kmalloc watchdog_thresh=1"
rc=$?
tr -d '\r' < "$TMP/notrun.log" > "$TMP/notrun.txt"
started=$(grep -c '^ktest: start ' "$TMP/notrun.txt")
sel=$(( $(git grep -hE '^KTEST\((hung_task|fault|kmalloc),' -- '*_test.c' | wc -l) + 1 ))
line=$(grep '^ktest: aborted by a soft lockup in watchdog.planted_spin_ends_the_boot: ' "$TMP/notrun.txt")
if [ $rc = 3 ] && [ -n "$line" ] && [[ $line == *", $((sel - started)) not run" ]] &&
   [ "$started" -ge 2 ] && [ "$started" -lt "$sel" ]; then
    pass "$T.not_run_counted ($started of $sel started: '${line#ktest: }')"
else
    fail "$T.not_run_counted (QEMU $(qemu_status_text $rc); $started of $sel started; '${line:-no aborted line}')"
fi

# The suite alone never runs its planted test.
tools/run-tests watchdog > "$TMP/suite.log" 2>&1
if grep -q '^PASS watchdog\.' "$TMP/suite.log" && ! grep -q 'planted' "$TMP/suite.log" &&
   grep -q ' 0 failed' "$TMP/suite.log"; then
    pass "$T.suite_skips_planted ($(grep -c '^PASS watchdog\.' "$TMP/suite.log") tests, no planted one)"
else
    fail "$T.suite_skips_planted"; show_tail "$TMP/suite.log" 10
fi
exit 0
