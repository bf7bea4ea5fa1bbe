#!/bin/bash
# tools/tests/labs.sh: every course lab's skeleton, cut, built, booted and
# graded; the solution graded; make handin and private tests (host test;
# docs/labs/README.md).  Layer: host test (bash, git, QEMU; python3 or jq
# only to check results.json).
# host-timeout: 600
# host-slices: 20
#
# tools/run-tests runs it as 20 jobs with SLICE=1/20 .. 20/20 (docs: the
# runner's header), two a lab (ten labs): slice K of the first half takes
# the labs whose place in the list, counted from 0, is K-1 modulo 10 (one
# lab a slice: a tree also builds the later labs' prebuilt objects and
# recompiles what they touch), its skeleton and the handout's runs in it;
# slice 10+K the same lab's handout runs in the trees made from the
# solution.  Slice 10 (the last of the first half) also grades the
# solution, slice 11 runs the handouts' runs on this checkout and their
# checks, and the slice with perform_write's skeleton pastes its solution
# back.  A lab added to tools/labs/list wants two more slices here.
# Without SLICE it does everything.
#
# For EVERY lab of its slice (LAB_JOBS, default 2, or 1 in a slice, at a time):
#   - tools/mklab LAB DIR: the student tree, in a temporary directory;
#   - no trace of the removed code: no distinctive line of what the lab
#     cuts (tools/mklab --distinctive LAB: a line of at least 16 characters
#     of code that occurs nowhere else in the solution's C and assembly
#     files, outside the lab's cuts, nor in its stubs) occurs in any of its
#     C or assembly files;
#   - no later lab's answer: no distinctive line of any lab after it occurs
#     in any file of the tree (docs included; binaries, the prebuilt
#     objects among them, by their strings).  The branches of
#     mklab --all-branches commit these same trees, so the history of
#     lab/NN holds the trees of the labs up to NN only, each clean of the
#     labs after it (tools/tests/mklab.sh checks the history on its
#     synthetic labs);
#   - it builds: `make all test-kernel test-iso` (the Makefile's CFLAGS have
#     -Werror).  To keep this quick the solution's $BUILD is copied in first,
#     (mklab keeps the mtimes of the files it does not cut), so the build
#     recompiles the lab's own files (and what includes them) and relinks,
#     nothing else;
#   - `make grade` (it boots the test kernel, and the production kernel for
#     the host tests) runs to its end under a time-out and prints
#     "score: 0/N", N the lab's points; every test line is a FAIL with a
#     reason under it, and no reason says the grader lost the test ("no
#     verdict for", "gave no verdict"); results.json is well-formed
#     Gradescope results: tests[] with name, score, max_score, output, one
#     per graded test, scores 0.
#   - the tree of `tools/mklab --solved LAB` (the lab's answer in place, the
#     later labs prebuilt) grades N/N: the prebuilt objects link and work
#     (they once were compiled without the test kernel's -DCONFIG_LOCKDEP,
#     every structure with a lock had another layout, and lab 5's answer
#     scored 15/26);
#   - the lab's handout (docs/labs/NN-LAB.md): every pasted grade, console
#     and GDB walk is what a real run prints now (tools/handout-runs --lab
#     LAB: --part skeleton on this skeleton, --part rest in the second half's
#     slice, on trees made from the solution; slice 11 (HALF+1) also checks
#     docs/getting-started.md's page flags and every handout's markers and
#     points).
# Then, once:
#   - the solution (this tree, the $BUILD make check built): `make grade
#     LAB=all` scores full marks on every lab, with an instructor's private
#     test directory (GRADE_EXTRA): a test limited to lab legacy that boots
#     one of its kernel tests (scored on legacy only), and one that always
#     fails (scored 0 on every lab);
#   - perform_write's student tree, the solution pasted back (each
#     function the lab cuts, the solution's definition in place of the stub):
#     `make grade` scores N/N; `make handin` writes handin-perform_write.patch,
#     which applies with git apply to a fresh checkout of lab-base and gives
#     exactly the student's files.
source "$(dirname "$0")/../testlib.sh"
T=labs
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-labs.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
unset MAKEFLAGS MFLAGS MAKELEVEL
GRADE_TIMEOUT=${GRADE_TIMEOUT:-$(backstop 300)}       # one whole `make grade`
ABS_BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || { fail "$T.setup (no build directory $BUILD)"; exit 0; }
mapfile -t ALL_LABS < <(tools/mklab --list | awk '{ print $1 }')
[ ${#ALL_LABS[@]} -gt 0 ] || { fail "$T.list (tools/mklab --list names no lab)"; exit 0; }
# SLICE=K/N: this run's share (see above)
K=1 N=1
if [ -n "${SLICE:-}" ]; then K=${SLICE%/*} N=${SLICE#*/}; fi
# LABS: the skeletons of this slice; HLABS: the labs whose handout runs in
# the solution's trees it makes (the first and the second half of the
# slices; without SLICE, every lab in both)
HALF=$(( N > 1 ? N / 2 : 1 ))
LABS=() HLABS=()
for i in "${!ALL_LABS[@]}"; do
    if [ "$N" = 1 ]; then LABS+=("${ALL_LABS[$i]}"); HLABS+=("${ALL_LABS[$i]}"); continue; fi
    [ "$K" -le $HALF ] && [ $((i % HALF)) -eq $((K - 1)) ] && LABS+=("${ALL_LABS[$i]}")
    [ "$K" -gt $HALF ] && [ $((i % HALF)) -eq $((K - HALF - 1)) ] && HLABS+=("${ALL_LABS[$i]}")
done
LAB_JOBS=${LAB_JOBS:-$([ "$N" -gt 1 ] && echo 1 || echo 2)}

# json_ok FILE N: FILE is well-formed JSON in Gradescope's results format
# with N tests, each with name, score, max_score, output; prints the total.
json_ok() {
    if command -v python3 >/dev/null; then
        python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tests"]
assert len(t) == int(sys.argv[2]), "%d tests, want %s" % (len(t), sys.argv[2])
for x in t:
    assert isinstance(x["name"], str) and isinstance(x["output"], str), x
    assert isinstance(x["score"], (int, float)) and isinstance(x["max_score"], (int, float)), x
    assert 0 <= x["score"] <= x["max_score"], x
assert d["score"] == sum(x["score"] for x in t), "score %s != sum" % d["score"]
print(d["score"])
EOF
    elif command -v jq >/dev/null; then
        jq -e --argjson n "$2" '(.tests | length) == $n and all(.tests[]; has("name") and has("score")
            and has("max_score") and has("output")) and .score == ([.tests[].score] | add)' "$1" >/dev/null &&
            jq '.score' "$1"
    else
        echo "neither python3 nor jq to read results.json" >&2; return 1
    fi
}

# lab_points LAB: the number of tests and the points of tools/labs/LAB.tests
lab_points() { grep -vE '^[[:space:]]*(#|$)' "tools/labs/$1.tests" | awk '{ n++; p += $1 } END { print n + 0, p + 0 }'; }

# distinctive LAB: the lines of what LAB cuts that occur nowhere else in
# the solution's C and assembly files nor in LAB's stubs, 16 characters or
# more, not a comment (tools/mklab --distinctive); computed once.
distinctive() {
    [ -s "$TMP/dist-$1" ] || tools/mklab --distinctive "$1" > "$TMP/dist-$1" || return 1
    cat "$TMP/dist-$1"
}

# later_leaks LAB DIR: every distinctive line of a lab after LAB found in any
# file of DIR (docs, scripts, and the strings of the prebuilt objects and
# every other binary), "LATER FILE: LINE", the first 5
later_leaks() {
    local m seen= f
    for m in "${ALL_LABS[@]}"; do
        [ -n "$seen" ] && distinctive "$m" | sed "s/^/$m\t/"
        [ "$m" = "$1" ] && seen=1
    done > "$TMP/later-$1"
    (cd "$2" && git ls-files | while IFS= read -r f; do
        [ -f "$f" ] || continue
        if grep -qI . "$f" 2>/dev/null || [ ! -s "$f" ]; then awk -v f="$f" '{ print f ":" FNR "\t" $0 }' "$f"
        else strings -n 8 "$f" | awk -v f="$f" '{ print f ":strings\t" $0 }'; fi
    done) | awk -v pats="$TMP/later-$1" '
        BEGIN { FS = "\t"; while ((getline l < pats) > 0) { split(l, x, "\t"); p[x[2]] = x[1] } }
        { s = substr($0, index($0, "\t") + 1); sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s)
          if (s in p) print p[s] " " $1 ": " s }' | head -n "${LEAKS_MAX:-5}"
}

# ---- one lab: cut, check, build, grade.  Output in $TMP/res-LAB.
one_lab() {
    local lab=$1 D=$TMP/s-$1 log=$TMP/log-$1 f n pts
    read -r n pts < <(lab_points "$lab")
    if ! tools/mklab "$lab" "$D" >"$log.cut" 2>&1; then
        fail "$T.$lab.cut (tools/mklab $lab failed)"; sed 's/^/    /' "$log.cut"; return
    fi
    # no trace of the removed code
    local leaks=""
    distinctive "$lab" > "$log.pat"
    if [ -s "$log.pat" ]; then
        # lines are compared trimmed: any indentation
        leaks=$(cd "$D" && git ls-files -- '*.c' '*.h' '*.S' | xargs awk -v pats="$log.pat" '
            BEGIN { while ((getline l < pats) > 0) p[l] = 1 }
            { s = $0; sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); if (s in p) print FILENAME ":" FNR ": " s }' | head -n 5)
    fi
    if [ -z "$leaks" ] && [ -s "$log.pat" ]; then
        pass "$T.$lab.no_trace ($(wc -l < "$log.pat") distinctive solution lines absent)"
    else
        fail "$T.$lab.no_trace (solution lines found: ${leaks:-none}; patterns: $(wc -l < "$log.pat"))"
    fi
    # no later lab's answer anywhere in the tree (the later labs are prebuilt)
    if [ "$lab" = "${ALL_LABS[-1]}" ]; then
        :
    elif leaks=$(later_leaks "$lab" "$D") && [ -z "$leaks" ] && [ -s "$TMP/later-$lab" ]; then
        pass "$T.$lab.no_later_answer ($(wc -l < "$TMP/later-$lab") distinctive lines of the later labs absent from every file)"
    else
        fail "$T.$lab.no_later_answer (found: ${leaks:-none}; patterns: $(wc -l < "$TMP/later-$lab" 2>/dev/null))"
    fi
    # build on a copy of the solution's objects
    copy_build "$ABS_BUILD" "$D/build" || { fail "$T.$lab.copy_build"; return; }
    if ! grep -q -- '-Werror' "$D/Makefile"; then fail "$T.$lab.werror (the Makefile's CFLAGS lost -Werror)"; fi
    local brc
    (cd "$D" && timeout -k 5 "$(backstop 300)" make -s --no-print-directory BUILD=build all test-kernel test-iso) >"$log.build" 2>&1
    brc=$?
    if [ $brc = 0 ]; then
        pass "$T.$lab.builds"
    elif [ $brc = 124 ]; then
        fail "$T.$lab.builds (make all test-kernel test-iso timed out after $(backstop 300) s)"; show_tail "$log.build" 20; return
    else
        fail "$T.$lab.builds (make all test-kernel test-iso with -Werror failed)"; show_tail "$log.build" 20; return
    fi
    # grade: to the end, 0 points, a reason per failure
    (cd "$D" && GRADE_JSON="$TMP/json-$lab" timeout -k 5 "$GRADE_TIMEOUT" make -s --no-print-directory grade \
        BUILD=build GRADE_EXTRA="$TMP/extra") >"$log.grade" 2>&1
    local rc=$? out
    out=$(awk -v lab="$lab" '
        /^[^ ].*: +(PASS|FAIL) +[0-9]+\/[0-9]+$/ {
            if (name != "" && !why) bad = bad " " name "(no reason)"
            name = $1; sub(/:$/, "", name); why = 0; tests++
            if ($2 == "PASS" || $3 !~ /^0\//) bad = bad " " name "(" $2 " " $3 ")"
            next }
        /^    / { why = 1
                  if ($0 ~ /no verdict for|gave no verdict|runner lost this job|vanished|the test runner ran no test/) lost = lost " " name }
        /^score: / { score = $2 }
        END { if (name != "" && !why) bad = bad " " name "(no reason)"
              print tests + 0, score, bad "|" lost }' "$log.grade")
    local tests score rest bad lost
    read -r tests score rest <<<"$out"
    bad=${rest%%|*} lost=${rest#*|}
    # the extra tests: one always-failing (every lab), one for legacy only
    local want_n=$((n + 1)) want_pts=$((pts + 1))
    if [ "$lab" = legacy ]; then want_n=$((n + 2)); want_pts=$((pts + 3)); fi
    if [ $rc -ne 0 ]; then
        fail "$T.$lab.grade_runs_to_the_end (make grade: status $rc$([ $rc = 124 ] && echo ', timed out'))"; show_tail "$log.grade" 30
    elif [ "$score" = "0/$want_pts" ] && [ "$tests" = "$want_n" ] && [ -z "${bad// /}" ] && [ -z "${lost// /}" ]; then
        pass "$T.$lab.skeleton_scores_0 (score: 0/$want_pts, $tests tests each failing with a reason)"
    else
        fail "$T.$lab.skeleton_scores_0 (score: $score, want 0/$want_pts; tests: $tests of $want_n; wrong:${bad:- none}; lost by the grader:${lost:- none})"
        show_tail "$log.grade" 40
    fi
    local js
    if js=$(json_ok "$TMP/json-$lab" "$want_n" 2>&1) && [ "$js" = 0 ]; then pass "$T.$lab.results_json"
    else fail "$T.$lab.results_json ($TMP/json-$lab: ${js:-no total})"; fi
    # the handout's pasted grades, consoles and GDB walks in this skeleton
    # (tools/handout-runs)
    SLICE= HANDOUT_SKELETON=$D KEEP=$TMP/ho-$lab tools/handout-runs --lab "$lab" --part skeleton
}

# The instructors' private tests (GRADE_EXTRA)
mkdir -p "$TMP/extra"
cat > "$TMP/extra/legacy_boot.sh" <<'EOF'
# points: 2
# lab: legacy
# A private test: one kernel test of lab legacy, booted here.
source tools/testlib.sh
vellum_qemu "$TMPDIR/priv.log" 30 -kernel "$TKERNEL" -append "test=writepath.legacy_fallback_two_copies"
if tr -d '\r' < "$TMPDIR/priv.log" | grep -q 'ktest: PASS writepath.legacy_fallback_two_copies'; then
    echo "PASS private.legacy_boot"
else
    echo "FAIL private.legacy_boot (writepath.legacy_fallback_two_copies did not pass)"
fi
EOF
cat > "$TMP/extra/always_fails.sh" <<'EOF'
# A private test that fails on every lab: its reason must show.
echo "FAIL private.always_fails (instructor says no)"
EOF

# ---- every lab's skeleton, LAB_JOBS at a time
for lab in "${LABS[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$LAB_JOBS" ]; do wait -n; done
    one_lab "$lab" > "$TMP/res-$lab" 2>&1 &
done
wait
for lab in "${LABS[@]}"; do cat "$TMP/res-$lab"; done

# ---- the solution: full marks on every lab (+ the legacy private test);
# in the last slice
solution_full_marks() {
    local LABS=("${ALL_LABS[@]}")
    total_pts=0
    for lab in "${LABS[@]}"; do read -r _ p < <(lab_points "$lab"); total_pts=$((total_pts + p)); done
    n_all=0; for lab in "${LABS[@]}"; do read -r k _ < <(lab_points "$lab"); n_all=$((n_all + k + 1)); done
    n_all=$((n_all + 1))
    GRADE_EXTRA="$TMP/extra" GRADE_JSON="$TMP/json-solution" BUILD="$BUILD" \
        timeout -k 5 "$GRADE_TIMEOUT" tools/grade all >"$TMP/sol.log" 2>&1
    rc=$?
    notfull=$(awk '/^[^ ].*: +(PASS|FAIL) +[0-9]+\/[0-9]+$/ && $1 !~ /^[a-z_]+\/extra\// {
                       split($3, a, "/"); if (a[1] != a[2]) print $1 }' "$TMP/sol.log" | tr '\n' ' ')
    want="score: $((total_pts + 2))/$((total_pts + 2 + ${#LABS[@]} * 1))"
    if [ $rc -eq 0 ] && grep -qx "$want" "$TMP/sol.log" && [ -z "$notfull" ] &&
       grep -qE '^legacy/extra/legacy_boot: +PASS  2/2$' "$TMP/sol.log" &&
       [ "$(grep -cE '^[a-z_]+/extra/always_fails: +FAIL  0/1$' "$TMP/sol.log")" = ${#LABS[@]} ] &&
       grep -q 'instructor says no' "$TMP/sol.log"; then
        pass "$T.solution_full_marks_every_lab ($total_pts/$total_pts; private tests scored: $want)"
    else
        fail "$T.solution_full_marks_every_lab (status $rc; want '$want'; not full:${notfull:- none})"
        grep -E '^score:|FAIL' "$TMP/sol.log" | head -n 20 | sed 's/^/    /'
    fi
    if js=$(json_ok "$TMP/json-solution" "$n_all" 2>&1) && [ "$js" = $((total_pts + 2)) ]; then
        pass "$T.solution_results_json"
    else fail "$T.solution_results_json (${js:-no total})"; fi
}
{ [ "$N" = 1 ] || [ "$K" = $HALF ]; } && solution_full_marks

# ---- the handouts' runs in the trees made from the solution, a lab at a
# time; and (slice HALF+1) the runs on this checkout and the checks of
# every handout's markers and points
# solution_tree_full_marks LAB: the tree of mklab --solved (the handout's
# runs made it), LAB's answer among the later labs' prebuilt objects, grades
# full marks: a student who writes the answer can reach them
solution_tree_full_marks() {
    local lab=$1 d=$TMP/ho-$1/$1-solution n pts
    read -r n pts < <(lab_points "$lab")
    if [ ! -f "$d.ready" ]; then
        rm -rf "$d" && mkdir -p "$TMP/ho-$lab"
        if ! { tools/mklab --solved "$lab" "$d" >"$d.log" 2>&1 && copy_build "$ABS_BUILD" "$d/build"; }; then
            fail "$T.$lab.solution_tree_scores_full (tools/mklab --solved $lab failed)"; show_tail "$d.log" 10; return
        fi
    fi
    (cd "$d" && timeout -k 5 "$GRADE_TIMEOUT" make -s --no-print-directory grade BUILD=build) >"$TMP/solgrade-$lab.log" 2>&1
    if grep -qx "score: $pts/$pts" "$TMP/solgrade-$lab.log"; then
        pass "$T.$lab.solution_tree_scores_full ($pts/$pts, the later labs prebuilt)"
    else
        fail "$T.$lab.solution_tree_scores_full (want score: $pts/$pts)"; show_tail "$TMP/solgrade-$lab.log" 40
    fi
}
for lab in "${HLABS[@]}"; do
    SLICE= KEEP=$TMP/ho-$lab tools/handout-runs --lab "$lab" --part rest
    solution_tree_full_marks "$lab"
done
{ [ "$N" = 1 ] || [ "$K" = $((HALF + 1)) ]; } && SLICE= KEEP=$TMP/ho-main tools/handout-runs --lab main

# ---- perform_write: the solution pasted back, make grade, make handin; in
# the slice that cut perform_write
lab=perform_write
D=$TMP/s-$lab
if [[ " ${LABS[*]} " != *" $lab "* ]]; then
    :
elif [ -d "$D/build" ] && [ -f "$D/.lab" ]; then
    read -r n pts < <(lab_points "$lab")
    # each function the lab cuts, the solution's definition in place of the
    # stub (not the whole file: the tree links the later labs prebuilt, and
    # the solution's file would define them a second time)
    tools/mklab --show "$lab" | while read -r f s e name; do
        read -r ds de _ < <(tools/find-definition "$D/$f" "$name")
        { head -n $((ds - 1)) "$D/$f"; sed -n "${s},${e}p" "$f"; tail -n +$((de + 1)) "$D/$f"; } > "$TMP/paste.c" &&
            cat "$TMP/paste.c" > "$D/$f"
    done
    (cd "$D" && GRADE_JSON="$TMP/json-paste" timeout -k 5 "$GRADE_TIMEOUT" make -s --no-print-directory grade BUILD=build) \
        >"$TMP/paste.log" 2>&1
    if grep -qx "score: $pts/$pts" "$TMP/paste.log"; then pass "$T.$lab.solution_pasted_back_scores_full ($pts/$pts)"
    else fail "$T.$lab.solution_pasted_back_scores_full (want score: $pts/$pts)"; show_tail "$TMP/paste.log" 30; fi
    if (cd "$D" && make -s --no-print-directory handin BUILD=build) >"$TMP/handin.log" 2>&1 &&
       [ -s "$D/handin-$lab.patch" ]; then
        git clone -q "$D" "$TMP/fresh" 2>"$TMP/clone.log" && git -C "$TMP/fresh" checkout -q lab-base 2>>"$TMP/clone.log"
        if (cd "$TMP/fresh" && git apply --index "$D/handin-$lab.patch") >"$TMP/apply.log" 2>&1 &&
           diff -r -q -x .git -x build -x "handin-*" "$D" "$TMP/fresh" >"$TMP/diff.log" 2>&1 &&
           [ "$(grep -c '^diff --git' "$D/handin-$lab.patch")" -ge 1 ] &&
           ! grep -q '^diff --git a/build/' "$D/handin-$lab.patch"; then
            pass "$T.handin_patch_applies_to_lab_base ($(grep -c '^diff --git' "$D/handin-$lab.patch") files)"
        else
            fail "$T.handin_patch_applies_to_lab_base"
            cat "$TMP/clone.log" "$TMP/apply.log" "$TMP/diff.log" 2>/dev/null | head -n 15 | sed 's/^/    /'
        fi
    else
        fail "$T.handin_patch_applies_to_lab_base (make handin wrote no patch)"; sed 's/^/    /' "$TMP/handin.log"
    fi
else
    fail "$T.$lab.solution_pasted_back_scores_full (no built student tree for $lab)"
fi
exit 0
