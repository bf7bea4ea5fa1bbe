#!/bin/bash
# tools/tests/runner.sh: the test runner itself (tools/run-tests; host test).
#  runner.progress_header      each job's lines come under a header with its
#                              time, "== kernel suite NAME (N s)", and the
#                              closing line counts them
#  runner.slices               tools/tests/labs.sh's "# host-slices: 20"
#                              makes twenty jobs, "labs@1/20" .. "labs@20/20"
#                              (tools/run-tests -n lists the jobs)
#  runner.interrupt_cleans_up  a run killed with SIGTERM in the middle of a
#                              host test stops every process it started
#                              and removes its temporary directory
source "$(dirname "$0")/../testlib.sh"
T=runner
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-runner.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

# ---- a short run: headers with times, the closing line
tools/run-tests cmdline > "$TMP/short.log" 2>&1
n=$(grep -c '^PASS cmdline\.' "$TMP/short.log")
if grep -qE '^== kernel suite cmdline \([0-9]+ s\)$' "$TMP/short.log" && [ "$n" -gt 0 ] &&
   [ "$(tail -n 1 "$TMP/short.log")" = "$n passed, 0 failed, 0 skipped" ]; then
    pass "$T.progress_header ($n tests under '$(grep '^== ' "$TMP/short.log")')"
else
    fail "$T.progress_header"; show_tail "$TMP/short.log" 10
fi

# ---- the job list
tools/run-tests -n labs cmdline > "$TMP/jobs.log" 2>&1
if [ "$(tr '\n' ' ' < "$TMP/jobs.log")" = "$(printf 'h:labs@%d/20 ' $(seq 1 20))k:cmdline " ]; then
    pass "$T.slices (labs: 20 jobs)"
else
    fail "$T.slices (jobs: $(tr '\n' ' ' < "$TMP/jobs.log"))"
fi

# ---- interrupted in the middle of a host test (mklab runs for a while)
mkdir -p "$TMP/run"
TMPDIR=$TMP/run setsid tools/run-tests mklab > "$TMP/int.log" 2>&1 &
pid=$!
for _ in $(seq 1 600); do         # until mklab's own scratch directory exists
    ls "$TMP/run"/vellum-tests.*/job0/vellum-mklab.* >/dev/null 2>&1 && break
    sleep 0.1
done
started=$(ls -d "$TMP/run"/vellum-tests.*/job0/vellum-mklab.* 2>/dev/null | head -n 1)
kill -TERM $pid
for _ in $(seq 1 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
# what it killed may linger a moment as zombies until init reaps them
for _ in $(seq 1 50); do [ -z "$(pgrep -s "$pid")" ] && break; sleep 0.1; done
left=$(pgrep -s "$pid" 2>/dev/null | tr '\n' ' ')
if [ -n "$started" ] && ! kill -0 $pid 2>/dev/null && [ -z "$left" ] &&
   [ -z "$(ls -A "$TMP/run")" ] && grep -q 'interrupted' "$TMP/int.log"; then
    pass "$T.interrupt_cleans_up (nothing left running, no temporary directory)"
else
    fail "$T.interrupt_cleans_up (test started: ${started:+yes}; runner alive: $(kill -0 $pid 2>/dev/null && echo yes || echo no); left: ${left:-none}; in TMPDIR: $(ls -A "$TMP/run" | tr '\n' ' '))"
    kill -KILL $pid 2>/dev/null
    show_tail "$TMP/int.log" 10
fi
exit 0
