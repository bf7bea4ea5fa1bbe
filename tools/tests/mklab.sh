#!/bin/bash
# tools/tests/mklab.sh: the lab tools' own tests (host test; docs/labs/README.md).
# Layer: host test, no kernel boot.  On the real tree:
#   - no lab marker in any source file, and every lab's cut file
#     (tools/labs/LAB.cut) finds what it names (tools/mklab --check);
# then tools/mklab and tools/grade on small synthetic trees made here (a git
# repository with a lab list, cut files and C and assembly sources):
#   - --list prints the labs in order, name first;
#   - tools/find-definition finds functions, macros, variables and assembly
#     labels and macros by what they are, never in a comment or a string,
#     never a prototype;
#   - LAB DIR replaces each definition LAB cuts (and each line) by its stub,
#     keeps the comment above it, keeps the other labs' code and every other
#     file byte for byte, adds #include <lab.h> where a stub needs it,
#     writes .lab, makes DIR a git repository tagged lab-base; --show lists
#     the cuts;
#   - errors, each a message naming the cut file and line and a non-zero
#     status, nothing written: a name defined nowhere, defined twice, moved
#     to another file (the message names it), a file not tracked, a line
#     that reads so nowhere or twice, two cuts that overlap, a malformed
#     entry, text before the first entry, no cut file, a lab not in the list;
#   - a later lab's function (beta's, in alpha's tree) is gone from the
#     student's file, a prototype in its place, and defined in
#     prebuilt/vellum/, debug/ and ktest/ objects that define nothing else
#     and carry no debug information;
#   - --all-branches makes lab/NN-NAME branches, each the child of the last;
#     the history of lab/01-alpha (git log -p) has no line of beta's answer;
#   - make handin (mk/labs.mk) in a student tree (tag lab-base) and in a
#     clone of the branches (tags lab-base/NN-NAME): the patch applies to
#     the base and gives the student's file;
#   - tools/grade scores a fake runner's verdicts: points per test, a lost
#     verdict is run again alone, private tests from GRADE_EXTRA, results.json
#     with Gradescope's status, visibility (a private test's "# visibility:")
#     and execution_time; GRADE_NOT_RUN scores every test 0 with its reason;
#     a runner that ran no test (its list boot failed) is run once more, and
#     if it fails again its output is every test's reason.
# host-timeout: 150
source "$(dirname "$0")/../testlib.sh"
T=mklab
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-mklab.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
G="git -c user.name=t -c user.email=t@localhost"

# ---- the real tree: no markers; every cut file finds what it names
marks=$(git grep -n -E 'LAB [A-Za-z0-9_-]+: (BEGIN|END|STUB)' -- '*.c' '*.h' '*.S' | head -n 5)
if [ -z "$marks" ]; then pass "$T.no_lab_markers_in_sources"
else fail "$T.no_lab_markers_in_sources ($(tr '\n' ';' <<<"$marks"))"; fi
if out=$(tools/mklab --check 2>&1) && [ "$(grep -c ': [1-9][0-9]* cuts in ' <<<"$out")" = "$(tools/mklab --list | wc -l)" ]; then
    pass "$T.every_lab_finds_its_cuts ($(tr '\n' ';' <<<"$out"))"
else fail "$T.every_lab_finds_its_cuts"; sed 's/^/    /' <<<"$out"; fi

# mkrepo DIR: a synthetic solution tree with the real tools and a lab list
mkrepo() {
    local d=$1
    mkdir -p "$d/tools/labs" "$d/src"
    cp tools/mklab tools/find-definition tools/grade "$d/tools/"
    mkdir -p "$d/mk" && cp mk/labs.mk "$d/mk/" &&
        printf 'BUILD ?= build\nCC = gcc\nLD = ld\nOBJCOPY = objcopy\nNM = nm\nCFLAGS := -m32 -fno-pie -fno-pic -O2 -Wall -Wno-unused-variable -Wno-unused-const-variable -Isrc\nASFLAGS := -m32\nKTEST_DEFS := -DCONFIG_KTEST -DCONFIG_LOCKDEP\ninclude mk/labs.mk\n' > "$d/Makefile"
    printf 'int alpha_secret_sauce(void);\nstruct ops { int (*alpha)(void); int (*beta)(void); };\n' > "$d/src/a.h"
    printf 'int beta_secret_sauce(void);\n' > "$d/src/b.h"
    printf 'int lab_not_written(const char *what);\n' > "$d/src/lab.h"
    printf '# test labs\n01 alpha  the first\n02 beta   the second\n' > "$d/tools/labs/list"
    cat > "$d/src/a.c" <<'EOF2'
#include <a.h>
#include <b.h>
/* int alpha_fn(void) { in a comment: not a definition } */
static const char *s = "int alpha_fn(void) {";
int alpha_fn(void);
int keep_me(void) { return 1; }
/* alpha_fn: the alpha answer */
int alpha_fn(void)
{
    return 42 * alpha_secret_sauce();
}
#define ALPHA_SCALE(x) \
    ((x) * 42)
static int alpha_table[4] = {
    1, 2, 3, 4,
};
int beta_fn(void)
{
    return beta_secret_sauce();
}
static const struct ops table = {
    .alpha = alpha_fn,
    .beta = beta_fn,
};
EOF2
    printf '    .globl g\ng:\n    movl $1, %%eax\n.Lg_fault:\n    movl $-14, %%eax\n    _ASM_EXTABLE(g, .Lg_fault)\n    .size g, . - g\n' > "$d/src/c.S"
    cat > "$d/tools/labs/alpha.cut" <<'EOF2'
# lab alpha: the answer
cut src/a.c alpha_fn
int alpha_fn(void)
{
    return lab_not_written("alpha_fn");
}

cut src/a.c ALPHA_SCALE
#define ALPHA_SCALE(x) 0

cut src/a.c alpha_table

line src/a.c .alpha = alpha_fn,

cut src/c.S .Lg_fault
EOF2
    printf 'cut src/a.c beta_fn\nint beta_fn(void)\n{\n    return lab_not_written("beta_fn");\n}\n' > "$d/tools/labs/beta.cut"
    printf 'plain file, no cuts\n' > "$d/src/plain.c"
    (cd "$d" && git init -q && git add -A && $G commit -q -m base) || return 1
}

check() {                                  # check NAME COMMAND...: PASS if it succeeds
    local n=$1; shift
    if "$@" >"$TMP/out" 2>&1; then pass "$T.$n"; else fail "$T.$n"; sed 's/^/    /' "$TMP/out" | tail -n 15; fi
}

R=$TMP/repo
mkrepo "$R" || { fail "$T.setup (git)"; exit 0; }

# ---- --list
out=$("$R/tools/mklab" --list 2>&1)
if [ "$(awk '{ print $1 }' <<<"$out" | tr '\n' ' ')" = "alpha beta " ]; then pass "$T.list_in_order_name_first"
else fail "$T.list_in_order_name_first (got: $out)"; fi

# ---- tools/find-definition: what is a definition
fd=$(for n in alpha_fn keep_me ALPHA_SCALE alpha_table table s nosuch; do
         printf '%s=%s;' "$n" "$("$R/tools/find-definition" "$R/src/a.c" "$n" | tr '\n' ' ')"; done
     for n in g .Lg_fault; do printf '%s=%s;' "$n" "$("$R/tools/find-definition" "$R/src/c.S" "$n" | tr '\n' ' ')"; done)
want='alpha_fn=8 11 function ;keep_me=6 6 function ;ALPHA_SCALE=12 13 macro ;alpha_table=14 16 variable ;table=21 24 variable ;s=4 4 variable ;nosuch=;g=2 6 label ;.Lg_fault=4 6 label ;'
if [ "$fd" = "$want" ]; then pass "$T.find_definition_by_what_it_is"
else fail "$T.find_definition_by_what_it_is (got '$fd', want '$want')"; fi

# ---- a good cut
if "$R/tools/mklab" alpha "$TMP/s1" >"$TMP/cut.log" 2>&1; then
    a=$TMP/s1/src/a.c
    exp=$(printf '%s\n' '#include <a.h>' '#include <b.h>' '#include <lab.h>' \
        '/* int alpha_fn(void) { in a comment: not a definition } */' \
        'static const char *s = "int alpha_fn(void) {";' 'int alpha_fn(void);' \
        'int keep_me(void) { return 1; }' '/* alpha_fn: the alpha answer */' \
        'int alpha_fn(void)' '{' '    return lab_not_written("alpha_fn");' '}' \
        '#define ALPHA_SCALE(x) 0' '/* beta_fn: lab 02 (beta); prebuilt, in prebuilt/ */' 'int beta_fn(void);' \
        'static const struct ops table = {' '    .beta = beta_fn,' '};')
    if [ "$(cat "$a")" = "$exp" ]; then pass "$T.definitions_replaced_by_stubs_exactly"
    else fail "$T.definitions_replaced_by_stubs_exactly"; diff <(printf '%s\n' "$exp") "$a" | sed 's/^/    /'; fi
    if [ "$(cat "$TMP/s1/src/c.S")" = "$(printf '    .globl g\ng:\n    movl $1, %%eax\n    .size g, . - g')" ]; then
        pass "$T.assembly_label_cut"; else fail "$T.assembly_label_cut"; sed 's/^/    /' "$TMP/s1/src/c.S"; fi
    if cmp -s "$R/src/plain.c" "$TMP/s1/src/plain.c" && cmp -s "$R/tools/labs/alpha.cut" "$TMP/s1/tools/labs/alpha.cut"; then
        pass "$T.other_files_intact"; else fail "$T.other_files_intact"; fi
    if [ "$(sed -n 's/^LAB=//p' "$TMP/s1/.lab")" = alpha ] && git -C "$TMP/s1" rev-parse -q --verify lab-base >/dev/null &&
       [ -z "$(git -C "$TMP/s1" status --porcelain)" ]; then
        pass "$T.student_tree_knows_its_lab"; else fail "$T.student_tree_knows_its_lab"; fi
    # the later lab (beta) prebuilt: beta_fn defined in the object, nothing
    # else of a.c's code, no debug information, no local symbols
    o=$TMP/s1/prebuilt/vellum/src/a.o
    syms=$(nm "$o" 2>&1 | awk '$2 ~ /^[A-Za-z]$/ && $2 != "U" { print $2, $3 }' | tr '\n' ';')
    if [ "$syms" = "T beta_fn;" ] && [ -f "$TMP/s1/prebuilt/ktest/src/a.o" ] && [ -f "$TMP/s1/prebuilt/debug/src/a.o" ] &&
       ! objdump -h "$o" | grep -q '\.debug' && grep -q '^src/a.c  *beta_fn  *beta$' "$TMP/s1/prebuilt/README"; then
        pass "$T.later_lab_prebuilt_only_its_function ($syms)"
    else fail "$T.later_lab_prebuilt_only_its_function (defined: $syms)"; fi
    if grep -q 'lab alpha (01), 5 cuts in 2 files' "$TMP/cut.log"; then pass "$T.says_what_it_cut"
    else fail "$T.says_what_it_cut"; sed 's/^/    /' "$TMP/cut.log"; fi
else
    fail "$T.cut_alpha (mklab alpha failed)"; sed 's/^/    /' "$TMP/cut.log"
fi
out=$("$R/tools/mklab" --show alpha 2>&1)
if [ "$out" = "$(printf '%s\n' 'src/a.c 8 11 alpha_fn' 'src/a.c 12 13 ALPHA_SCALE' 'src/a.c 14 16 alpha_table' \
                  'src/a.c 22 22 .alpha_=_alpha_fn,' 'src/c.S 4 6 .Lg_fault')" ]; then pass "$T.show_lists_the_cuts"
else fail "$T.show_lists_the_cuts ($out)"; fi
# --solved: alpha's answer in place, beta still prebuilt (the answer gone
# from the source, its prototype there)
if "$R/tools/mklab" --solved alpha "$TMP/solved" >"$TMP/solved.log" 2>&1 &&
   grep -q '42 \* alpha_secret_sauce' "$TMP/solved/src/a.c" &&
   ! grep -q 'lab_not_written' "$TMP/solved/src/a.c" &&
   ! grep -q 'return beta_secret_sauce();' "$TMP/solved/src/a.c" &&
   grep -qx 'int beta_fn(void);' "$TMP/solved/src/a.c"; then pass "$T.solved_keeps_the_lab_answer_only"
else fail "$T.solved_keeps_the_lab_answer_only"; sed 's/^/    /' "$TMP/solved.log"; fi
if "$R/tools/mklab" beta "$TMP/s1" >"$TMP/out" 2>&1; then fail "$T.refuses_nonempty_dir"
else pass "$T.refuses_nonempty_dir"; fi

# ---- errors: each a message naming the cut file and line, status 1, nothing written
# bad NAME EXPECT-REGEX CUT-FILE-CONTENT [LAB]: alpha.cut replaced by the content
bad() {
    local n=$1 want=$2 content=$3 lab=${4:-alpha} d=$TMP/bad-$1
    mkrepo "$d" || { fail "$T.$n (setup)"; return; }
    printf '%s\n' "$content" > "$d/tools/labs/alpha.cut"
    printf 'int twice(void)\n{\n    return 1;\n}\n#ifdef X\nint twice(void) { return 2; }\n#endif\nint moved(void)\n{\n    return 3;\n}\n' > "$d/src/b.c"
    printf 'untracked\n' > "$d/src/untracked.c"
    (cd "$d" && git add src/b.c && $G commit -q -m b) >/dev/null
    "$d/tools/mklab" "$lab" "$TMP/out-$n" >"$TMP/err" 2>&1
    local rc=$?
    if [ $rc -ne 0 ] && grep -qE "$want" "$TMP/err" && [ ! -e "$TMP/out-$n" ]; then pass "$T.error_$n"
    else fail "$T.error_$n (status $rc, want /$want/, nothing written)"; sed 's/^/    /' "$TMP/err"; fi
}
bad missing       'tools/labs/alpha.cut:2: nosuch is defined nowhere' $'# x\ncut src/a.c nosuch\nstub'
bad defined_twice 'tools/labs/alpha.cut:1: twice is defined 2 times in src/b.c \(lines 1 6\)' $'cut src/b.c twice'
bad moved         'tools/labs/alpha.cut:1: moved is not defined in src/a.c any more: it is defined in src/b.c' $'cut src/a.c moved'
bad untracked     'tools/labs/alpha.cut:1: src/untracked.c is not a tracked file' $'cut src/untracked.c x'
bad no_such_line  'tools/labs/alpha.cut:1: no line of src/a.c reads: .gamma = x,' $'line src/a.c .gamma = x,'
bad line_twice    'tools/labs/alpha.cut:1: \{ is a line 2 times in src/b.c' $'line src/b.c {'
bad overlap       'tools/labs/alpha.cut: .* overlaps alpha_fn' $'cut src/a.c alpha_fn\nline src/a.c return 42 * alpha_secret_sauce();'
bad malformed     'tools/labs/alpha.cut:1: want "cut FILE NAME"' $'cut src/a.c'
bad text_first    'tools/labs/alpha.cut:1: text before the first entry' $'int x;\ncut src/a.c alpha_fn'
bad unknown_lab_arg "unknown lab 'gamma'" $'cut src/a.c alpha_fn' gamma
mkrepo "$TMP/nocut" && printf '01 alpha a\n02 beta b\n03 gamma c\n' > "$TMP/nocut/tools/labs/list"
if "$TMP/nocut/tools/mklab" gamma "$TMP/out-nocut" >"$TMP/err" 2>&1; then fail "$T.error_lab_without_cut_file"
elif grep -q 'tools/labs/gamma.cut: no such file' "$TMP/err" && [ ! -e "$TMP/out-nocut" ]; then pass "$T.error_lab_without_cut_file"
else fail "$T.error_lab_without_cut_file"; sed 's/^/    /' "$TMP/err"; fi
# --check counts cuts per lab
out=$("$R/tools/mklab" --check 2>&1)
if grep -q '^alpha: 5 cuts in 2 files' <<<"$out" && grep -q '^beta: 1 cuts in 1 files' <<<"$out"; then
    pass "$T.check_counts_cuts"; else fail "$T.check_counts_cuts ($out)"; fi

# ---- --all-branches into a new repository
B=$TMP/branches
if "$R/tools/mklab" --all-branches "$B" >"$TMP/br.log" 2>&1; then
    refs=$(git -C "$B" for-each-ref --format='%(refname:short)' refs/heads | tr '\n' ' ')
    a1=$(git -C "$B" rev-parse lab/01-alpha) b1p=$(git -C "$B" rev-parse lab/02-beta^ 2>/dev/null)
    if [ "$refs" = "lab/01-alpha lab/02-beta " ] && [ "$a1" = "$b1p" ] &&
       git -C "$B" show lab/02-beta:src/a.c | grep -q '42 \* alpha_secret_sauce' &&
       git -C "$B" show lab/02-beta:src/a.c | grep -q 'lab_not_written("beta_fn")' &&
       [ "$(git -C "$B" show lab/01-alpha:.lab | sed -n 's/^LAB=//p')" = alpha ] &&
       [ "$(git -C "$B" rev-parse lab-base/02-beta)" = "$(git -C "$B" rev-parse lab/02-beta)" ] &&
       ! git -C "$B" log -p lab/01-alpha | grep -q 'return beta_secret_sauce();'; then
        pass "$T.all_branches"
    else fail "$T.all_branches (refs: $refs)"; sed 's/^/    /' "$TMP/br.log"; fi
else fail "$T.all_branches (status)"; sed 's/^/    /' "$TMP/br.log"; fi

# ---- make handin: in a tree of `mklab LAB DIR` (tag lab-base), and in a
# clone of an --all-branches repository (tags lab-base/NN-NAME); run twice,
# the first patch is not part of the second; the patch applies to the base
# and gives the student's file
handin_ok() {                              # handin_ok NAME DIR BASE-REF
    local n=$1 d=$2 base=$3 lab
    lab=$(sed -n 's/^LAB=//p' "$d/.lab")
    sed -i 's/return lab_not_written(".*");/return 7; \/\* mine \*\//' "$d/src/a.c"
    if (cd "$d" && make -s handin && make -s handin) >"$TMP/handin.log" 2>&1 &&
       [ "$(grep -c '^diff --git' "$d/handin-$lab.patch")" = 1 ] &&
       git clone -q "$d" "$TMP/fresh-$n" 2>/dev/null && git -C "$TMP/fresh-$n" checkout -q "$base" 2>/dev/null &&
       (cd "$TMP/fresh-$n" && git apply "$d/handin-$lab.patch") 2>>"$TMP/handin.log" &&
       cmp -s "$d/src/a.c" "$TMP/fresh-$n/src/a.c" && grep -q "against $base" "$TMP/handin.log"; then
        pass "$T.handin_$n"
    else fail "$T.handin_$n"; sed 's/^/    /' "$TMP/handin.log"; fi
}
if [ -d "$TMP/s1" ]; then handin_ok single_tree "$TMP/s1" lab-base; else fail "$T.handin_single_tree (no tree)"; fi
if git clone -q -b lab/02-beta "$B" "$TMP/stud" 2>"$TMP/clone.log"; then
    handin_ok all_branches_clone "$TMP/stud" lab-base/02-beta
else fail "$T.handin_all_branches_clone (git clone)"; sed 's/^/    /' "$TMP/clone.log"; fi

# ---- the grader on a fake runner
cat > "$R/tools/labs/alpha.tests" <<'EOF'
# points selector
3 s1.t_pass
2 s1.t_fail
4 s1.t_lost
1 h1
EOF
mkdir -p "$R/tools/tests" && printf 'echo PASS h1.x\n' > "$R/tools/tests/h1.sh"
cat > "$R/fake-runner" <<'EOF'
#!/bin/bash
# a stand-in for tools/run-tests: s1's boot "crashes" after t_fail; alone, t_lost passes
echo "$*" >> "$(dirname "$0")/runner.calls"
for a in "$@"; do
    case $a in
        s1) echo "== kernel suite s1"; echo "PASS s1.t_pass"; echo "FAIL s1.t_fail"
            echo "    ktest: assertion failed at x.c:1: wrong byte"; echo "FAIL s1.t_crash (started, no verdict)" ;;
        s1.t_lost) echo "== kernel suite s1.t_lost"; echo "PASS s1.t_lost" ;;
        h1) echo "== host test h1"; echo "PASS h1.x" ;;
    esac
done
echo "N passed, M failed"
EOF
chmod +x "$R/fake-runner"
mkdir -p "$TMP/extra"
printf '# points: 5\n# lab: alpha\necho PASS private.one\n' > "$TMP/extra/p1.sh"
printf '# points: 2\n# visibility: hidden\necho FAIL private.two \\(nope\\)\n' > "$TMP/extra/p2.sh"
out=$(cd "$R" && RUN_TESTS=./fake-runner GRADE_EXTRA="$TMP/extra" GRADE_JSON="$TMP/r.json" BUILD="$TMP/b" tools/grade alpha 2>&1)
if grep -q '^score: 13/17$' <<<"$out" && grep -qE '^s1.t_fail: +FAIL  0/2' <<<"$out" &&
   grep -q 'wrong byte' <<<"$out" && grep -qE '^s1.t_lost: +PASS  4/4' <<<"$out" &&
   grep -qE '^extra/p2: +FAIL  0/2' <<<"$out" &&
   [ "$(sed -n 2p "$R/runner.calls")" = s1.t_lost ]; then
    pass "$T.grade_scores_and_reruns_lost"
else fail "$T.grade_scores_and_reruns_lost"; sed 's/^/    /' <<<"$out"; fi
if grep -q '"score": 13, "max_score": 17' "$TMP/r.json" && [ "$(grep -c '"max_score"' "$TMP/r.json")" = 7 ] &&
   { ! command -v python3 >/dev/null || python3 -m json.tool "$TMP/r.json" >/dev/null; }; then
    pass "$T.grade_results_json"
else fail "$T.grade_results_json"; sed 's/^/    /' "$TMP/r.json"; fi
# Gradescope's fields: status, visibility (the lab's tests visible, a private
# test after_due_date or its "# visibility:"), execution_time (the run's,
# and a private test's own)
gs_fields() {                              # gs_fields JSON: one line per test, then the top
    if command -v jq >/dev/null; then
        jq -r '.tests[] | "\(.name) \(.status) \(.visibility) \(has("execution_time"))"' "$1" &&
            jq -r '"top \((.execution_time | type) == "number") \(.output // "-" | split("\n") | join("|"))"' "$1"
    else
        python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for t in d["tests"]: print(t["name"], t["status"], t["visibility"], str("execution_time" in t).lower())
print("top", str(isinstance(d["execution_time"], (int, float))).lower(), "|".join(d.get("output", "-").split("\n")))' "$1"
    fi
}
want='s1.t_pass passed visible false
s1.t_fail failed visible false
s1.t_lost passed visible false
h1 passed visible false
extra/p1 passed after_due_date true
extra/p2 failed hidden true
top true -'
got=$(gs_fields "$TMP/r.json" 2>&1)
if [ "$got" = "$want" ]; then pass "$T.grade_results_json_gradescope_fields"
else fail "$T.grade_results_json_gradescope_fields"; diff <(echo "$want") <(echo "$got") | sed 's/^/    /'; fi
# GRADE_NOT_RUN: nothing run, every test 0 with the reason; GRADE_NOTE above it
rm -f "$R/runner.calls"
out=$(cd "$R" && RUN_TESTS=./fake-runner GRADE_EXTRA="$TMP/extra" GRADE_JSON="$TMP/r4.json" BUILD="$TMP/b" \
      GRADE_NOTE="from handin-alpha.patch" GRADE_NOT_RUN=$'it does not build:\nx.c:1: error' tools/grade alpha 2>&1)
got=$(gs_fields "$TMP/r4.json" 2>&1)
if grep -q '^score: 0/17$' <<<"$out" && [ ! -e "$R/runner.calls" ] && grep -q 'x.c:1: error' <<<"$out" &&
   [ "$(grep -c '"output": "not run: it does not build:"' "$TMP/r4.json")" = 6 ] &&
   [ "$(tail -n 1 <<<"$got")" = 'top true from handin-alpha.patch|it does not build:|x.c:1: error' ] &&
   [ "$(grep -c ' failed ' <<<"$got")" = 6 ]; then
    pass "$T.grade_not_run_scores_0_with_the_reason"
else fail "$T.grade_not_run_scores_0_with_the_reason"; sed 's/^/    /' <<<"$out$got"; fi
# a runner that runs no test (its test=list boot timed out): once more; if
# the second run works, the grade is the same; if not, every test's reason
# is the runner's own output, never a bare "no verdict"
cat > "$R/flaky-runner" <<'EOF2'
#!/bin/bash
d=$(dirname "$0")
if [ ! -e "$d/flaky.once" ] || [ -e "$d/flaky.always" ]; then
    touch "$d/flaky.once"
    echo "FAIL ktest.list (test=list boot: timed out, no suite list)"; echo "0 passed, 1 failed, 0 skipped"; exit 1
fi
exec "$d/fake-runner" "$@"
EOF2
chmod +x "$R/flaky-runner"
rm -f "$R/runner.calls"
out=$(cd "$R" && RUN_TESTS=./flaky-runner GRADE_JSON="$TMP/r2.json" BUILD="$TMP/b" tools/grade alpha 2>&1)
if grep -q '^score: 8/10$' <<<"$out" && grep -q 'the test runner ran no test (FAIL ktest.list' <<<"$out" &&
   ! grep -q 'no verdict' <<<"$out"; then
    pass "$T.grade_runner_ran_nothing_once_more"
else fail "$T.grade_runner_ran_nothing_once_more"; sed 's/^/    /' <<<"$out"; fi
touch "$R/flaky.always"
out=$(cd "$R" && RUN_TESTS=./flaky-runner GRADE_JSON="$TMP/r3.json" BUILD="$TMP/b" tools/grade alpha 2>&1)
if grep -q '^score: 0/10$' <<<"$out" && [ "$(grep -c 'test=list boot: timed out' <<<"$out")" -ge 5 ] &&
   ! grep -q 'no verdict' <<<"$out"; then
    pass "$T.grade_runner_ran_nothing_reason_shown"
else fail "$T.grade_runner_ran_nothing_reason_shown"; sed 's/^/    /' <<<"$out"; fi
out=$(cd "$R" && RUN_TESTS=./fake-runner tools/grade nosuch 2>&1); rc=$?
if [ $rc = 2 ] && grep -q "unknown lab 'nosuch'" <<<"$out"; then pass "$T.grade_unknown_lab"
else fail "$T.grade_unknown_lab (status $rc: $out)"; fi
exit 0
