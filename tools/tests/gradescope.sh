#!/bin/bash
# tools/tests/gradescope.sh: the Gradescope autograder bundle (make
# gradescope, tools/mkgradescope, tools/autograder/) and the GitHub Classroom
# workflow of the student trees (host test; docs/labs/README.md,
# "Gradescope and GitHub Classroom").  Layer: host test (bash, git, QEMU;
# unzip or python3 to unpack the zip; python3 to read results.json and the
# workflow's YAML: without it those checks SKIP).
# host-timeout: 900
#
# On lab syscall (the quickest to grade: 3 boots):
#   - `make gradescope LAB=syscall GRADE_EXTRA=DIR` writes
#     $BUILD/gradescope-syscall.zip (BUILD a temporary directory) with setup.sh and run_autograder
#     (executable) at its root, the lab's base (base.tar.gz: a git
#     repository tagged lab-base, the lab named in .lab), the private tests;
#   - unzipped into a simulated /autograder (AUTOGRADER_ROOT, a temporary
#     directory), setup.sh unpacks and builds the base (on a copy of the
#     solution's $BUILD, AUTOGRADER_PREBUILT: a speed-up for tests only, as
#     tools/tests/labs.sh does; the packages are all there, so tools/setup.sh
#     installs nothing: its apt-get path, root and network, is not run here),
#     and run again it is a quiet, quick no-op;
#   - run_autograder (copied to /autograder/run_autograder and run there, as
#     Gradescope does) on four submissions, results.json checked each time:
#       a. the solution pasted back (each file the lab cuts, as `tools/mklab
#          --solved` writes it), plus a change to tools/labs/syscall.tests and a new
#          mm/sneaky_test.c that does not compile, as make handin's patch:
#          full marks, every test "passed"; the lab's tests "visible", a
#          private test "after_due_date" (no "# visibility:" line) and one
#          "hidden"; execution_time; the output names the two files not taken;
#       b. the skeleton's make handin, an empty patch: 0, every test
#          "failed" with a reason;
#       c. a patch that does not apply: 0, git's reason in the output, every
#          test listed "failed", "not run";
#       d. make handin's tarball (no git) with a file that does not compile
#          (it #includes a private test by its place in the bundle, and
#          does not get it: run_autograder moves them away while it runs)
#          and a changed tools/grade: 0, the compiler's error in the output,
#          the private test's text not, tools/grade named as not taken;
#   - no file a lab cuts (tools/labs/*.cut) is one the autograder restores
#     from the base (run_autograder --protected);
#   - the student tree has .github/workflows/classroom.yml, committed at
#     lab-base, well-formed YAML: on push, an ubuntu runner, checkout,
#     tools/setup.sh, make grade, the score; the solution tree has no such
#     workflow of its own.
source "$(dirname "$0")/../testlib.sh"
T=gradescope
LAB=syscall
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-gradescope.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
unset MAKEFLAGS MFLAGS MAKELEVEL
ABS_BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || { fail "$T.setup (no build directory $BUILD)"; exit 0; }
HAVE_PY=0; command -v python3 >/dev/null && HAVE_PY=1

# pyjson NAME FILE PYTHON: PASS NAME if the assertions (PYTHON, on d, the
# results.json, and t, its tests by name) hold; SKIP without python3
pyjson() {
    local n=$1 f=$2 code=$3 out
    if [ $HAVE_PY = 0 ]; then skip "$T.$n (no python3 to read results.json)"; return; fi
    if out=$(python3 - "$f" 2>&1 <<EOF
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["name"]: x for x in d["tests"]}
for x in d["tests"]:
    for k in ("name", "score", "max_score", "status", "visibility", "output"):
        assert k in x, "test %s has no %s" % (x.get("name"), k)
    assert x["status"] in ("passed", "failed"), x
    assert (x["status"] == "passed") == (x["score"] == x["max_score"]), x
assert isinstance(d["execution_time"], (int, float)) and d["execution_time"] > 0, d.get("execution_time")
assert d["score"] == sum(x["score"] for x in d["tests"]), "score is not the sum"
$code
print("ok")
EOF
    ) && [ "$(tail -n 1 <<<"$out")" = ok ]; then pass "$T.$n"
    else fail "$T.$n"; sed 's/^/    /' <<<"$out" | tail -n 8; sed 's/^/    | /' "$f" 2>/dev/null | head -n 30; fi
}

# ---- the private tests: cheap checks of the sources, no boot
mkdir -p "$TMP/private"
cat > "$TMP/private/p_entry.sh" <<'EOF'
# points: 2
# lab: syscall
# A private test with no visibility line: after_due_date.
if grep -q 'S(cachestat, sys_cachestat),' kernel/syscall.c; then echo "PASS private.entry"
else echo "FAIL private.entry (no cachestat in the system call table)"; fi
EOF
cat > "$TMP/private/p_hidden.sh" <<'EOF'
# points: 1
# visibility: hidden
if grep -q 'not written yet' user/bin/cachestat.c; then echo "FAIL private.hidden (cachestat prints nothing yet)"
else echo "PASS private.hidden"; fi
EOF
read -r NT PTS < <(grep -vE '^[[:space:]]*(#|$)' "tools/labs/$LAB.tests" | awk '{ n++; p += $1 } END { print n + 2, p + 3 }')

# ---- the bundle
ZIP=$TMP/b/gradescope-$LAB.zip                 # (not into $BUILD: an instructor's bundle may be there)
if make -s --no-print-directory BUILD="$TMP/b" gradescope LAB=$LAB GRADE_EXTRA="$TMP/private" >"$TMP/mk.log" 2>&1 &&
   [ -s "$ZIP" ]; then
    pass "$T.make_gradescope ($(tail -n 1 "$TMP/mk.log" | cut -d: -f1))"
else fail "$T.make_gradescope"; show_tail "$TMP/mk.log" 15; exit 0; fi
R=$TMP/autograder
mkdir -p "$R/source" "$R/submission" "$R/results"
if command -v unzip >/dev/null; then
    unzip -q "$ZIP" -d "$R/source"
    modes=$(unzip -Z "$ZIP" | awk '$NF == "setup.sh" || $NF == "run_autograder" { print $NF, $1 }' | sort | tr '\n' ' ')
elif [ $HAVE_PY = 1 ]; then
    python3 -m zipfile -e "$ZIP" "$R/source"
    modes=$(python3 -c 'import sys, zipfile, stat
for i in zipfile.ZipFile(sys.argv[1]).infolist():
    if i.filename in ("setup.sh", "run_autograder"): print(i.filename, stat.filemode(i.external_attr >> 16))' "$ZIP" | sort | tr '\n' ' ')
    chmod +x "$R/source/setup.sh" "$R/source/run_autograder"
else skip "$T.bundle (neither unzip nor python3)"; exit 0; fi
files=$(cd "$R/source" && find . -type f | sort | tr '\n' ' ')
mkdir -p "$TMP/base" && tar -xzf "$R/source/base.tar.gz" -C "$TMP/base" 2>/dev/null
if [ "$modes" = "run_autograder -rwxr-xr-x setup.sh -rwxr-xr-x " ] &&
   [ "$files" = "./base.tar.gz ./lab ./private/p_entry.sh ./private/p_hidden.sh ./run_autograder ./setup.sh " ] &&
   [ "$(sed -n 's/^LAB=//p' "$R/source/lab")" = $LAB ] && [ "$(sed -n 's/^LAB=//p' "$TMP/base/.lab")" = $LAB ] &&
   [ "$(git -C "$TMP/base" rev-parse lab-base 2>/dev/null)" = "$(git -C "$TMP/base" rev-parse HEAD 2>/dev/null)" ] &&
   [ -z "$(git -C "$TMP/base" status --porcelain 2>&1)" ]; then
    pass "$T.bundle_layout (setup.sh, run_autograder at the root; the base at lab-base; private/)"
else fail "$T.bundle_layout (modes: $modes; files: $files)"; fi
rm -rf "$TMP/base"

# ---- setup.sh: unpack and build the base; then a no-op
SECONDS=0
AUTOGRADER_ROOT=$R AUTOGRADER_PREBUILT=$ABS_BUILD timeout -k 5 "$(backstop 600)" bash "$R/source/setup.sh" >"$TMP/setup1.log" 2>&1
rc=$? t1=$SECONDS
if [ $rc = 0 ] && [ -f "$R/source/base/build/vellum-test.elf" ] && grep -q 'setup.sh: built' "$TMP/setup1.log"; then
    pass "$T.setup_builds_the_base (${t1} s)"
else fail "$T.setup_builds_the_base (status $rc)"; show_tail "$TMP/setup1.log" 20; exit 0; fi
SECONDS=0
AUTOGRADER_ROOT=$R timeout -k 5 "$(backstop 120)" bash "$R/source/setup.sh" >"$TMP/setup2.log" 2>&1
rc=$? t2=$SECONDS
if [ $rc = 0 ] && [ ! -s "$TMP/setup2.log" ] && [ $t2 -le 20 ]; then pass "$T.setup_again_is_a_quiet_no_op (${t2} s)"
else fail "$T.setup_again_is_a_quiet_no_op (status $rc, ${t2} s)"; show_tail "$TMP/setup2.log" 10; fi
cp "$R/source/run_autograder" "$R/run_autograder"       # where Gradescope runs it from

# grade_sub NAME FILE...: FILEs as the submission; run_autograder; its log in $TMP/NAME.log
grade_sub() {
    local n=$1; shift
    rm -rf "$R/submission" "$R/results" && mkdir -p "$R/submission" && cp "$@" "$R/submission/"
    (cd "$R" && AUTOGRADER_ROOT=$R JOBS=1 timeout -k 5 "$(backstop 600)" ./run_autograder) >"$TMP/$n.log" 2>&1
    echo "rc=$?" >> "$TMP/$n.log"
    cp "$R/results/results.json" "$TMP/$n.json" 2>/dev/null
    rm -rf "$R/work"
}
took() { sed -n 's/.*"execution_time": \([0-9.]*\),.*/\1 s/p' "$TMP/$1.json" 2>/dev/null | head -n 1; }

# ---- the student's tree: the skeleton's handin (empty), then the solution's
S=$TMP/student
tools/mklab $LAB "$S" >"$TMP/mklab.log" 2>&1 || { fail "$T.mklab"; show_tail "$TMP/mklab.log"; exit 0; }
(cd "$S" && make -s --no-print-directory handin) >"$TMP/handin0.log" 2>&1 && mv "$S/handin-$LAB.patch" "$TMP/empty.patch" ||
    { fail "$T.handin (skeleton)"; show_tail "$TMP/handin0.log"; }
# the lab's files as `mklab --solved` has them (the answer in place, the
# later labs still prebuilt: this tree's whole files would define them twice)
tools/mklab --no-git --solved $LAB "$TMP/solved" >"$TMP/solved.log" 2>&1 ||
    { fail "$T.mklab_solved"; show_tail "$TMP/solved.log"; exit 0; }
for f in $(tools/mklab --show $LAB | awk '{ print $1 }' | sort -u); do cp "$TMP/solved/$f" "$S/$f"; done
sed -i 's/^\([0-9][0-9]*\) /100 /' "$S/tools/labs/$LAB.tests"
printf '#error "a test file of the submission is built"\n' > "$S/mm/sneaky_test.c"
(cd "$S" && make -s --no-print-directory handin) >"$TMP/handin1.log" 2>&1 && mv "$S/handin-$LAB.patch" "$TMP/solution.patch" ||
    { fail "$T.handin (solution)"; show_tail "$TMP/handin1.log"; }

# a. the solution: full marks
cp "$TMP/solution.patch" "$TMP/handin-$LAB.patch"
grade_sub a "$TMP/handin-$LAB.patch"
if grep -q "^score: $PTS/$PTS$" "$TMP/a.log"; then pass "$T.a_solution_scores_full ($PTS/$PTS, $(took a))"
else fail "$T.a_solution_scores_full (want score: $PTS/$PTS)"; show_tail "$TMP/a.log" 30; fi
pyjson a_results_json "$TMP/a.json" "
assert d['score'] == d['max_score'] == $PTS, (d['score'], d['max_score'])
assert len(t) == $NT, len(t)
assert all(x['status'] == 'passed' for x in t.values()), [x['name'] for x in t.values() if x['status'] != 'passed']
assert all(x['visibility'] == 'visible' for n, x in t.items() if not n.startswith('extra/')), 'a lab test not visible'
assert t['extra/p_entry']['visibility'] == 'after_due_date', t['extra/p_entry']
assert t['extra/p_hidden']['visibility'] == 'hidden', t['extra/p_hidden']
assert all(isinstance(t[n]['execution_time'], (int, float)) for n in ('extra/p_entry', 'extra/p_hidden'))
assert 'handin-$LAB.patch' in d['output'], d['output']
assert 'Not taken' in d['output'] and 'tools/labs/$LAB.tests' in d['output'] and 'mm/sneaky_test.c' in d['output'], d['output']"

# b. the skeleton: 0, a reason per test
cp "$TMP/empty.patch" "$TMP/handin-$LAB.patch"
grade_sub b "$TMP/handin-$LAB.patch"
pyjson "b_skeleton_scores_0 ($(took b))" "$TMP/b.json" "
assert d['score'] == 0 and d['max_score'] == $PTS, (d['score'], d['max_score'])
assert len(t) == $NT, len(t)
assert all(x['status'] == 'failed' and x['output'].strip() not in ('', 'passed') for x in t.values()), d['tests']
assert not any(x['output'].startswith('not run') for x in t.values()), 'the skeleton was not graded'
assert 'empty' in d['output'], d['output']"

# c. a patch that does not apply
cat > "$TMP/bad.patch" <<'EOF'
diff --git a/kernel/syscall.c b/kernel/syscall.c
--- a/kernel/syscall.c
+++ b/kernel/syscall.c
@@ -1,2 +1,2 @@
-this line is not in the base
+nor is this one
 and neither is this
EOF
cp "$TMP/bad.patch" "$TMP/handin-$LAB.patch"
grade_sub c "$TMP/handin-$LAB.patch"
pyjson "c_patch_not_applying_scores_0 ($(took c))" "$TMP/c.json" "
assert d['score'] == 0 and d['max_score'] == $PTS, (d['score'], d['max_score'])
assert len(t) == $NT and all(x['status'] == 'failed' and x['output'].startswith('not run') for x in t.values()), d['tests']
assert 'does not apply' in d['output'] and 'git apply says' in d['output'] and 'kernel/syscall.c' in d['output'], d['output']"

# d. make handin's tarball (no git): a file that does not compile, and a
# changed tools/grade (not taken)
mkdir -p "$TMP/nogit"
(cd "$S" && git archive HEAD) | tar -x -C "$TMP/nogit"
cp "$S/.lab" "$TMP/nogit/"
printf '#include "%s/source/private/p_hidden.sh"\nint broken(void) { return }\n' "$R" >> "$TMP/nogit/mm/filemap.c"
printf '\n# changed by the student\n' >> "$TMP/nogit/tools/grade"
(cd "$TMP/nogit" && GIT_CEILING_DIRECTORIES=$TMP make -s --no-print-directory handin) >"$TMP/handin2.log" 2>&1
if [ -s "$TMP/nogit/handin-$LAB.tar.gz" ]; then
    grade_sub d "$TMP/nogit/handin-$LAB.tar.gz"
    pyjson "d_tarball_not_building_scores_0 ($(took d))" "$TMP/d.json" "
assert d['score'] == 0 and d['max_score'] == $PTS, (d['score'], d['max_score'])
assert len(t) == $NT and all(x['status'] == 'failed' and x['output'].startswith('not run') for x in t.values()), d['tests']
assert 'handin-$LAB.tar.gz' in d['output'] and 'does not build' in d['output'], d['output']
assert 'mm/filemap.c' in d['output'] and 'error' in d['output'], d['output']
assert 'Not taken' in d['output'] and 'tools/grade' in d['output'], d['output']
assert 'prints nothing yet' not in d['output'], 'a private test read by #include: ' + d['output']"
else fail "$T.d_tarball_not_building_scores_0 (make handin wrote no tarball)"; show_tail "$TMP/handin2.log"; fi
if [ -f "$R/source/private/p_hidden.sh" ] && [ -f "$R/source/private/p_entry.sh" ]; then
    pass "$T.private_tests_back_in_place"
else fail "$T.private_tests_back_in_place (run_autograder moves them away while it runs)"; fi
rm -rf "$TMP/nogit" "$R"

# ---- what a lab cuts is never what the autograder restores
prot=$(awk '/^(cut|line) / { print $2 }' tools/labs/*.cut | sort -u | xargs bash tools/autograder/run_autograder --protected)
if [ -z "$prot" ] && [ -n "$(bash tools/autograder/run_autograder --protected tools/grade mm/filemap_test.c Makefile)" ]; then
    pass "$T.no_cut_file_is_restored"
else fail "$T.no_cut_file_is_restored (the autograder would restore: $prot)"; fi

# ---- the GitHub Classroom workflow: in the student tree only
W=.github/workflows/classroom.yml
if [ -f "$S/$W" ] && git -C "$S" cat-file -e "lab-base:$W" 2>/dev/null && ! git ls-files --error-unmatch "$W" >/dev/null 2>&1; then
    pass "$T.classroom_workflow_in_student_trees_only"
else fail "$T.classroom_workflow_in_student_trees_only"; fi
if [ $HAVE_PY = 1 ] && python3 -c 'import yaml' 2>/dev/null; then
    if out=$(python3 - "$S/$W" 2>&1 <<'EOF'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
on = d.get("on", d.get(True))                  # YAML 1.1 reads a bare on: as true
assert "push" in on, on
jobs = list(d["jobs"].values())
assert len(jobs) == 1, d["jobs"]
j = jobs[0]
assert j["runs-on"].startswith("ubuntu"), j["runs-on"]
steps = j["steps"]
uses = [s.get("uses", "") for s in steps]
runs = "\n".join(s.get("run", "") for s in steps)
assert any(u.startswith("actions/checkout@") for u in uses), uses
assert "tools/setup.sh" in runs and "make grade" in runs and "score" in runs, runs
print("ok")
EOF
    ) && [ "$out" = ok ]; then pass "$T.classroom_workflow_yaml"
    else fail "$T.classroom_workflow_yaml"; sed 's/^/    /' <<<"$out" | tail -n 5; fi
else skip "$T.classroom_workflow_yaml (no python3 yaml module)"; fi
exit 0
