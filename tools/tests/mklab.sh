#!/bin/bash
# tools/tests/mklab.sh: the lab tools' own tests (host test; docs/labs/README.md).
# Layer: host test, no kernel boot.  Runs tools/mklab and tools/grade on small
# synthetic trees made here (a git repository with a lab list and C files
# carrying markers), never on the real tree:
#   - --list prints the labs in order, name first;
#   - LAB DIR replaces LAB's regions by their stubs, keeps the other labs'
#     code without markers, keeps unmarked files byte for byte, writes .lab,
#     makes DIR a git repository tagged lab-base;
#   - errors, each a message naming the file and line and a non-zero status,
#     nothing written: BEGIN without END, END without BEGIN, END of another
#     lab, a region inside another, the same region marked twice, a second
#     STUB, a misspelt marker, a lab not in the list (marker or argument), a
#     lab with no region;
#   - --all-branches makes lab/NN-NAME branches, each the child of the last;
#   - make handin (mk/labs.mk) in a student tree (tag lab-base) and in a
#     clone of the branches (tags lab-base/NN-NAME): the patch applies to
#     the base and gives the student's file;
#   - tools/grade scores a fake runner's verdicts: points per test, a lost
#     verdict is run again alone, private tests from GRADE_EXTRA, results.json;
#     a runner that ran no test (its list boot failed) is run once more, and
#     if it fails again its output is every test's reason.
source "$(dirname "$0")/../testlib.sh"
T=mklab
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-mklab.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
G="git -c user.name=t -c user.email=t@localhost"

# mkrepo DIR: a synthetic solution tree with the real tools and a lab list
mkrepo() {
    local d=$1
    mkdir -p "$d/tools/labs" "$d/src"
    cp tools/mklab tools/grade "$d/tools/"
    mkdir -p "$d/mk" && cp mk/labs.mk "$d/mk/" && printf 'BUILD ?= build\ninclude mk/labs.mk\n' > "$d/Makefile"
    printf '# test labs\n01 alpha  the first\n02 beta   the second\n' > "$d/tools/labs/list"
    cat > "$d/src/a.c" <<'EOF'
int keep_me(void) { return 1; }
int alpha_fn(void)
{
/* LAB alpha: BEGIN */
/* LAB alpha: STUB
    return lab_not_written("alpha_fn");
*/
    return 42 * alpha_secret_sauce();
/* LAB alpha: END */
}
int beta_fn(void)
{
    /* LAB beta: BEGIN */
    /* LAB beta: STUB
        return lab_not_written("beta_fn");
    */
    return beta_secret_sauce();
    /* LAB beta: END */
}
EOF
    printf 'plain file, no markers\n' > "$d/src/plain.c"
    printf 'notes: /* LAB alpha: BEGIN */ in a text file is not a marker\n' > "$d/notes.txt"
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

# ---- a good cut
if "$R/tools/mklab" alpha "$TMP/s1" >"$TMP/cut.log" 2>&1; then
    a=$TMP/s1/src/a.c
    if grep -q 'return lab_not_written("alpha_fn");' "$a" && ! grep -q alpha_secret_sauce "$a"; then
        pass "$T.region_replaced_by_stub"; else fail "$T.region_replaced_by_stub"; sed 's/^/    /' "$a"; fi
    if grep -q 'return beta_secret_sauce();' "$a" && ! grep -q 'beta_fn");' "$a" && ! grep -q 'LAB ' "$a"; then
        pass "$T.other_lab_kept_markers_gone"; else fail "$T.other_lab_kept_markers_gone"; sed 's/^/    /' "$a"; fi
    if cmp -s "$R/src/plain.c" "$TMP/s1/src/plain.c" && cmp -s "$R/notes.txt" "$TMP/s1/notes.txt"; then
        pass "$T.unmarked_files_intact"; else fail "$T.unmarked_files_intact"; fi
    if [ "$(sed -n 's/^LAB=//p' "$TMP/s1/.lab")" = alpha ] && git -C "$TMP/s1" rev-parse -q --verify lab-base >/dev/null &&
       [ -z "$(git -C "$TMP/s1" status --porcelain)" ]; then
        pass "$T.student_tree_knows_its_lab"; else fail "$T.student_tree_knows_its_lab"; fi
    exp=$(printf 'int keep_me(void) { return 1; }\nint alpha_fn(void)\n{\n    return lab_not_written("alpha_fn");\n}\n')
    if [ "$(head -n 5 "$a")" = "$exp" ]; then pass "$T.stub_lines_exact"; else fail "$T.stub_lines_exact"; head -n 5 "$a" | sed 's/^/    /'; fi
else
    fail "$T.cut_alpha (mklab alpha failed)"; sed 's/^/    /' "$TMP/cut.log"
fi
if "$R/tools/mklab" beta "$TMP/s1" >"$TMP/out" 2>&1; then fail "$T.refuses_nonempty_dir"
else pass "$T.refuses_nonempty_dir"; fi

# ---- errors: each a message with file:line (when about a file) and status 1, nothing written
# bad NAME EXPECT-REGEX FILE-CONTENT [LAB]
bad() {
    local n=$1 want=$2 content=$3 lab=${4:-alpha} d=$TMP/bad-$1
    mkrepo "$d" || { fail "$T.$n (setup)"; return; }
    printf '%s\n' "$content" > "$d/src/b.c"
    (cd "$d" && git add -A && $G commit -q -m b) >/dev/null
    "$d/tools/mklab" "$lab" "$TMP/out-$n" >"$TMP/err" 2>&1
    local rc=$?
    if [ $rc -ne 0 ] && grep -qE "$want" "$TMP/err" && [ ! -e "$TMP/out-$n/src" ]; then pass "$T.error_$n"
    else fail "$T.error_$n (status $rc, want /$want/, nothing written)"; sed 's/^/    /' "$TMP/err"; fi
}
bad begin_without_end 'src/b.c:2: LAB alpha: BEGIN without END' $'x\n/* LAB alpha: BEGIN */\ny'
bad end_without_begin 'src/b.c:2: LAB alpha: END without a BEGIN' $'x\n/* LAB alpha: END */'
bad end_of_other_lab  'src/b.c:2: LAB beta: END does not match LAB alpha' $'/* LAB alpha: BEGIN */\n/* LAB beta: END */\n/* LAB alpha: END */'
bad nested            'src/b.c:2: LAB beta: BEGIN inside LAB alpha.s region opened at line 1' $'/* LAB alpha: BEGIN */\n/* LAB beta: BEGIN */\n/* LAB beta: END */\n/* LAB alpha: END */'
bad marked_twice      'src/b.c:2: LAB alpha: region marked twice' $'/* LAB alpha: BEGIN */\n/* LAB alpha: BEGIN */\nx\n/* LAB alpha: END */\n/* LAB alpha: END */'
bad two_stubs         'src/b.c:4: LAB alpha: second STUB' $'/* LAB alpha: BEGIN */\n/* LAB alpha: STUB\n*/\n/* LAB alpha: STUB\n*/\n/* LAB alpha: END */'
bad misspelt          'src/b.c:1: unrecognised LAB marker' $'/* LAB alpha: BEGN */'
bad unknown_in_marker 'src/b.c:1: LAB gamma: no such lab' $'/* LAB gamma: BEGIN */\n/* LAB gamma: END */'
bad stub_never_closed 'LAB alpha: STUB comment never closed' $'/* LAB alpha: BEGIN */\n/* LAB alpha: STUB\n  return 0;'
bad unknown_lab_arg   "unknown lab 'gamma'" 'int ok;' gamma
# a lab with no region at all
mkrepo "$TMP/empty" && printf '01 alpha a\n02 beta b\n03 gamma c\n' > "$TMP/empty/tools/labs/list"
if "$TMP/empty/tools/mklab" gamma "$TMP/out-empty" >"$TMP/err" 2>&1; then fail "$T.error_lab_without_regions"
elif grep -q 'lab gamma marks no region' "$TMP/err"; then pass "$T.error_lab_without_regions"
else fail "$T.error_lab_without_regions"; sed 's/^/    /' "$TMP/err"; fi
# --check counts regions per lab
out=$("$R/tools/mklab" --check 2>&1)
if grep -q '^alpha: 1 regions in 1 files' <<<"$out" && grep -q '^beta: 1 regions in 1 files' <<<"$out"; then
    pass "$T.check_counts_regions"; else fail "$T.check_counts_regions ($out)"; fi

# ---- --all-branches into a new repository
B=$TMP/branches
if "$R/tools/mklab" --all-branches "$B" >"$TMP/br.log" 2>&1; then
    refs=$(git -C "$B" for-each-ref --format='%(refname:short)' refs/heads | tr '\n' ' ')
    a1=$(git -C "$B" rev-parse lab/01-alpha) b1p=$(git -C "$B" rev-parse lab/02-beta^ 2>/dev/null)
    if [ "$refs" = "lab/01-alpha lab/02-beta " ] && [ "$a1" = "$b1p" ] &&
       git -C "$B" show lab/02-beta:src/a.c | grep -q 'return alpha_secret_sauce\|42 \* alpha_secret_sauce' &&
       git -C "$B" show lab/02-beta:src/a.c | grep -q 'lab_not_written("beta_fn")' &&
       [ "$(git -C "$B" show lab/01-alpha:.lab | sed -n 's/^LAB=//p')" = alpha ] &&
       [ "$(git -C "$B" rev-parse lab-base/02-beta)" = "$(git -C "$B" rev-parse lab/02-beta)" ]; then
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
printf '# points: 2\necho FAIL private.two \\(nope\\)\n' > "$TMP/extra/p2.sh"
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
