#!/bin/bash
# tools/tests/reading_order.sh: the write path's reading order, the list
# that opens docs/page-cache.md, matches the code and stays short (host test).
#  reading_order.functions_found  every listed function is defined in the
#                                 file the list names (tools/reading-order)
#  reading_order.lines            the listed functions total at most 935 lines
#                                 (910 until SMP step 5 added call_rw_iter and
#                                 syscall_handler's choice of the big lock)
#  reading_order.files            ... in at most 8 files
#  reading_order.doc_output_true  the tool's output pasted in docs/page-cache.md
#                                 (the block after "$ tools/reading-order") is
#                                 what the tool prints on today's code
#  reading_order.self_test        the tool reports a function that is not
#                                 there, and measures a known one exactly
source "$(dirname "$0")/../testlib.sh"
T=reading_order
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-ro.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
MAX_LINES=935 MAX_FILES=8

out=$(tools/reading-order docs/page-cache.md); rc=$?
missing=$(grep '^MISSING' <<< "$out")
read -r lines files < <(sed -n 's/^total: \([0-9]*\) lines in \([0-9]*\) files.*/\1 \2/p' <<< "$out")
nfun=$(sed -n 's/^total: .* files (\([0-9]*\) functions.*/\1/p' <<< "$out")
if [ $rc -eq 0 ] && [ -z "$missing" ] && [ "${nfun:-0}" -ge 20 ]; then
    pass "$T.functions_found"
else
    fail "$T.functions_found (not found where docs/page-cache.md says: $(tr '\n' ';' <<< "$missing") functions: ${nfun:-0})"
fi
if [ -n "$lines" ] && [ "$lines" -le $MAX_LINES ]; then
    pass "$T.lines"
else
    fail "$T.lines (${lines:-?} lines > $MAX_LINES)"
fi
if [ -n "$files" ] && [ "$files" -le $MAX_FILES ]; then
    pass "$T.files"
else
    fail "$T.files (${files:-?} files > $MAX_FILES)"
fi

pasted=$(awk '/^\$ tools\/reading-order$/ { on = 1; next } on && /^```/ { exit } on' docs/page-cache.md)
if [ -n "$pasted" ] && [ "$pasted" = "$out" ]; then
    pass "$T.doc_output_true"
else
    fail "$T.doc_output_true (docs/page-cache.md's pasted output differs from tools/reading-order's: paste it again)"
    diff <(printf '%s\n' "$pasted") <(printf '%s\n' "$out") | head -n 10 | sed 's/^/    /'
fi

# The tool itself: a made-up list with one real function of a known size
# (a C file and a .S file written here) and one that does not exist.
mkdir -p "$TMP/t"
printf 'int x;\nstatic int f(int a);\n/* f: */\nstatic int f(int a)\n{\n    if (a) { return 1; }\n    return 0;\n}\n' > "$TMP/t/a.c"
printf '    .globl g\ng:\n    movl $1, %%eax\n    ret\n    .size g, . - g\n' > "$TMP/t/b.S"
rel=${TMP#$ROOT/}
[ "$rel" = "$TMP" ] && rel=$(realpath --relative-to="$ROOT" "$TMP")
printf '<!-- reading-order -->\n1. `%s/t/a.c`: `f`, `nosuch` — x\n2. `%s/t/b.S`: `g` — y\n<!-- /reading-order -->\n' \
    "$rel" "$rel" > "$TMP/doc.md"
sout=$(tools/reading-order "$TMP/doc.md"); src=$?
if [ $src -ne 0 ] && grep -q "^MISSING $rel/t/a.c nosuch" <<< "$sout" &&
   grep -Eq "^$rel/t/a.c +f +5$" <<< "$sout" && grep -Eq "^$rel/t/b.S +g +3$" <<< "$sout" &&
   grep -q '^total: 8 lines in 2 files (2 functions, 1 missing)' <<< "$sout"; then
    pass "$T.self_test"
else
    fail "$T.self_test (tools/reading-order on a known list said: $(tr '\n' ';' <<< "$sout"), status $src)"
fi
