# tools/suites/ext2-common.sh: shared by the ext2*.conf suites (sourced).
# Images come from `make images` (mk/images.mk) in $BUILD/images.
# post_check helpers print PASS/FAIL lines for tools/run-tests.
IMGDIR=${BUILD:-build}/images
VPATTERN=${BUILD:-build}/tools/vpattern
# Every post_check starts with ext2_tmp: a private temp dir in $T (suites run
# in parallel), removed by ext2_tmp_done.
ext2_tmp() { T=$(mktemp -d "${TMPDIR:-/tmp}/ext2-post.XXXXXX"); }
ext2_tmp_done() { rm -rf "$T"; }
TIMEOUT=120                      # PIO disk I/O under TCG: reading MBs takes seconds

# fsck_clean NAME IMAGE: e2fsck -fn must exit 0
fsck_clean() {
    if e2fsck -fn "$2" >$T/fsck 2>&1; then
        echo "PASS $1"
    else
        echo "FAIL $1"; sed 's/^/    /' $T/fsck
    fi
    rm -f $T/fsck
}

# same_file NAME IMAGE PATH EXPECTED: debugfs dump of PATH equals EXPECTED exactly
same_file() {
    local out=$T/dump
    rm -f "$out"
    debugfs -R "dump -p $3 $out" "$2" >/dev/null 2>&1
    if [ -f "$out" ] && cmp -s "$out" "$4"; then
        echo "PASS $1"
    else
        echo "FAIL $1 ($3 differs from the expected bytes)"
    fi
    rm -f "$out"
}

# stat_has NAME IMAGE PATH REGEX: debugfs stat PATH matches REGEX
# missing NAME IMAGE PATH: PATH does not exist
stat_has() {
    if debugfs -R "stat $3" "$2" 2>/dev/null | grep -Eq "$4"; then
        echo "PASS $1"
    else
        echo "FAIL $1 (debugfs stat $3 lacks /$4/)"
    fi
}

missing() {
    if debugfs -R "stat $3" "$2" 2>&1 | grep -q "File not found"; then
        echo "PASS $1"
    else
        echo "FAIL $1 ($3 still exists)"
    fi
}
