#!/usr/bin/env bash
# setup.sh: Vellum's Gradescope autograder, the image's setup (the bundle
# `make gradescope LAB=x` writes has it at its root; its source is
# tools/autograder/setup.sh; docs/labs/README.md, "Gradescope and GitHub
# Classroom").
#
# Gradescope runs it once, as root, on Ubuntu, when it builds the
# autograder's image, with the bundle unzipped into /autograder/source.  It
#   1. installs what tools/setup.sh takes for granted (git, make, gcc, tar,
#      gzip) with apt-get, if one is missing;
#   2. unpacks the lab's base, base.tar.gz (the student tree tools/mklab
#      made: a git repository tagged lab-base), into /autograder/source/base;
#   3. runs the base's tools/setup.sh, which installs the Debian/Ubuntu
#      packages Vellum needs (QEMU, GRUB, e2fsprogs, a 32-bit gcc, ...);
#   4. builds the base once (make all test-kernel test-iso), so that each
#      submission's build (run_autograder) recompiles only the files it
#      changed.  A base that does not build is an error here, at upload
#      time, not a zero for every student.
# Run again, with everything there, it does nothing and returns at once.
#
# Environment (for tests; Gradescope sets none of it):
#   AUTOGRADER_ROOT       instead of /autograder
#   AUTOGRADER_PREBUILD=0 skip step 4 (run_autograder then builds it all)
#   AUTOGRADER_PREBUILT=DIR  a speed-up for tests only: copy DIR, a build
#                         directory of the solution tree, into the base
#                         before step 4 (the files the lab did not cut keep
#                         the solution's mtimes, so only the cut ones
#                         recompile, as tools/tests/labs.sh does)
set -u
SRC=${AUTOGRADER_ROOT:-/autograder}/source
export DEBIAN_FRONTEND=noninteractive
say() { echo "setup.sh: $*"; }

# ---- 1. git, make, gcc, tar, gzip
missing=""
for t in git make gcc tar gzip; do command -v "$t" >/dev/null 2>&1 || missing="$missing $t"; done
if [ -n "$missing" ]; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        say "missing:$missing; install them (apt-get install -y$missing) and run me again" >&2; exit 1
    fi
    say "installing:$missing"
    apt-get update -qq </dev/null && apt-get install -y -qq --no-install-recommends $missing ca-certificates </dev/null ||
        { say "apt-get install$missing failed" >&2; exit 1; }
fi

# ---- 2. the base, unpacked once
B=$SRC/base
if [ ! -f "$B/.lab" ]; then
    [ -f "$SRC/base.tar.gz" ] || { say "no $SRC/base.tar.gz: is this the bundle make gradescope wrote?" >&2; exit 1; }
    rm -rf "$B" "$B.tmp" && mkdir -p "$B.tmp" &&
        tar -xzf "$SRC/base.tar.gz" -C "$B.tmp" && mv "$B.tmp" "$B" ||
        { say "cannot unpack $SRC/base.tar.gz" >&2; exit 1; }
    say "unpacked the base of lab $(sed -n 's/^LAB=//p' "$B/.lab") into $B"
fi

# ---- 3. the packages Vellum needs (quiet and quick when they are there)
(cd "$B" && sh tools/setup.sh) || { say "tools/setup.sh failed (above)" >&2; exit 1; }

# ---- 4. the base, built once
[ "${AUTOGRADER_PREBUILD:-1}" = 0 ] && exit 0
[ -f "$B/build/.autograder-built" ] && exit 0
if [ -n "${AUTOGRADER_PREBUILT:-}" ] && [ ! -d "$B/build" ]; then
    P=$(cd "$AUTOGRADER_PREBUILT" && pwd) || { say "AUTOGRADER_PREBUILT=$AUTOGRADER_PREBUILT is no directory" >&2; exit 1; }
    mkdir -p "$B/build"
    tar -C "$P" --exclude=./debug --exclude=./clang --exclude=./grade --exclude='./*.iso' --exclude=./isodir \
        --exclude=./isotest --exclude='./gradescope-*.zip' -S -cf - . | tar -C "$B/build" -xf - || { say "cannot copy $P" >&2; exit 1; }
    # The dependency files name their targets under the BUILD they were
    # made with; here it is build/ (else a changed header would not
    # recompile its includers).
    d=$(ls "$B"/build/kernel/*.d 2>/dev/null | head -n 1)
    if [ -n "$d" ]; then
        obj=kernel/$(basename "$d" .d).o
        tgt=$(head -n 1 "$d"); tgt=${tgt%%:*}
        pre=${tgt%"$obj"}
        if [ -n "$pre" ] && [ "$pre" != build/ ] && [ "$pre" != "$tgt" ]; then
            find "$B/build" -name '*.d' -exec sed -i -e "s|^$pre|build/|" -e "s| $pre| build/|g" {} +
        fi
    fi
    say "seeded the base's build with $P (a test speed-up)"
fi
say "building the base (make all test-kernel test-iso) ..."
if (cd "$B" && make -s --no-print-directory -j"$(nproc 2>/dev/null || echo 2)" BUILD=build all test-kernel test-iso) \
        > "$SRC/base-build.log" 2>&1; then
    touch "$B/build/.autograder-built"
    say "built"
else
    tail -n 40 "$SRC/base-build.log" | sed 's/^/    /' >&2
    say "the lab's base does not build here (above; $SRC/base-build.log)" >&2
    exit 1
fi
