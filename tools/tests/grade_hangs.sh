#!/bin/bash
# tools/tests/grade_hangs.sh: a hang or a crash costs seconds in a grade,
# and the grade shows the kernel's own report (host test; docs/labs/README.md
# "What a hang looks like").  Layer: host test (bash, git, QEMU).
# host-timeout: 600
#
# Three wrong attempts at lab 6's generic_perform_write, each made from this
# tree's (the solution's) loop by a rule below, written into the function the
# lab cuts in a perform_write student tree (tools/mklab), built, and graded
# with `make grade` (JOBS=1):
#   deadlock  the handout's first attempt (docs/labs/06-perform_write.md, "GDB
#             walk"): fault the source in and copy again while the page is
#             still locked.  A write from a mapping of its own page
#             self-deadlocks in filemap_fault: lock_page's SELF-DEADLOCK report,
#             whose Call Trace goes through the page fault into
#             fault_in_iov_iter_readable and generic_perform_write.
#   livelock  a chunk that committed nothing is retried at once, without
#             faulting the source in: the loop never ends and never schedules,
#             "BUG: soft lockup - CPU#0 stuck for 2s!" with the loop in the
#             report (watchdog_thresh=1, tools/run-tests' KAPPEND).
#   crash     write_begin is given a page pointer that points nowhere
#             (struct page **pagep = NULL): the filesystem's store through it
#             is "BUG: unable to handle page fault for address: 0x00000000",
#             generic_perform_write in the Call Trace; the host test mmap, on
#             the production kernel, shows the same oops (panic=-1 ends the
#             boot).
# For each: the grade runs to its "score:" line, no reason says a boot
# timed out (each hang was ended by the kernel itself, in guest time), the
# named report is under a failing test's line, and the failed tests'
# serial logs are kept in build/grade/logs with their paths printed.
# In a student tree (no solution loop to start from) it SKIPs.
source "$(dirname "$0")/../testlib.sh"
T=grade_hangs
# The wall time each grade took is in its PASS line.  It is not asserted
# by default: make check runs this under its own load, where wall time
# means nothing (guest time is what the watchdogs count).  The issue's goal,
# 90 s on an idle two-core machine, is checked by running this test alone
# there with GRADE_HANGS_BOUND=90.
BOUND=${GRADE_HANGS_BOUND:-}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-grade-hangs.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
unset MAKEFLAGS MFLAGS MAKELEVEL
ABS_BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || { fail "$T.setup (no build directory $BUILD)"; exit 0; }

read -r from to _ < <(tools/find-definition mm/filemap.c generic_perform_write)
sed -n "${from},${to}p" mm/filemap.c > "$TMP/solution.c"
if ! grep -q 'fault_in_iov_iter_readable' "$TMP/solution.c"; then
    skip "$T (no solution loop here: a student tree)"; exit 0
fi

# attempt NAME: the wrong loop, from the solution's, on stdout
attempt() {
    case $1 in
        deadlock) awk '{ print }
            /copied = copy_page_from_iter_atomic\(page, offset, bytes, i\);/ {
                print "        if (copied < bytes) {"
                print "            /* bring the source in and copy again, while the page is ours */"
                print "            fault_in_iov_iter_readable(i, bytes);"
                print "            copied = copy_page_from_iter_atomic(page, offset, bytes, i);"
                print "        }" }' ;;
        livelock) awk '
            /^        if \(status == 0\) \{$/ { skip = 1; next }
            skip { if (/^        \}$/) skip = 0; next }
            /BUG_ON\(status > \(long\)copied\);/ {
                print "        if (status == 0)"
                print "            goto again;             /* nothing committed: try the chunk again */" }
            { print }' ;;
        crash) awk '
            /^        struct page \*page;$/ { print "        struct page *page, **pagep = NULL;     /* write_begin puts the page here */"; next }
            /write_begin\(file, mapping, pos, bytes, flags, &page, &fsdata\);/ {
                sub(/&page, &fsdata/, "pagep, \\&fsdata"); print; print "        page = *pagep;"; next }
            { print }' ;;
    esac < "$TMP/solution.c"
}

# the student tree, built on a copy of the solution's objects (as labs.sh)
D=$TMP/pw
if ! tools/mklab perform_write "$D" > "$TMP/mklab.log" 2>&1; then
    fail "$T.setup (tools/mklab perform_write failed)"; show_tail "$TMP/mklab.log"; exit 0
fi
copy_build "$ABS_BUILD" "$D/build" || { fail "$T.setup (copying $BUILD)"; exit 0; }

# one NAME FAIL-REASON REPORT-REGEX TRACE-REGEX: splice, build, grade, check
one() {
    local name=$1 reason=$2 report=$3 trace=$4 bad=0 a b out=$TMP/grade-$1.log
    attempt "$name" > "$TMP/$name.c"
    if cmp -s "$TMP/$name.c" "$TMP/solution.c"; then
        fail "$T.$name (its rule no longer changes the solution's loop: update attempt())"; return
    fi
    read -r a b _ < <(cd "$D" && tools/find-definition mm/filemap.c generic_perform_write)
    { head -n $((a - 1)) "$D/mm/filemap.c"; cat "$TMP/$name.c"; tail -n +$((b + 1)) "$D/mm/filemap.c"; } \
        > "$TMP/filemap.c" && cp "$TMP/filemap.c" "$D/mm/filemap.c"
    if ! (cd "$D" && make -s --no-print-directory BUILD=build all test-kernel test-iso) > "$TMP/build-$name.log" 2>&1; then
        fail "$T.$name (the attempt does not build)"; show_tail "$TMP/build-$name.log" 15; return
    fi
    local start=$SECONDS
    (cd "$D" && JOBS=1 GRADE_JSON="$TMP/json-$name" timeout -k 5 "$(backstop 900)" \
        make -s --no-print-directory grade BUILD=build) > "$out" 2>&1
    local rc=$? secs=$((SECONDS - start))
    local score
    score=$(sed -n 's/^score: //p' "$out")
    [ $rc = 0 ] && [ -n "$score" ] || { fail "$T.$name.runs_to_the_end (make grade: status $rc, no score line)"; bad=1; }
    if [ -n "$BOUND" ] && [ $secs -gt "$BOUND" ]; then
        fail "$T.$name.within_bound (${secs} s > ${BOUND} s)"; bad=1
    fi
    if grep -q 'timed out' "$out"; then
        fail "$T.$name.no_host_time_out (a boot ran into QEMU's time-out)"; grep -m3 'timed out' "$out" | sed 's/^/    /'; bad=1
    fi
    # the report under a failing test: the runner's FAIL line, then "| " lines
    local shown
    shown=$(awk -v r="$reason" '/^    FAIL / { on = index($0, r) > 0; next } /^[^ ]/ { on = 0 } on' "$out")
    if ! grep -qE "^        \| $report" <<<"$shown"; then
        fail "$T.$name.report_shown (no FAIL line with '$reason' and '$report' under it)"; bad=1
    elif ! grep -qE "^        \|   \[<[0-9a-f]{8}>\] $trace\+0x" <<<"$shown"; then
        fail "$T.$name.report_names_the_loop (no $trace frame in the report)"; bad=1
    fi
    local logs missing=0 l
    logs=$(sed -n 's/^    serial log: //p' "$out")
    for l in $logs; do [ -s "$D/$l" ] || missing=$((missing + 1)); done
    if [ -z "$logs" ] || [ $missing -gt 0 ] || ! grep -qE "$report" $(sed "s|^|$D/|" <<<"$logs"); then
        fail "$T.$name.serial_logs_kept ($(wc -w <<<"$logs") paths, $missing missing)"; bad=1
    fi
    if [ $bad = 0 ]; then
        pass "$T.$name (${secs} s, score $score: '$(grep -m1 -E "^        \| $report" <<<"$shown" | sed 's/^        | //')' under the failed tests)"
    else
        sed 's/^/    /' "$out" | head -n 40
    fi
    [ "$name" != crash ] || check_mmap_oops "$out"
}

# the production kernel's oops in the host test mmap: the boot ended at the
# report (panic=-1), which is under its power_off line
check_mmap_oops() {
    if awk '/^mmap:/ { on = 1; next } /^[^ ]/ { on = 0 } on' "$1" |
       grep -qE '^        \| BUG: unable to handle page fault for address: 0x00000000'; then
        pass "$T.crash.mmap_report (the production kernel's oops under the host test mmap)"
    else
        fail "$T.crash.mmap_report (no oops report under mmap)"
    fi
}

one deadlock "(page lock self-deadlock: the boot ends here)" \
    'lock_page: SELF-DEADLOCK: task swapper \(pid 0\)' fault_in_iov_iter_readable
one livelock "(soft lockup: the boot ends here)" \
    'BUG: soft lockup - CPU#0 stuck for [0-9]+s! \[swapper:0\]' generic_perform_write
one crash "(started, no verdict" \
    'BUG: unable to handle page fault for address: 0x00000000' generic_perform_write
exit 0
